import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * What the live API's note record has beside its text (`GET /v2/memo`):
 * `html_body`, the note as HTML when it was written so (null for a plain-text note);
 * `parent_id`, the note it answers (a reply; null for a note of its own); `todo_id`, the
 * todo it was written on (the note is then also on the todo's record).
 */
export function noteThreads(ctx: MigrationContext) {
  const id = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('notes').addColumn('html_body', 'text').execute();
      await db.schema.alterTable('notes').addColumn('parent_id', id).execute();
      await db.schema.alterTable('notes').addColumn('todo_id', id).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const column of ['todo_id', 'parent_id', 'html_body']) {
        await db.schema.alterTable('notes').dropColumn(column).execute();
      }
    },
  };
}

import type { Kysely } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * For the workspace-level reads: custom values on todos, the list order index of the small
 * tables (users, teams, web forms), and note indexes that keep each `GET /v2/memo` filter
 * one index range scan in list order (`created_at`, `id`).
 */
export function workspaceReads(_ctx: MigrationContext) {
  async function index(db: Kysely<unknown>, table: string, name: string, columns: string[]) {
    await db.schema.createIndex(`${table}_${name}`).on(table).columns(columns).execute();
  }

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('todos')
        .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      for (const table of ['users', 'teams', 'web_forms']) {
        await index(db, table, 'list', ['workspace_id', 'created_at', 'id']);
      }
      // The subject index gains `id`, so a subject's notes page by (created_at, id) too; it
      // replaces the old one rather than adding a second index to every note insert.
      await db.schema.dropIndex('notes_subject').execute();
      await index(db, 'notes', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'created_at',
        'id',
      ]);
      await index(db, 'notes', 'author', ['workspace_id', 'author_id', 'created_at', 'id']);
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('notes_author').execute();
      await db.schema.dropIndex('notes_subject').execute();
      await index(db, 'notes', 'subject', [
        'workspace_id',
        'subject_type',
        'subject_id',
        'created_at',
      ]);
      for (const table of ['users', 'teams', 'web_forms']) {
        await db.schema.dropIndex(`${table}_list`).execute();
      }
      await db.schema.alterTable('todos').dropColumn('custom').execute();
    },
  };
}

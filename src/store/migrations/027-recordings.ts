import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * Recordings (`/v2/recording`, docs/decisions.md, Recordings): a call another system recorded,
 * kept with its audio (an uploaded file, `file_id`, one recording a file), its title, duration
 * in seconds, summary, transcript segments and speakers (JSON arrays), attached to the record it
 * is of. `activities.recording_id` names the recording of a `recordingCreate` activity.
 */
export function recordings(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  const real = ctx.dialect === 'sqlite' ? 'real' : 'double precision';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recordings')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('file_id', text, (c) => c.notNull())
        .addColumn('subject_type', text, (c) => c.notNull())
        .addColumn('subject_id', text, (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('duration', real, (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('core_summary', 'text')
        .addColumn('segments', 'text', (c) => c.notNull())
        .addColumn('speakers', 'text', (c) => c.notNull())
        .addColumn('owner_id', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('recordings_pkey', ['workspace_id', 'id'] as never)
        .execute();
      // One recording a file: the file is its audio.
      await db.schema
        .createIndex('recordings_file')
        .on('recordings')
        .columns(['workspace_id', 'file_id'])
        .unique()
        .execute();
      // A record's recordings (deleted or moved with it).
      await db.schema
        .createIndex('recordings_subject')
        .on('recordings')
        .columns(['workspace_id', 'subject_type', 'subject_id'])
        .execute();
      await db.schema.alterTable('activities').addColumn('recording_id', text).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('activities').dropColumn('recording_id').execute();
      await db.schema.dropTable('recordings').execute();
    },
  };
}

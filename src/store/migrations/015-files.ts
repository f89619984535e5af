import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * Files (`POST /v2/file`, docs/decisions.md, Other resources): one row per file, and its bytes in
 * the database as numbered chunks of up to 256 KiB, so that a backup, a transaction and every
 * process see the same files. A file is `uploading` while its chunks arrive (each chunk its own
 * short write, so an upload never holds the write lock) and `ready` once the upload's write
 * transaction has checked and attached it; only ready files are listed and served.
 */
export function files(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  const bytes = ctx.dialect === 'sqlite' ? 'blob' : 'bytea';

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('files')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('subject_type', text)
        .addColumn('subject_id', text)
        .addColumn('memo', 'text')
        .addColumn('owner_id', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_pkey', ['workspace_id', 'id'] as never)
        .execute();
      // A record's files, oldest first (the list's keyset order).
      await db.schema
        .createIndex('files_subject')
        .on('files')
        .columns(['workspace_id', 'subject_type', 'subject_id', 'created_at', 'id'])
        .execute();
      // Uploads left unfinished (a process stopped mid-upload), swept by later uploads.
      await db.schema
        .createIndex('files_status')
        .on('files')
        .columns(['workspace_id', 'status', 'created_at'])
        .execute();
      await db.schema
        .createTable('file_chunks')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('file_id', text, (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('file_chunks_pkey', ['workspace_id', 'file_id', 'seq'] as never)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('file_chunks').execute();
      await db.schema.dropTable('files').execute();
    },
  };
}

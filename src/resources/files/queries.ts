import type { FileListRow } from '../../render/files.ts';
import type { Executor } from '../../store/database.ts';
import type { Position } from '../../store/keyset.ts';
import { keysetPage } from '../../store/keyset-rows.ts';
import type { FileObjectType } from './commands.ts';

/** A ready file as a download needs it. */
export interface StoredFile {
  id: string;
  name: string;
  content_type: string;
  size: number;
  chunk_count: number;
}

/** A ready file of the workspace, or undefined (unknown, another workspace's, still uploading). */
export async function readyFile(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<StoredFile | undefined> {
  const row = await db
    .selectFrom('files')
    .select(['id', 'name', 'content_type', 'size', 'chunk_count'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('status', '=', 'ready')
    .executeTakeFirst();
  return row && { ...row, size: Number(row.size), chunk_count: Number(row.chunk_count) };
}

/** One page of a record's files, oldest first, and whether more follow. */
export async function recordFilePage(
  db: Executor,
  workspaceId: string,
  target: { objectType: FileObjectType; objectId: string },
  after: Position | undefined,
  limit: number,
): Promise<{ rows: FileListRow[]; more: boolean }> {
  const query = db
    .selectFrom('files as f')
    .leftJoin('users as u', (j) =>
      j.onRef('u.workspace_id', '=', 'f.workspace_id').onRef('u.id', '=', 'f.owner_id'),
    )
    .select(['f.id', 'f.name', 'f.created_at', 'f.owner_id', 'u.name as owner_name'])
    .where('f.workspace_id', '=', workspaceId)
    .where('f.subject_type', '=', target.objectType)
    .where('f.subject_id', '=', target.objectId)
    .where('f.status', '=', 'ready');
  const past = after && ([after.sortKey, after.id] as const);
  return keysetPage(query, ['f.created_at', 'f.id'], past, limit);
}

/**
 * A file's bytes, chunk by chunk in order, each read when the one before has been taken:
 * a download holds one chunk at a time. Ends early (with an error) if the file is deleted
 * meanwhile.
 */
export async function* fileBytes(
  db: Executor,
  workspaceId: string,
  file: StoredFile,
): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < file.chunk_count; seq++) {
    const row = await db
      .selectFrom('file_chunks')
      .select('data')
      .where('workspace_id', '=', workspaceId)
      .where('file_id', '=', file.id)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!row) throw new Error(`file ${file.id}: chunk ${seq} is gone (deleted while read)`);
    yield Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  }
}

import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import type { Store } from '../../store/database.ts';

/** The most bytes one chunk row holds. */
export const CHUNK_BYTES = 256 * 1024;

/** How long an upload may stay unfinished before a later upload removes it. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** A file's row as its upload starts: `uploading`, attached to nothing yet. */
export interface NewUpload {
  name: string;
  contentType: string;
  ownerId: string;
}

/*
 * An upload writes its file row and each chunk as writes of their own (autocommit), outside
 * the workspace's write transaction: a slow client then holds no lock while its bytes
 * arrive, and on SQLite every other write goes on between two chunks. The file becomes
 * visible only when the upload's write transaction marks it `ready` (commands.ts).
 */

/** Starts an upload: its row, `uploading`; returns its id. */
export async function beginUpload(
  store: Store,
  workspaceId: string,
  upload: NewUpload,
): Promise<string> {
  const id = newId();
  await store.db
    .insertInto('files')
    .values({
      workspace_id: workspaceId,
      id,
      name: upload.name,
      content_type: upload.contentType,
      size: 0,
      chunk_count: 0,
      status: 'uploading',
      subject_type: null,
      subject_id: null,
      memo: null,
      owner_id: upload.ownerId,
      created_at: now(),
    })
    .execute();
  return id;
}

/** Stores chunk `seq` of an upload. */
export async function insertChunk(
  store: Store,
  workspaceId: string,
  fileId: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await store.db
    .insertInto('file_chunks')
    .values({ workspace_id: workspaceId, file_id: fileId, seq, data })
    .execute();
}

/** Removes an upload that did not finish (refused, cut short), with its chunks. */
export async function discardUpload(
  store: Store,
  workspaceId: string,
  fileId: string,
): Promise<void> {
  await store.transaction(async (trx) => {
    const removed = await trx
      .deleteFrom('files')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', fileId)
      .where('status', '=', 'uploading')
      .returning('id')
      .executeTakeFirst();
    if (!removed) return;
    await trx
      .deleteFrom('file_chunks')
      .where('workspace_id', '=', workspaceId)
      .where('file_id', '=', fileId)
      .execute();
  });
}

/** Removes the workspace's uploads left unfinished for an hour (a process stopped mid-upload). */
export async function sweepStaleUploads(store: Store, workspaceId: string): Promise<void> {
  const before = new Date(Date.now() - STALE_UPLOAD_MS).toISOString();
  const stale = await store.db
    .selectFrom('files')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'uploading')
    .where('created_at', '<', before)
    .limit(100)
    .execute();
  for (const { id } of stale) await discardUpload(store, workspaceId, id);
}

import { DomainError } from '../../domain/errors.ts';
import type { FileObjectType } from '../../domain/file-types.ts';
import type { SubjectType } from '../../model/tables.ts';
import type { Executor } from '../../store/database.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { addMemo } from '../commands.ts';
import { removeFilesFromValues } from '../custom-fields/writes.ts';

export { FILE_OBJECT_TYPES, type FileObjectType } from '../../domain/file-types.ts';

/** Each record type's table and how a missing one is named. */
const TARGETS: Record<FileObjectType, { table: string; object: string }> = {
  deal: { table: 'deals', object: '딜을' },
  lead: { table: 'leads', object: '리드를' },
  people: { table: 'people', object: '고객을' },
  organization: { table: 'organizations', object: '회사를' },
  product: { table: 'products', object: '상품을' },
  quote: { table: 'quotes', object: '견적서를' },
  // A custom object's record (`objectId` is the record's id, not its definition's).
  customObject: { table: 'custom_objects', object: '커스텀 오브젝트를' },
};

/** The record a file attaches to. */
export interface FileTarget {
  objectType: FileObjectType;
  objectId: string;
}

/** What the upload's write attaches: the stored file, where it goes, and its memo. */
export interface FinishedUpload {
  fileId: string;
  size: number;
  chunkCount: number;
  target: FileTarget | undefined;
  memo: string | undefined;
}

/** A 404 naming the file. */
export function fileNotFound(id: string): DomainError {
  return new DomainError('not_found', `파일을 찾을 수 없습니다: '${id.slice(0, 100)}'`);
}

/** Whether the record a file attaches to is in the workspace. */
export async function targetExists(
  db: Executor,
  workspaceId: string,
  target: FileTarget,
): Promise<boolean> {
  const { objectType, objectId } = target;
  const row = await db
    .selectFrom(TARGETS[objectType].table as 'deals')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', objectId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The 404 of a record a file cannot attach to, or whose files cannot be listed: not there. */
export function targetNotFound(target: FileTarget): DomainError {
  const { object } = TARGETS[target.objectType];
  return new DomainError('not_found', `${object} 찾을 수 없습니다: '${target.objectId}'`);
}

/**
 * The upload's write: checks the record the file goes to, marks the stored file `ready`
 * and attached to it, and adds the memo as a note of that record (with its `memoCreate`
 * activity), as a record's `memo` does elsewhere; a file attached to nothing keeps its memo.
 */
export async function finishUpload(
  w: WorkspaceWrite,
  actorId: string,
  upload: FinishedUpload,
): Promise<void> {
  const { target, memo } = upload;
  if (target && !(await targetExists(w.trx, w.workspaceId, target))) throw targetNotFound(target);
  await w.trx
    .updateTable('files')
    .set({
      status: 'ready',
      size: upload.size,
      chunk_count: upload.chunkCount,
      subject_type: target?.objectType ?? null,
      subject_id: target?.objectId ?? null,
      memo: memo ?? null,
      created_at: w.now,
    })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', upload.fileId)
    .execute();
  if (target && memo !== undefined && memo !== '') {
    await addMemo(w, target.objectType satisfies SubjectType, target.objectId, memo, actorId);
  }
}

/**
 * `POST /v2/file/{fileId}/delete`: removes a file and its bytes; an unknown one is a 404, the audio
 * of a recording a 409 (the recording's delete takes it).
 */
export async function deleteFile(w: WorkspaceWrite, fileId: string): Promise<void> {
  const recording = await w.trx
    .selectFrom('recordings')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  if (recording) {
    throw new DomainError(
      'conflict',
      `녹음의 오디오 파일은 녹음을 삭제해야 지울 수 있습니다: '${fileId}' (녹음 '${recording.id}')`,
    );
  }
  const removed = await w.trx
    .deleteFrom('files')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', fileId)
    .where('status', '=', 'ready')
    .returning('id')
    .executeTakeFirst();
  if (!removed) throw fileNotFound(fileId);
  await w.trx
    .deleteFrom('file_chunks')
    .where('workspace_id', '=', w.workspaceId)
    .where('file_id', '=', fileId)
    .execute();
  await removeFilesFromValues(w, [fileId]);
}

/**
 * Deletes the files attached to a record that is being deleted, with their bytes, as its
 * notes and todos go with it (docs/decisions.md, Activities and history).
 */
export async function deleteFilesOf(
  w: WorkspaceWrite,
  objectType: FileObjectType,
  objectId: string,
): Promise<void> {
  const attached = w.trx
    .selectFrom('files')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', objectType)
    .where('subject_id', '=', objectId);
  const ids = (await attached.execute()).map((f) => f.id);
  await w.trx
    .deleteFrom('file_chunks')
    .where('workspace_id', '=', w.workspaceId)
    .where('file_id', 'in', attached)
    .execute();
  await w.trx
    .deleteFrom('files')
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', objectType)
    .where('subject_id', '=', objectId)
    .execute();
  await removeFilesFromValues(w, ids);
}

/** Attaches a merged record's files to the kept one (docs/decisions.md, Merges). */
export async function moveFiles(
  w: WorkspaceWrite,
  objectType: FileObjectType,
  mergedId: string,
  keptId: string,
): Promise<void> {
  await w.trx
    .updateTable('files')
    .set({ subject_id: keptId })
    .where('workspace_id', '=', w.workspaceId)
    .where('subject_type', '=', objectType)
    .where('subject_id', '=', mergedId)
    .execute();
}

import type { CreateRecordingBody } from '../../api-schema/bodies/recordings.ts';
import { DomainError } from '../../domain/errors.ts';
import { transcriptProblem } from '../../domain/recordings.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { deleteFile, targetExists, targetNotFound } from '../files/commands.ts';
import { insertRecordings } from './writes.ts';

/** A 404 naming the recording. */
export function recordingNotFound(id: string): DomainError {
  return new DomainError('not_found', `녹음을 찾을 수 없습니다: '${id.slice(0, 100)}'`);
}

/**
 * `POST /v2/recording` (docs/decisions.md, Recordings): keeps a recording of a record, its audio
 * a ready file of the workspace that no other recording holds and that is attached to nothing
 * or to the same record; its transcript's segments name its speakers. The owner is the token's
 * user; a `recordingCreate` activity goes on the record.
 */
export async function createRecording(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateRecordingBody,
): Promise<Written> {
  const segments = body.transcriptSegmentList ?? [];
  const speakers = body.speakerInfoList ?? [];
  const problem = transcriptProblem(
    segments.map((s) => ({ ...s, confidence: s.confidence ?? null })),
    speakers,
  );
  if (problem) throw new DomainError('invalid_body', problem);
  const target = { objectType: body.objectType, objectId: body.objectId };
  if (!(await targetExists(w.trx, w.workspaceId, target))) throw targetNotFound(target);
  const file = await w.trx
    .selectFrom('files')
    .select(['subject_type', 'subject_id'])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', body.fileId)
    .where('status', '=', 'ready')
    .executeTakeFirst();
  if (!file)
    throw new DomainError('not_found', `파일을 찾을 수 없습니다: '${body.fileId.slice(0, 100)}'`);
  if (
    file.subject_id !== null &&
    (file.subject_type !== body.objectType || file.subject_id !== body.objectId)
  ) {
    throw new DomainError(
      'invalid_body',
      `'fileId'는 다른 레코드에 첨부된 파일입니다: '${body.fileId}'`,
    );
  }
  const held = await w.trx
    .selectFrom('recordings')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('file_id', '=', body.fileId)
    .executeTakeFirst();
  if (held) {
    throw new DomainError(
      'conflict',
      `이미 다른 녹음의 오디오인 파일입니다: '${body.fileId}' (녹음 '${held.id}')`,
    );
  }
  const [id] = await insertRecordings(w, [
    {
      fileId: body.fileId,
      subjectType: body.objectType,
      subjectId: body.objectId,
      title: body.title,
      duration: body.duration,
      source: body.source,
      coreSummary: body.coreSummary ?? null,
      segments: segments.map((s) => ({ ...s, confidence: s.confidence ?? null })),
      speakers,
      ownerId: actorId,
    },
  ]);
  return { id: id!, name: body.title, createdAt: w.now };
}

/** `POST /v2/recording/{recordingId}/delete`: the recording, its activity and its audio file. */
export async function deleteRecording(w: WorkspaceWrite, id: string): Promise<void> {
  const removed = await w.trx
    .deleteFrom('recordings')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .returning('file_id')
    .executeTakeFirst();
  if (!removed) throw recordingNotFound(id);
  await w.trx
    .deleteFrom('activities')
    .where('workspace_id', '=', w.workspaceId)
    .where('type', '=', 'recordingCreate')
    .where('recording_id', '=', id)
    .execute();
  await deleteFile(w, removed.file_id);
}

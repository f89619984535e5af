import type { AddMemoBody } from '../../api-schema/bodies/notes-todos.ts';
import { DomainError } from '../../domain/errors.ts';
import { MEMO_TYPE_IDS } from '../../domain/memo-types.ts';
import { renderMemo } from '../../render/notes.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { addMemo, pathRecord } from '../commands.ts';
import { NOTE_COLUMNS } from './queries.ts';

/** The record types a note can be written on through `POST /v2/{type}/{id}/memo`. */
export type MemoSubject = 'people' | 'organization' | 'deal' | 'lead' | 'customObject';

/**
 * `POST /v2/{people|organization|deal|lead|custom-object}/{id}/memo`: a note on the record, by the acting
 * user, exactly as a create's or update's `memo` writes it (its `memoCreate` activity, the
 * record's NOTE group); answers the note as `GET /v2/memo/{memoId}` shows it.
 */
export async function addNoteTo(
  w: WorkspaceWrite,
  actorId: string,
  subjectType: MemoSubject,
  subjectId: string,
  body: AddMemoBody,
): Promise<Record<string, unknown>> {
  if (body.typeId !== undefined && !MEMO_TYPE_IDS.includes(body.typeId)) {
    throw new DomainError(
      'invalid_body',
      `'typeId': 없는 노트 유형입니다: '${body.typeId.slice(0, 100)}' (GET /v2/memo/type-list의 _id: ${MEMO_TYPE_IDS.map((t) => `'${t}'`).join(', ')})`,
    );
  }
  await pathRecord(w, subjectType, subjectId);
  const memoId = await addMemo(w, subjectType, subjectId, body.text, actorId, body.typeId);
  const row = await w.trx
    .selectFrom('notes')
    .select(NOTE_COLUMNS)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', memoId!)
    .executeTakeFirstOrThrow();
  return renderMemo(row);
}

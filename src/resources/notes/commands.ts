import { type AddMemoBody, MAX_NOTE_TEXT } from '../../api-schema/bodies/notes-todos.ts';
import { htmlToText } from '../../domain/email-text.ts';
import { DomainError } from '../../domain/errors.ts';
import { MEMO_TYPE_IDS } from '../../domain/memo-types.ts';
import type { SubjectType } from '../../model/tables.ts';
import { renderMemo } from '../../render/notes.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { addMemo, pathRecord } from '../commands.ts';
import { todoRow } from '../todos/commands.ts';
import { NOTE_COLUMNS } from './queries.ts';

/** The record types a note can be written on through `POST /v2/{type}/{id}/memo`. */
export type MemoSubject =
  | 'people'
  | 'organization'
  | 'deal'
  | 'lead'
  | 'customObject'
  | 'product'
  | 'quote'
  | 'todo';

const invalid = (message: string) => new DomainError('invalid_body', message);

/**
 * `POST /v2/{people|organization|deal|lead|custom-object|product|quote|todo}/{id}/memo`: a
 * note on the record, by the acting user, exactly as a create's or update's `memo` writes it
 * (its `memoCreate` activity, the record's NOTE group); answers the note as
 * `GET /v2/memo/{memoId}` shows it. A note on a todo is on the todo's record too (its
 * `todoId` the todo); `parentId` makes it a reply to a note of the same record.
 */
export async function addNoteTo(
  w: WorkspaceWrite,
  actorId: string,
  pathType: MemoSubject,
  pathId: string,
  body: AddMemoBody,
): Promise<Record<string, unknown>> {
  if (body.typeId !== undefined && !MEMO_TYPE_IDS.includes(body.typeId)) {
    throw invalid(
      `'typeId': 없는 노트 유형입니다: '${body.typeId.slice(0, 100)}' (GET /v2/memo/type-list의 _id: ${MEMO_TYPE_IDS.map((t) => `'${t}'`).join(', ')})`,
    );
  }
  const text = noteText(body);
  const { subjectType, subjectId, todoId } = await noteSubject(w, pathType, pathId);
  const parentId = body.parentId ?? null;
  if (parentId !== null) await checkParent(w, parentId, subjectType, subjectId);
  const memoId = await addMemo(w, subjectType, subjectId, text, actorId, body.typeId, {
    htmlBody: body.htmlBody ?? null,
    parentId,
    todoId,
  });
  const row = await w.trx
    .selectFrom('notes')
    .select(NOTE_COLUMNS)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', memoId!)
    .executeTakeFirstOrThrow();
  return renderMemo(row);
}

/** The note's text: `text` or `memo` (the same if both), else the text of `htmlBody`. */
function noteText(body: AddMemoBody): string {
  if (body.text !== undefined && body.memo !== undefined && body.text !== body.memo)
    throw invalid(`'text'와 'memo'가 다릅니다: 노트의 글은 둘 중 하나로 보내 주세요.`);
  const given = body.text ?? body.memo;
  if (given !== undefined) return given;
  const fromHtml = body.htmlBody === undefined ? '' : htmlToText(body.htmlBody);
  if (!/\S/.test(fromHtml))
    throw invalid(`노트의 글이 없습니다: 'text'(또는 'memo')나 'htmlBody'를 보내 주세요.`);
  // The text a note keeps is bounded alike however it came: `htmlBody` may be longer (its tags).
  if (fromHtml.length > MAX_NOTE_TEXT)
    throw invalid(
      `'htmlBody'의 글이 ${MAX_NOTE_TEXT.toLocaleString('en-US')}자를 넘습니다: 'text'(또는 'memo')와 같은 한도입니다.`,
    );
  return fromHtml;
}

/** The record a note on the path's record is on: a todo's note is on the todo's record. */
async function noteSubject(
  w: WorkspaceWrite,
  pathType: MemoSubject,
  pathId: string,
): Promise<{ subjectType: SubjectType; subjectId: string; todoId: string | null }> {
  if (pathType !== 'todo') {
    await pathRecord(w, pathType, pathId);
    return { subjectType: pathType, subjectId: pathId, todoId: null };
  }
  const todo = await todoRow(w, pathId);
  // The note changes the record's NOTE group as one written on the record would: the API's.
  w.events.markDirect(todo.subject_type, todo.subject_id);
  return {
    subjectType: todo.subject_type as SubjectType,
    subjectId: todo.subject_id,
    todoId: pathId,
  };
}

/** A reply's note: one of the same record, else a 400 naming `parentId`. */
async function checkParent(
  w: WorkspaceWrite,
  parentId: string,
  subjectType: SubjectType,
  subjectId: string,
): Promise<void> {
  const parent = await w.trx
    .selectFrom('notes')
    .select(['subject_type', 'subject_id'])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) throw invalid(`'parentId': 노트를 찾을 수 없습니다: '${parentId}'`);
  if (parent.subject_type !== subjectType || parent.subject_id !== subjectId)
    throw invalid(`'parentId': 같은 레코드의 노트에만 답글을 달 수 있습니다: '${parentId}'`);
}

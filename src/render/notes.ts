import type { Selectable } from 'kysely';
import { DEFAULT_MEMO_TYPES } from '../domain/memo-types.ts';
import { subjectIds } from '../domain/subjects.ts';
import type { NoteTable } from '../model/tables.ts';

/** A note row as the memo queries read it. */
export type NoteRow = Omit<Selectable<NoteTable>, 'workspace_id'>;

/**
 * The memo record of `GET /v2/memo` and `GET /v2/memo/{memoId}`, keys in the live API's
 * order: in a list, first its `cursorId` (the cursor that continues the list after it);
 * its text, and its HTML when it was written so (else null); its type as `typeList` (`[]`
 * without one); its record's id under its key (`dealId`, `leadId`, `peopleId`,
 * `organizationId`, `productId` or `quoteId`; the others null, all null for a custom
 * object's), the todo it was written on (`todoId`), the note it answers (`parentId`); its
 * author as `ownerId`.
 */
export function renderMemo(row: NoteRow, cursorId?: string): Record<string, unknown> {
  const type =
    row.type_id === null ? undefined : DEFAULT_MEMO_TYPES.find((t) => t._id === row.type_id);
  const head: Record<string, unknown> = { id: row.id };
  if (cursorId !== undefined) head.cursorId = cursorId;
  return {
    ...head,
    text: row.text,
    htmlBody: row.html_body,
    typeList: type ? [type] : [],
    ...subjectIds(row.subject_type, row.subject_id),
    productId: row.subject_type === 'product' ? row.subject_id : null,
    quoteId: row.subject_type === 'quote' ? row.subject_id : null,
    todoId: row.todo_id,
    parentId: row.parent_id,
    ownerId: row.author_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

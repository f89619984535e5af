import type { Selectable } from 'kysely';
import { DEFAULT_MEMO_TYPES } from '../domain/memo-types.ts';
import { subjectIds } from '../domain/subjects.ts';
import type { NoteTable } from '../model/tables.ts';

/** A note row as the memo queries read it. */
export type NoteRow = Omit<Selectable<NoteTable>, 'workspace_id'>;

/**
 * The memo record of `GET /v2/memo` and `GET /v2/memo/{memoId}`: its type as the live API's
 * `typeList` (`[]` without one), its subject's id under its key (the others null; all null
 * for a note on a product or quote), its author as `ownerId`.
 */
export function renderMemo(row: NoteRow): Record<string, unknown> {
  const type =
    row.type_id === null ? undefined : DEFAULT_MEMO_TYPES.find((t) => t._id === row.type_id);
  return {
    id: row.id,
    text: row.text,
    typeList: type ? [type] : [],
    ...subjectIds(row.subject_type, row.subject_id),
    ownerId: row.author_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

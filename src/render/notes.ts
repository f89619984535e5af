import type { Selectable } from 'kysely';
import { subjectIds } from '../domain/subjects.ts';
import type { NoteTable } from '../model/tables.ts';

/** A note row as the memo queries read it. */
export type NoteRow = Omit<Selectable<NoteTable>, 'workspace_id'>;

/**
 * The memo record of `GET /v2/memo` and `GET /v2/memo/{memoId}`: its subject's id under its
 * key (the others null; all null for a note on a product or quote), its author as `ownerId`.
 */
export function renderMemo(row: NoteRow): Record<string, unknown> {
  return {
    id: row.id,
    text: row.text,
    ...subjectIds(row.subject_type, row.subject_id),
    ownerId: row.author_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

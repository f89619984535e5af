import type { WorkspaceWrite } from '../store/write.ts';

/**
 * The rows a record owns by `subject_type` and `subject_id`, which go when it is deleted:
 * its activities, notes, todos, history and recordings (a record type without some of
 * them has none to delete).
 */
const OWNED_ROWS = ['activities', 'notes', 'todos', 'history', 'recordings'] as const;

/** Deletes the rows record `id` of `subjectType` owns (`OWNED_ROWS`, and `also`). */
export async function deleteOwnedRows(
  w: WorkspaceWrite,
  subjectType: string,
  id: string,
  also: readonly 'sequence_enrollments'[] = [],
): Promise<void> {
  for (const table of [...OWNED_ROWS, ...also]) {
    await w.trx
      .deleteFrom(table)
      .where('workspace_id', '=', w.workspaceId)
      .where('subject_type', '=', subjectType as never)
      .where('subject_id', '=', id)
      .execute();
  }
}

import type { WorkspaceWrite } from '../../store/write.ts';
import { moveFiles } from '../files/commands.ts';
import { moveActivities } from './activities.ts';
import { moveHistory } from './history.ts';
import type { MergeKind } from './pair.ts';

/** The web-form submission column that links each record type. */
const SUBMISSION_COLUMN = {
  people: 'people_id',
  organization: 'organization_id',
  deal: 'deal_id',
  lead: 'lead_id',
} as const;

/**
 * Moves what is attached to the merged record to the kept one: notes, todos, sequence
 * enrollments, recordings, files, activities, history and web-form submissions. The kept record's derived
 * fields follow when it is rendered again.
 */
export async function moveAttached(
  w: WorkspaceWrite,
  kind: MergeKind,
  mergedId: string,
  keptId: string,
): Promise<void> {
  for (const table of ['notes', 'todos', 'sequence_enrollments', 'recordings'] as const) {
    await w.trx
      .updateTable(table)
      .set({ subject_id: keptId })
      .where('workspace_id', '=', w.workspaceId)
      .where('subject_type', '=', kind)
      .where('subject_id', '=', mergedId)
      .execute();
  }
  await moveFiles(w, kind, mergedId, keptId);
  await moveActivities(w, kind, mergedId, keptId);
  await moveHistory(w, kind, mergedId, keptId);
  const column = SUBMISSION_COLUMN[kind];
  await w.trx
    .updateTable('web_form_submissions')
    .set({ [column]: keptId })
    .where('workspace_id', '=', w.workspaceId)
    .where(column, '=', mergedId)
    .execute();
}

const TYPE_OF = { people: 'people', deals: 'deal', leads: 'lead' } as const;

/**
 * Points a link column of people, deals or leads (`people_id`, `organization_id`) at the
 * kept record instead of the merged one; each record moved is rendered again. The moved
 * records' `수정 날짜` and history stay: the record they link is the same one, under the
 * kept id (the kept record's history says so).
 */
export async function moveLinks(
  w: WorkspaceWrite,
  table: 'people' | 'deals' | 'leads',
  column: 'people_id' | 'organization_id',
  mergedId: string,
  keptId: string,
): Promise<void> {
  const rows = await w.trx
    .selectFrom(table as 'deals')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where(column, '=', mergedId)
    .execute();
  if (rows.length === 0) return;
  await w.trx
    .updateTable(table as 'deals')
    .set({ [column]: keptId })
    .where('workspace_id', '=', w.workspaceId)
    .where(column, '=', mergedId)
    .execute();
  for (const row of rows) w.touched.mark(TYPE_OF[table], row.id);
}

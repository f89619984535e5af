import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type NewPipelineRecord, pipelineRecordColumns } from '../deals/writes.ts';

/** A lead to add. */
export type NewLead = NewPipelineRecord;

/** Adds leads; their people and organizations are refreshed too. Returns ids in order. */
export async function insertLeads(w: WorkspaceWrite, leads: NewLead[]): Promise<string[]> {
  const rows = [];
  for (const l of leads) rows.push(await pipelineRecordColumns(w, l));
  await insertRecords(w, 'lead', rows);
  for (const r of rows)
    w.touched.markCounts('people', r.people_id).markCounts('organization', r.organization_id);
  return rows.map((r) => r.id);
}

import type { Selectable } from 'kysely';
import type { LeadTable } from '../model/tables.ts';
import { type PipelineRecordFacts, renderPipelineRecord } from './deals.ts';

/** A lead's `상태` when no label was set. */
export const DEFAULT_LEAD_STATUS = 'New';

/** The lead record (docs/decisions.md, Record keys): the deal shape, `상태` defaulting to `New`. */
export function renderLead(
  row: Selectable<LeadTable>,
  facts: PipelineRecordFacts,
): Record<string, unknown> {
  return renderPipelineRecord(row, row.label ?? DEFAULT_LEAD_STATUS, facts);
}

import type { Selectable } from 'kysely';
import { LEAD } from '../domain/record-types/leads.ts';
import type { LeadTable } from '../model/tables.ts';
import type { PipelineRecordFacts } from './deals.ts';
import { renderDeclared } from './declared.ts';

/**
 * The lead record (docs/decisions.md, Record keys) as `src/domain/record-types/leads.ts`
 * declares it: the deal shape, `상태` defaulting to `New`.
 */
export function renderLead(
  row: Selectable<LeadTable>,
  facts: PipelineRecordFacts,
): Record<string, unknown> {
  return renderDeclared(LEAD, row, facts);
}

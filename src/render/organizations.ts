import type { Selectable } from 'kysely';
import { ORGANIZATION } from '../domain/record-types/organizations.ts';
import type { OrganizationTable } from '../model/tables.ts';
import { type DeclaredFacts, type PipelineFactName, renderDeclared } from './declared.ts';

/** What an organization record is rendered from. */
export type OrganizationFacts = Required<
  Omit<DeclaredFacts, 'enrollments' | 'note' | PipelineFactName>
> &
  Pick<DeclaredFacts, 'note'>;

/**
 * The organization record (docs/decisions.md, Record keys) as
 * `src/domain/record-types/organizations.ts` declares it.
 */
export function renderOrganization(
  row: Omit<Selectable<OrganizationTable>, 'name_key'>,
  facts: OrganizationFacts,
): Record<string, unknown> {
  return renderDeclared(ORGANIZATION, row, facts);
}

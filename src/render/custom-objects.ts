import type { Selectable } from 'kysely';
import { CUSTOM_OBJECT } from '../domain/record-types/custom-objects.ts';
import type { CustomObjectTable } from '../model/tables.ts';
import { type DeclaredFacts, renderDeclared } from './declared.ts';

/** What a custom object record is rendered from; `customFields` are its own definition's. */
export type CustomObjectFacts = Pick<
  DeclaredFacts,
  'note' | 'todos' | 'owner' | 'teams' | 'customFields' | 'nameOf'
>;

/**
 * A custom object record (docs/decisions.md, Other resources): `id`, `customObjectDefinitionId`,
 * `RecordId` (its number within its definition), the 대표 field `이름`, its pipeline and stage, the
 * NOTE, OWNERSHIP and TODO groups, then its definition's custom fields, as
 * `src/domain/record-types/custom-objects.ts` declares it.
 */
export function renderCustomObject(
  row: Selectable<CustomObjectTable>,
  facts: CustomObjectFacts,
): Record<string, unknown> {
  return renderDeclared(CUSTOM_OBJECT, row, facts);
}

import type { Selectable } from 'kysely';
import { PEOPLE } from '../domain/record-types/people.ts';
import type { PeopleTable } from '../model/tables.ts';
import { type DeclaredFacts, type PipelineFactName, renderDeclared } from './declared.ts';

/** What a people record is rendered from: its row and the facts about it. */
export type PersonFacts = Required<Omit<DeclaredFacts, 'sequences' | 'note' | PipelineFactName>> &
  Pick<DeclaredFacts, 'note'>;

/**
 * The people record, keys in their order (docs/decisions.md, Record keys) as
 * `src/domain/record-types/people.ts` declares them, custom fields last.
 */
export function renderPerson(
  row: Omit<Selectable<PeopleTable>, 'email_key'>,
  facts: PersonFacts,
): Record<string, unknown> {
  return renderDeclared(PEOPLE, row, facts);
}

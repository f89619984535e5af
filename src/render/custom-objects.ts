import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import {
  type LatestNote,
  putNoteGroup,
  putOwnership,
  putTodoGroup,
  type Ref,
  type TodoFact,
} from '../domain/records.ts';
import type { CustomObjectTable } from '../model/tables.ts';

/** What a custom object record is rendered from. */
export interface CustomObjectFacts {
  pipeline: Ref | null;
  stage: Ref | null;
  note: LatestNote | undefined;
  todos: readonly TodoFact[];
  owner: Ref | null;
  teams: Ref[];
  /** The custom fields of the record's own definition, in definition order. */
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/**
 * A custom object record (docs/decisions.md, Other resources): `id`, `customObjectDefinitionId`,
 * `RecordId` (its number within its definition), the 대표 field `이름`, its pipeline and stage, the
 * NOTE, OWNERSHIP and TODO groups, then its definition's custom fields.
 */
export function renderCustomObject(
  row: Selectable<CustomObjectTable>,
  facts: CustomObjectFacts,
): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    customObjectDefinitionId: row.definition_id,
    RecordId: Number(row.record_number),
    이름: row.name,
    파이프라인: facts.pipeline,
    '파이프라인 단계': facts.stage,
  };
  putNoteGroup(r, facts.note);
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  putTodoGroup(r, facts.todos);
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

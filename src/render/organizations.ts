import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import {
  type DealCounts,
  type LatestNote,
  putDealCounters,
  putNoteGroup,
  putOwnership,
  putTodoGroup,
  putWebFormGroup,
  type Ref,
  type SubmissionFact,
  submittedForms,
  type TodoFact,
} from '../domain/records.ts';
import type { OrganizationTable } from '../model/tables.ts';

/** What an organization record is rendered from. */
export interface OrganizationFacts {
  counts: DealCounts;
  note: LatestNote | undefined;
  submissions: SubmissionFact[];
  /** Sequences any of its people are enrolled in. */
  sequences: Ref[];
  todos: TodoFact[];
  owner: Ref | null;
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** The organization record (docs/decisions.md, Record keys). */
export function renderOrganization(
  row: Omit<Selectable<OrganizationTable>, 'name_key'>,
  facts: OrganizationFacts,
): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    이름: row.name,
    이메일: row.email,
    전화: row.phone,
    '프로필 사진': row.profile_image,
    링크드인: row.linkedin,
  };
  putDealCounters(r, facts.counts);
  putNoteGroup(r, facts.note);
  putWebFormGroup(r, facts.submissions);
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  putTodoGroup(r, facts.todos);
  r['제출된 웹폼 목록'] = submittedForms(facts.submissions);
  r['등록된 시퀀스 목록'] = facts.sequences;
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

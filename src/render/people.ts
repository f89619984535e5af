import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import {
  type DealCounts,
  type EnrollmentFact,
  enrolledSequences,
  type LatestNote,
  putDealCounters,
  putNoteGroup,
  putOwnership,
  putSequenceGroup,
  putTodoGroup,
  putWebFormGroup,
  type Ref,
  type SubmissionFact,
  submittedForms,
  type TodoFact,
} from '../domain/records.ts';
import type { PeopleTable } from '../model/tables.ts';

/** What a people record is rendered from: its row and the facts about it. */
export interface PersonFacts {
  counts: DealCounts;
  note: LatestNote | undefined;
  submissions: SubmissionFact[];
  enrollments: EnrollmentFact[];
  todos: TodoFact[];
  owner: Ref | null;
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** The people record, keys in their order (docs/decisions.md, Record keys), custom fields last. */
export function renderPerson(
  row: Omit<Selectable<PeopleTable>, 'email_key'>,
  facts: PersonFacts,
): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    organizationId: row.organization_id,
    이름: row.name,
    이메일: row.email,
    전화: row.phone,
    포지션: row.job_title,
    '프로필 사진': row.profile_image,
    링크드인: row.linkedin,
  };
  putDealCounters(r, facts.counts);
  putNoteGroup(r, facts.note);
  putWebFormGroup(r, facts.submissions);
  putSequenceGroup(r, facts.enrollments);
  r['수신 거부 여부'] = row.unsubscribed === 1;
  r['수신 거부 사유'] = row.unsubscribe_reason;
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  putTodoGroup(r, facts.todos);
  r['제출된 웹폼 목록'] = submittedForms(facts.submissions);
  r['등록된 시퀀스 목록'] = enrolledSequences(facts.enrollments);
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

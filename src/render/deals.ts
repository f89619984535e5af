import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import {
  type EnrollmentFact,
  enrolledSequences,
  type LatestNote,
  putNoteGroup,
  putOwnership,
  putSequenceGroup,
  putTodoGroup,
  putWebFormGroup,
  type Ref,
  type SubmissionFact,
  type TodoFact,
} from '../domain/records.ts';
import { putStageTimes, type StageKeys, type StageTimes } from '../domain/stage-times.ts';
import { wholeDays } from '../domain/time.ts';
import type { DealTable, LeadTable } from '../model/tables.ts';

/** What a deal or lead record is rendered from. */
export interface PipelineRecordFacts {
  pipeline: Ref | null;
  stage: Ref | null;
  mainQuoteProducts: Ref[] | null;
  lastEmailOpenAt: string | null;
  note: LatestNote | undefined;
  submissions: SubmissionFact[];
  enrollments: EnrollmentFact[];
  todos: TodoFact[];
  owner: Ref | null;
  teams: Ref[];
  /** The stage timing keys of the record type, and the record's stage times. */
  stageKeys: readonly StageKeys[];
  stageTimes: StageTimes;
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/**
 * The deal and lead record (docs/decisions.md, Record keys; a lead has the same shape). `상태` is the
 * label, which follows the outcome until one is set (leads: `New`). The stage timing keys close the
 * fixed keys (the single deal's extra keys come before them), then the custom fields.
 */
export function renderPipelineRecord(
  row: Selectable<LeadTable> & { outcome?: string },
  status: string,
  facts: PipelineRecordFacts,
): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    peopleId: row.people_id,
    organizationId: row.organization_id,
    이름: row.name,
    파이프라인: facts.pipeline,
    '파이프라인 단계': facts.stage,
    '메인 견적 상품 리스트': facts.mainQuoteProducts,
    금액: row.amount,
    상태: status,
    마감일: row.closed_at,
    '수주 예정일': row.expected_close_at,
    '최근 이메일 오픈일': facts.lastEmailOpenAt,
    소스: row.source,
  };
  putNoteGroup(r, facts.note);
  putWebFormGroup(r, facts.submissions);
  putSequenceGroup(r, facts.enrollments);
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  putTodoGroup(r, facts.todos);
  r['등록된 시퀀스 목록'] = enrolledSequences(facts.enrollments);
  putStageTimes(r, facts.stageKeys, facts.stageTimes);
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

/** The deal record (docs/decisions.md, Record keys). */
export function renderDeal(
  row: Selectable<DealTable>,
  facts: PipelineRecordFacts,
): Record<string, unknown> {
  return renderPipelineRecord(row, row.label ?? row.outcome, facts);
}

/** Number of fixed keys of a list deal record: the single-deal keys go right after them. */
export const DEAL_FIXED_KEY_COUNT = 31;

/**
 * The extra keys of the single-deal response (docs/decisions.md, Record keys), computed at read
 * time.
 */
export function singleDealExtras(
  row: Pick<Selectable<DealTable>, 'created_at' | 'closed_at' | 'stage_entered_at'>,
  followers: Ref[],
  participants: Ref[],
  nowIso: string,
): Record<string, unknown> {
  const end = row.closed_at ?? nowIso;
  return {
    '상담 일수': wholeDays(row.created_at, end),
    '정체 일수': wholeDays(row.stage_entered_at ?? row.created_at, end),
    팔로워: followers.length > 0 ? followers : null,
    참여자: participants.length > 0 ? participants : null,
  };
}

/**
 * The single-deal record: the list record with the extra keys inserted after its fixed
 * keys, before the custom fields (docs/decisions.md, Record keys).
 */
export function withSingleDealExtras(
  listRecord: Record<string, unknown>,
  extras: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(listRecord);
  for (let i = 0; i < keys.length; i++) {
    if (i === DEAL_FIXED_KEY_COUNT) Object.assign(out, extras);
    out[keys[i]!] = listRecord[keys[i]!];
  }
  if (keys.length <= DEAL_FIXED_KEY_COUNT) Object.assign(out, extras);
  return out;
}

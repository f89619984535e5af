import type { CreateDealBody, UpdateDealBody } from '../../api-schema/bodies/deals.ts';
import type { DealOutcome } from '../../domain/deals.ts';
import { DomainError } from '../../domain/errors.ts';
import { DEAL } from '../../domain/record-types/deals.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import type { Written } from '../../domain/records.ts';
import { afterStageChange, type StageRow, stageTimesOf } from '../../domain/stage-times.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  addMemo,
  afterCreate,
  ChangeSet,
  checkReferenced,
  type FieldListInput,
  fieldsOnCreate,
  markReferrers,
  pathRecord,
  updateRow,
} from '../commands.ts';
import { checkRequired, type ResolvedFieldList, resolveFieldList } from '../fields/field-list.ts';
import { deleteFilesOf } from '../files/commands.ts';
import { recordHistory } from '../record-history/writes.ts';
import { deleteOwnedRows } from '../subject-rows.ts';
import { insertDeals } from './writes.ts';

/** Deals and leads: records on a pipeline, linked to a person and/or an organization. */
export type PipelineKind = 'deal' | 'lead';

const TABLE = { deal: 'deals', lead: 'leads' } as const;
const PIPELINE_LABEL = { deal: '딜 파이프라인', lead: '리드 파이프라인' } as const;

/** Columns of the deal fields that `fieldList` writes. */
const DEAL_COLUMNS = fieldListColumns(DEAL);

function invalid(message: string): DomainError {
  return new DomainError('invalid_body', message);
}

/** A record needs a person or an organization (or both), each of this workspace. */
export async function checkLinks(
  w: WorkspaceWrite,
  peopleId: string | null | undefined,
  organizationId: string | null | undefined,
): Promise<void> {
  if (!peopleId && !organizationId) {
    throw invalid(`'peopleId'와 'organizationId' 중 하나는 있어야 합니다.`);
  }
  if (peopleId) await checkReferenced(w, 'people', peopleId, 'peopleId');
  if (organizationId) await checkReferenced(w, 'organization', organizationId, 'organizationId');
}

/** A pipeline of the record's kind and one of its stages, both of this workspace. */
export async function checkStage(
  w: WorkspaceWrite,
  kind: PipelineKind,
  pipelineId: string,
  stageId: string,
): Promise<void> {
  const pipeline = await w.trx
    .selectFrom('pipelines')
    .select('name')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', pipelineId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!pipeline) {
    throw invalid(
      `'pipelineId': 이 워크스페이스에 없는 ${PIPELINE_LABEL[kind]} id입니다: '${pipelineId.slice(0, 100)}'`,
    );
  }
  const stage = await w.trx
    .selectFrom('pipeline_stages')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', stageId)
    .where('pipeline_id', '=', pipelineId)
    .executeTakeFirst();
  if (!stage) {
    throw invalid(
      `'pipelineStageId': 파이프라인 '${pipeline.name}'의 단계가 아닙니다: '${stageId.slice(0, 100)}'`,
    );
  }
}

/** `POST /v2/deal`: a new deal on a stage, with its outcome, label, links and fields. */
export async function createDeal(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateDealBody,
): Promise<Written> {
  await checkLinks(w, body.peopleId, body.organizationId);
  await checkStage(w, 'deal', body.pipelineId, body.pipelineStageId);
  const fields = await fieldsOnCreate(w, 'deal', body.fieldList, actorId);
  const [id] = await insertDeals(w, [
    {
      name: body.name,
      peopleId: body.peopleId ?? null,
      organizationId: body.organizationId ?? null,
      pipelineId: body.pipelineId,
      stageId: body.pipelineStageId,
      amount: body.price ?? null,
      outcome: body.status,
      label: body.상태 ?? null,
      expectedCloseAt: fields.value('수주 예정일'),
      ownerId: fields.ownerId,
      followerIds: fields.value('팔로워') ?? [],
      participantIds: fields.value('참여자') ?? [],
      custom: fields.custom,
    },
  ]);
  await afterCreate(w, 'deal', id!, body.memo, actorId, body.status);
  return { id: id!, name: body.name, createdAt: w.now };
}

/** What an update of a deal or lead may carry. */
export interface PipelineRecordUpdate {
  name?: string;
  peopleId?: string | null;
  organizationId?: string | null;
  pipelineId?: string | null;
  pipelineStageId?: string | null;
  memo?: string | null;
  fieldList?: FieldListInput;
}

/**
 * Updates a deal or lead: links (at least one stays), pipeline and stage (a new pipeline
 * needs its stage; a new stage restarts `정체 일수`), name, fields; `extra` adds the
 * kind's own changes. Each changed field is a history row carrying the record's links.
 */
export async function updatePipelineRecord(
  w: WorkspaceWrite,
  kind: PipelineKind,
  actorId: string,
  id: string,
  body: PipelineRecordUpdate,
  columns: Readonly<Record<string, string>>,
  extra?: (changes: ChangeSet, row: Record<string, unknown>, fields: ResolvedFieldList) => void,
): Promise<Written> {
  const row = await pathRecord(w, kind, id);
  const changes = new ChangeSet(row);
  const peopleId = body.peopleId !== undefined ? body.peopleId : (row.people_id as string | null);
  const organizationId =
    body.organizationId !== undefined
      ? body.organizationId
      : (row.organization_id as string | null);
  if (body.peopleId !== undefined || body.organizationId !== undefined) {
    await checkLinks(w, peopleId, organizationId);
    changes.link('people_id', peopleId).link('organization_id', organizationId);
  }
  await changeStage(w, kind, body, row, changes);
  const fields = await resolveFieldList(w, kind, body.fieldList, id);
  checkRequired(fields, JSON.parse(String(row.custom)));
  if (body.name !== undefined) changes.field('이름', 'name', body.name);
  extra?.(changes, row, fields);
  changes.fixedFields(fields.fixed, columns).customValues(fields.definitions, fields.custom);
  await updateRow(w, TABLE[kind], id, changes.update(w.now));
  if (kind === 'deal' && changes.sets('name')) await markReferrers(w, 'deal', id);
  await recordHistory(
    w,
    changes.changes.map((c) => ({
      subjectType: kind,
      subjectId: id,
      type: c.type,
      peopleId,
      organizationId,
      fieldName: c.fieldName,
      fieldValue: c.text,
      ownerId: actorId,
    })),
  );
  await addMemo(w, kind, id, body.memo, actorId);
  w.touched.mark(kind, id);
  if (changes.sets('people_id') || changes.sets('organization_id') || changes.sets('outcome')) {
    w.touched
      .markCounts('people', row.people_id as string | null)
      .markCounts('organization', row.organization_id as string | null)
      .markCounts('people', peopleId)
      .markCounts('organization', organizationId);
  }
  return { id, name: body.name ?? String(row.name), updatedAt: w.now };
}

async function changeStage(
  w: WorkspaceWrite,
  kind: PipelineKind,
  body: PipelineRecordUpdate,
  row: Record<string, unknown>,
  changes: ChangeSet,
): Promise<void> {
  if (body.pipelineId === undefined && body.pipelineStageId === undefined) return;
  if (body.pipelineId !== undefined && body.pipelineStageId === undefined) {
    throw invalid(`파이프라인을 바꾸려면 'pipelineId'와 'pipelineStageId'를 함께 보내 주세요.`);
  }
  const pipelineId =
    body.pipelineId !== undefined ? body.pipelineId : (row.pipeline_id as string | null);
  const stageId = body.pipelineStageId ?? null;
  if (pipelineId === null || stageId === null) {
    if (pipelineId !== null || stageId !== null) {
      throw invalid(
        pipelineId === null
          ? `'pipelineStageId'만 보낼 수 없습니다: 이 ${kind === 'deal' ? '딜' : '리드'}에는 파이프라인이 없습니다. 'pipelineId'도 보내 주세요.`
          : `'pipelineId'와 'pipelineStageId'는 함께 정하거나 함께 비워야 합니다.`,
      );
    }
  } else {
    await checkStage(w, kind, pipelineId, stageId);
  }
  changes
    .field('파이프라인', 'pipeline_id', pipelineId)
    .field('파이프라인 단계', 'stage_id', stageId);
  if (changes.sets('stage_id')) enterStage(changes, row, stageId, w.now);
}

/**
 * A change of stage: `stage_entered_at`, and the stage times (the stage left gets its exit
 * and the stay's time, the stage entered its entry), in the same update as the stage.
 */
export function enterStage(
  changes: ChangeSet,
  row: Record<string, unknown>,
  stageId: string | null,
  now: string,
): void {
  changes.columns.stage_entered_at = stageId === null ? null : now;
  const times = stageTimesOf(row as unknown as StageRow);
  const from = row.stage_id as string | null;
  changes.columns.stage_times = JSON.stringify(afterStageChange(times, from, stageId, now));
}

/**
 * `POST /v2/deal/{dealId}`: any create key. `status` moves `마감일` (set when the deal
 * closes, cleared when it reopens) and the counters of its person and organization.
 */
export async function updateDeal(
  w: WorkspaceWrite,
  actorId: string,
  dealId: string,
  body: UpdateDealBody,
): Promise<Written> {
  return updatePipelineRecord(w, 'deal', actorId, dealId, body, DEAL_COLUMNS, (changes, row) => {
    if (body.price !== undefined) changes.field('금액', 'amount', body.price);
    if (body.상태 !== undefined) changes.field('상태', 'label', body.상태);
    if (body.status !== undefined && body.status !== row.outcome) {
      changes.field('status', 'outcome', body.status);
      changes.columns.closed_at = closedAt(row.outcome as DealOutcome, body.status, row, w.now);
    }
  });
}

/** `마감일` after an outcome change (docs/decisions.md, Derived fields). */
function closedAt(
  before: DealOutcome,
  after: DealOutcome,
  row: Record<string, unknown>,
  now: string,
): string | null {
  if (after === 'In progress') return null;
  return before === 'In progress' ? now : (row.closed_at as string | null);
}

/**
 * Deletes a deal or lead with its quotes, activities, notes, todos, history and ended
 * sequence enrollments (with their timelines); web-form submissions stay, unlinked
 * (docs/decisions.md, Activities and history). One that an active sequence enrollment holds is
 * refused.
 */
export async function deletePipelineRecord(
  w: WorkspaceWrite,
  kind: PipelineKind,
  id: string,
): Promise<void> {
  const row = await pathRecord(w, kind, id);
  const ws = w.workspaceId;
  const enrolled = await w.trx
    .selectFrom('sequence_enrollments')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('subject_type', '=', kind)
    .where('subject_id', '=', id)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (enrolled) {
    throw invalid(
      `진행 중인 시퀀스에 등록된 ${kind === 'deal' ? '딜은' : '리드는'} 삭제할 수 없습니다: '${id}'`,
    );
  }
  const column = kind === 'deal' ? 'deal_id' : 'lead_id';
  const quotes = w.trx
    .selectFrom('quotes')
    .select('id')
    .where('workspace_id', '=', ws)
    .where(column, '=', id);
  // A quote goes with its deal or lead, and with it what it owns (its notes, files, ...).
  for (const quote of await quotes.execute()) {
    await deleteOwnedRows(w, 'quote', quote.id);
    await deleteFilesOf(w, 'quote', quote.id);
  }
  await w.trx
    .deleteFrom('quote_products')
    .where('workspace_id', '=', ws)
    .where('quote_id', 'in', quotes)
    .execute();
  await w.trx.deleteFrom('quotes').where('workspace_id', '=', ws).where(column, '=', id).execute();
  const enrollments = w.trx
    .selectFrom('sequence_enrollments')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('subject_type', '=', kind)
    .where('subject_id', '=', id);
  await w.trx
    .deleteFrom('sequence_timeline')
    .where('workspace_id', '=', ws)
    .where('enrollment_id', 'in', enrollments)
    .execute();
  await deleteOwnedRows(w, kind, id, ['sequence_enrollments']);
  await w.trx
    .updateTable('web_form_submissions')
    .set({ [column]: null })
    .where('workspace_id', '=', ws)
    .where(column, '=', id)
    .execute();
  await deleteFilesOf(w, kind, id);
  await w.trx.deleteFrom(TABLE[kind]).where('workspace_id', '=', ws).where('id', '=', id).execute();
  w.events.deleted(kind, id);
  // Custom Ref fields keep the id of a deleted deal; they show it with an empty name.
  if (kind === 'deal') await markReferrers(w, 'deal', id);
  // What went with it (its notes, todos, enrollments, activities) was its own: of its
  // person and organization, only the counts change.
  w.touched
    .markCounts('people', row.people_id as string | null)
    .markCounts('organization', row.organization_id as string | null);
}

import type { CreateLeadBody, UpdateLeadBody } from '../../api-schema/bodies/leads.ts';
import { DomainError } from '../../domain/errors.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import { LEAD } from '../../domain/record-types/leads.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { afterCreate, fieldsOnCreate } from '../commands.ts';
import { checkLinks, checkStage, updatePipelineRecord } from '../deals/commands.ts';
import { insertLeads } from './writes.ts';

/** Columns of the lead fields that `fieldList` writes. */
const LEAD_COLUMNS = fieldListColumns(LEAD);

/** `POST /v2/lead`: a new lead (`상태` `New` unless fieldList says otherwise). */
export async function createLead(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateLeadBody,
): Promise<Written> {
  await checkLinks(w, body.peopleId, body.organizationId);
  const pipelineId = body.pipelineId ?? null;
  const stageId = body.pipelineStageId ?? null;
  if ((pipelineId === null) !== (stageId === null)) {
    throw new DomainError(
      'invalid_body',
      `'pipelineId'와 'pipelineStageId'는 함께 보내거나 함께 빼야 합니다.`,
    );
  }
  if (pipelineId !== null && stageId !== null) await checkStage(w, 'lead', pipelineId, stageId);
  const fields = await fieldsOnCreate(w, 'lead', body.fieldList, actorId);
  const [id] = await insertLeads(w, [
    {
      name: body.name,
      peopleId: body.peopleId ?? null,
      organizationId: body.organizationId ?? null,
      pipelineId,
      stageId,
      amount: fields.value('금액'),
      label: fields.value('상태'),
      expectedCloseAt: fields.value('수주 예정일'),
      ownerId: fields.ownerId,
      custom: fields.custom,
    },
  ]);
  await afterCreate(w, 'lead', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

/** `POST /v2/lead/{leadId}`: any create key; each changed field a history row. */
export async function updateLead(
  w: WorkspaceWrite,
  actorId: string,
  leadId: string,
  body: UpdateLeadBody,
): Promise<Written> {
  return updatePipelineRecord(w, 'lead', actorId, leadId, body, LEAD_COLUMNS);
}

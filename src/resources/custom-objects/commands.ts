import { NameSchema } from '../../api-schema/bodies/common.ts';
import type {
  CreateCustomObjectBody,
  UpdateCustomObjectBody,
} from '../../api-schema/bodies/custom-objects.ts';
import type { CustomFieldType } from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { CUSTOM_OBJECT } from '../../domain/record-types/custom-objects.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import type { Ref } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  addMemo,
  afterCreate,
  ChangeSet,
  customOnCreate,
  markReferrers,
  updateRow,
} from '../commands.ts';
import { defineCustomField } from '../custom-fields/writes.ts';
import { checkRequired, type ResolvedFieldList, resolveFieldList } from '../fields/field-list.ts';
import { deleteFilesOf } from '../files/commands.ts';
import { insertPipeline } from '../pipelines/writes.ts';
import { recordFieldEdits } from '../record-history/writes.ts';
import { deleteOwnedRows } from '../subject-rows.ts';
import { type DefinitionRow, definitionNamed } from './definitions.ts';
import { insertCustomObject, insertDefinition } from './writes.ts';

const invalid = (message: string) => new DomainError('invalid_body', message);

/**
 * The live API's text for a custom object that is not there (docs/decisions.md, Other resources).
 */
export const CUSTOM_OBJECT_NOT_FOUND = '커스텀 오브젝트를 찾을 수 없습니다';

/** Columns of the built-in fields that `fieldList` writes. */
const COLUMNS = fieldListColumns(CUSTOM_OBJECT);

/**
 * `POST /v2/custom-object`: a record of the definition the body names (by id or name), its
 * 대표 field `이름` from the top-level `name` or from `fieldList` (the same value if both),
 * on a stage of the definition's pipeline if the body gives one, owned by the acting user
 * unless `fieldList` names another owner.
 */
export async function createCustomObject(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateCustomObjectBody,
): Promise<{ id: string; name: string; createdAt: string }> {
  const definition = await bodyDefinition(w, body);
  const fields = await resolveFieldList(
    w,
    'customObject',
    body.fieldList,
    undefined,
    definition.id,
  );
  checkRequired(fields, undefined);
  const listed = representative(fields);
  if (body.name !== undefined && fields.fixed.has('이름') && listed !== body.name)
    throw invalid(
      `대표 필드 '이름'이 'name'과 'fieldList'에 다르게 왔습니다: 한 곳에만 보내 주세요.`,
    );
  const name = body.name ?? listed;
  if (name === undefined)
    throw invalid(
      `대표 필드 '이름'이 있어야 합니다: 'name' 또는 'fieldList'의 [{"name": "이름", "stringValue": "..."}]`,
    );
  const stage = await stageOf(w, definition, body.pipelineId ?? null, body.pipelineStageId ?? null);
  const id = await insertCustomObject(w, {
    definitionId: definition.id,
    name,
    pipelineId: stage.pipelineId,
    stageId: stage.stageId,
    ownerId: fields.fixed.has('담당자') ? (fields.fixed.get('담당자') as string | null) : actorId,
    custom: customOnCreate(fields.custom),
  });
  await afterCreate(w, 'customObject', id, body.memo, actorId);
  return { id, name, createdAt: w.now };
}

/**
 * `POST /v2/custom-object/{customObjectId}`: its stage (`pipelineId` and `pipelineStageId`
 * together; both null takes it off the pipeline), its fields and a note. Each changed field
 * is a history row. Answers the definition's and the record's `{id, name}`.
 */
export async function updateCustomObject(
  w: WorkspaceWrite,
  actorId: string,
  id: string,
  body: UpdateCustomObjectBody,
): Promise<{
  customObjectDefinition: Ref;
  customObject: { id: string; name: string; updatedAt: string };
}> {
  const row = await pathCustomObject(w, id);
  const definition = await w.trx
    .selectFrom('custom_object_definitions')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', String(row.definition_id))
    .executeTakeFirstOrThrow();
  const changes = new ChangeSet(row);
  if (body.pipelineId !== undefined || body.pipelineStageId !== undefined) {
    if (body.pipelineId === undefined || body.pipelineStageId === undefined)
      throw invalid(`'pipelineId'와 'pipelineStageId'는 함께 보내야 합니다.`);
    const stage = await stageOf(w, definition, body.pipelineId, body.pipelineStageId);
    changes
      .field('파이프라인', 'pipeline_id', stage.pipelineId)
      .field('파이프라인 단계', 'stage_id', stage.stageId);
  }
  const fields = await resolveFieldList(w, 'customObject', body.fieldList, id, definition.id);
  checkRequired(fields, JSON.parse(String(row.custom)));
  if (fields.fixed.has('이름') && representative(fields) === undefined)
    throw invalid(`대표 필드 '이름'은 비울 수 없습니다.`);
  changes.fixedFields(fields.fixed, COLUMNS).customValues(fields.definitions, fields.custom);
  await updateRow(w, 'custom_objects', id, changes.update(w.now));
  if (changes.sets('name')) await markReferrers(w, 'customObject', id);
  await recordFieldEdits(w, 'customObject', id, changes.changes, actorId);
  await addMemo(w, 'customObject', id, body.memo, actorId);
  w.touched.mark('customObject', id);
  const name = changes.sets('name') ? String(changes.columns.name) : String(row.name);
  return {
    customObjectDefinition: { id: definition.id, name: definition.name },
    customObject: { id, name, updatedAt: changes.isEmpty ? String(row.updated_at) : w.now },
  };
}

/**
 * `POST /v2/custom-object/{customObjectId}/delete`: the record with its activities, notes,
 * todos, history, recordings and files (docs/decisions.md, Other resources); its `삭제` event names its
 * definition. Custom Ref fields of other records keep its id and show it with an empty name,
 * as they do a deleted deal's.
 */
export async function deleteCustomObject(w: WorkspaceWrite, id: string): Promise<void> {
  const row = await pathCustomObject(w, id);
  const ws = w.workspaceId;
  await deleteOwnedRows(w, 'customObject', id);
  await deleteFilesOf(w, 'customObject', id);
  await w.trx
    .deleteFrom('custom_objects')
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute();
  w.events.deleted('customObject', id, String(row.definition_id));
  await markReferrers(w, 'customObject', id);
}

/** The custom object a path names; one the workspace does not have is a 404. */
async function pathCustomObject(w: WorkspaceWrite, id: string): Promise<Record<string, unknown>> {
  const row = await w.trx
    .selectFrom('custom_objects')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new DomainError('not_found', `${CUSTOM_OBJECT_NOT_FOUND}: '${id}'`);
  // Its events are the write's own (its actor's), not derived.
  w.events.markDirect('customObject', id);
  return row as unknown as Record<string, unknown>;
}

/** The definition a create's body names: by id, by name, or both (the same one). */
async function bodyDefinition(
  w: WorkspaceWrite,
  body: CreateCustomObjectBody,
): Promise<DefinitionRow> {
  const definition = await definitionNamed(
    w.trx,
    w.workspaceId,
    body.customObjectDefinitionId,
    body.customObjectDefinitionName,
  );
  if (!definition)
    throw invalid(
      `'customObjectDefinitionId'나 'customObjectDefinitionName' 중 하나는 있어야 합니다.`,
    );
  return definition;
}

/** The 대표 field's value, when `fieldList` sets it to some text (a 400 past a record name's length). */
function representative(fields: ResolvedFieldList): string | undefined {
  const name = fields.fixed.get('이름');
  if (typeof name !== 'string' || !/\S/.test(name)) return undefined;
  if (name.length > NAME_MAX)
    throw invalid(`대표 필드 '이름'은 ${NAME_MAX}자까지입니다 (${name.length}자).`);
  return name;
}

/** The longest 대표 field `이름`: that of any record's name (`NameSchema`). */
const NAME_MAX = NameSchema.maxLength ?? 500;

/**
 * A stage of the definition's pipeline: both ids or neither (null, null: no stage). A
 * definition without a pipeline takes none; another pipeline or a stage of another pipeline
 * is a 400 naming the key.
 */
async function stageOf(
  w: WorkspaceWrite,
  definition: DefinitionRow,
  pipelineId: string | null,
  stageId: string | null,
): Promise<{ pipelineId: string | null; stageId: string | null }> {
  if ((pipelineId === null) !== (stageId === null))
    throw invalid(`'pipelineId'와 'pipelineStageId'는 함께 보내거나 함께 빼야 합니다.`);
  if (pipelineId === null || stageId === null) return { pipelineId: null, stageId: null };
  if (definition.pipeline_id === null)
    throw invalid(`'pipelineId': 커스텀 객체 '${definition.name}'에는 파이프라인이 없습니다.`);
  if (pipelineId !== definition.pipeline_id)
    throw invalid(
      `'pipelineId': 커스텀 객체 '${definition.name}'의 파이프라인이 아닙니다: '${pipelineId.slice(0, 100)}'`,
    );
  const stage = await w.trx
    .selectFrom('pipeline_stages')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('pipeline_id', '=', pipelineId)
    .where('id', '=', stageId)
    .executeTakeFirst();
  if (!stage)
    throw invalid(
      `'pipelineStageId': 커스텀 객체 '${definition.name}' 파이프라인의 단계가 아닙니다: '${stageId.slice(0, 100)}'`,
    );
  return { pipelineId, stageId };
}

/** One field of a new definition: its name and type (the custom field types). */
export interface DefinitionField {
  name: string;
  type: CustomFieldType;
  options?: string[];
  required?: boolean;
}

/** A custom object definition to make (the CLI's `custom-object define`, the demo). */
export interface NewDefinition {
  name: string;
  fields: DefinitionField[];
  /** Stage names of the definition's own pipeline (named after it), if it has one. */
  stages?: string[];
}

/**
 * Makes a custom object definition with its fields (after the built-in ones, in the order
 * given) and, with `stages`, a pipeline of its own. A name the workspace's definitions
 * have is a 409.
 */
export async function defineCustomObject(
  w: WorkspaceWrite,
  definition: NewDefinition,
): Promise<{ id: string; name: string; pipelineId: string | null; fieldIds: string[] }> {
  const taken = await w.trx
    .selectFrom('custom_object_definitions')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('position').as('last')])
    .where('workspace_id', '=', w.workspaceId)
    .executeTakeFirstOrThrow();
  const clash = await w.trx
    .selectFrom('custom_object_definitions')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('name', '=', definition.name)
    .executeTakeFirst();
  if (clash)
    throw new DomainError(
      'conflict',
      `같은 이름의 커스텀 객체 정의가 이미 있습니다: '${definition.name}'`,
    );
  let pipelineId: string | null = null;
  if (definition.stages && definition.stages.length > 0) {
    const pipeline = await insertPipeline(w, {
      kind: 'customObject',
      name: definition.name,
      stages: definition.stages.map((name) => ({ name })),
    });
    pipelineId = pipeline.id;
  }
  const id = newId();
  await insertDefinition(w, {
    id,
    name: definition.name,
    pipelineId,
    position: Number(taken.n) === 0 ? 0 : Number(taken.last) + 1,
    createdAt: w.now,
  });
  const fieldIds: string[] = [];
  for (const field of definition.fields) {
    fieldIds.push(
      await defineCustomField(w, {
        recordType: 'customObject',
        customObjectDefinitionId: id,
        name: field.name,
        type: field.type,
        required: field.required ?? false,
        showInCreateForm: field.required ?? false,
        options: field.options,
      }),
    );
  }
  return { id, name: definition.name, pipelineId, fieldIds };
}

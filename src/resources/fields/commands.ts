import type { CreateFieldBody, UpdateFieldBody } from '../../api-schema/bodies/fields.ts';
import {
  type CustomFieldRecordType,
  type CustomFieldType,
  NO_ATTACHMENT_RECORD_TYPES,
  type SelectOption,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { BUILT_IN_FIELDS } from '../../domain/field-catalogue.ts';
import { newId } from '../../domain/ids.ts';
import {
  type FieldDefinitionRecord,
  type FieldDefinitionRow,
  renderFieldDefinition,
} from '../../render/fields.ts';
import { stageKeysOfWorkspace } from '../../store/catalog.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { fixedKeysOf } from '../custom-fields/fixed-keys.ts';
import { changeCustomField, defineCustomField } from '../custom-fields/writes.ts';
import { definitionNamed } from '../custom-objects/definitions.ts';
import { stageFieldNames } from './field-names.ts';
import { checkNewFormula } from './formula-check.ts';

/**
 * The field types `POST /v2/field/{type}` makes (docs/decisions.md, Custom fields): the live API's
 * names, which are the service's own.
 */
export const CREATABLE_FIELD_TYPES = [
  'string',
  'number',
  'date',
  'dateTime',
  'boolean',
  'singleSelect',
  'multiSelect',
  'user',
  'multiUser',
  'multiAttachment',
] as const satisfies readonly CustomFieldType[];

/** Types whose values `preventDuplicates` may keep unique. */
const UNIQUE_TYPES = new Set<string>(['string', 'number']);

const invalid = (message: string) => new DomainError('invalid_body', message);

/**
 * `POST /v2/field/{type}`: a new custom field, on every record of its type (null until set;
 * a formula field computed at once).
 */
export async function createField(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  body: CreateFieldBody,
): Promise<FieldDefinitionRecord> {
  refuseUnsupported(body);
  const formula = body.formula;
  if (formula !== undefined) {
    const definitionId = await fieldDefinitionOf(w, recordType, body.customObjectDefinitionId);
    await checkNewFormula(w, recordType, definitionId, { ...body, formula });
    return defineField(w, recordType, definitionId, body, body.type as CustomFieldType, formula);
  }
  const type = checkedType(body.type);
  if (type === 'multiAttachment' && NO_ATTACHMENT_RECORD_TYPES.has(recordType))
    throw invalid(
      `'type' multiAttachment(파일) 필드는 ${recordType === 'todo' ? 'todo' : 'quote-product'}에 만들 수 없습니다.`,
    );
  const showInCreateForm = body.showInCreateForm ?? false;
  if (body.required && !showInCreateForm)
    throw invalid("'required'는 'showInCreateForm'이 true인 필드만 true일 수 있습니다.");
  if (body.preventDuplicates && !UNIQUE_TYPES.has(type))
    throw invalid(
      `'preventDuplicates'는 string, number 필드에만 쓸 수 있습니다 (이 필드: ${type}).`,
    );
  if (body.preventDuplicates && body.isSensitive)
    throw invalid("'preventDuplicates'와 'isSensitive'는 함께 true일 수 없습니다.");
  const options = newOptions(type, [], body.options ?? []);
  const definitionId = await fieldDefinitionOf(w, recordType, body.customObjectDefinitionId);
  return defineField(w, recordType, definitionId, body, type, undefined, options);
}

/** Defines a checked new field (its name checked here) and answers it. */
async function defineField(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  definitionId: string | undefined,
  body: CreateFieldBody,
  type: CustomFieldType,
  formula: string | undefined,
  options: string[] = [],
): Promise<FieldDefinitionRecord> {
  await refuseTakenName(w, recordType, body.name, undefined, definitionId);
  const id = await defineCustomField(w, {
    recordType,
    customObjectDefinitionId: definitionId,
    name: body.name,
    type,
    required: body.required ?? false,
    options: type === 'singleSelect' || type === 'multiSelect' ? options : undefined,
    description: body.description ?? null,
    showInCreateForm: body.showInCreateForm ?? false,
    isSensitive: body.isSensitive ?? false,
    preventDuplicates: body.preventDuplicates ?? false,
    formula,
  });
  return renderFieldDefinition(await fieldRow(w, recordType, id));
}

/**
 * `POST /v2/field/{type}/{fieldId}`: renames a custom field, changes its description, or
 * adds options to a select field. A field of another type or workspace is a 404.
 */
export async function updateField(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  fieldId: string,
  body: UpdateFieldBody,
): Promise<FieldDefinitionRecord> {
  const row = await fieldRow(w, recordType, fieldId);
  const name = body.name !== undefined && body.name !== row.name ? body.name : undefined;
  if (name !== undefined)
    await refuseTakenName(w, recordType, name, fieldId, row.custom_object_definition_id);
  let options: SelectOption[] | undefined;
  if (body.options !== undefined && body.options.length > 0) {
    const current = row.options ? (JSON.parse(row.options) as SelectOption[]) : [];
    const added = newOptions(row.type as CustomFieldType, current, body.options);
    options = [...current, ...added.map((value) => ({ id: newId(), value }))];
  }
  await changeCustomField(w, recordType, fieldId, {
    name,
    description: body.description,
    options,
  });
  return renderFieldDefinition(await fieldRow(w, recordType, fieldId));
}

/** The body's `type`, one of the types made here; anything else is a 400 naming them. */
function checkedType(type: string): CustomFieldType {
  if ((CREATABLE_FIELD_TYPES as readonly string[]).includes(type)) return type as CustomFieldType;
  const supported = CREATABLE_FIELD_TYPES.join(', ');
  throw invalid(`'type' 값이 올바르지 않습니다: '${type.slice(0, 100)}' (${supported} 중 하나)`);
}

/** Parts of the live API's body the service has nothing for: a 400 each, naming it. */
function refuseUnsupported(body: CreateFieldBody): void {
  if (body.categoryName !== undefined)
    throw invalid(`'categoryName': 없는 카테고리입니다: '${body.categoryName.slice(0, 100)}'`);
}

/**
 * The option values to add to a field of `type` that has `current`: select fields only,
 * each value once (among the new and the current ones); a new single select needs one
 * option at least, a new multi select two.
 */
function newOptions(
  type: CustomFieldType,
  current: readonly SelectOption[],
  given: readonly { value: string }[],
): string[] {
  const values = given.map((o) => o.value);
  if (type !== 'singleSelect' && type !== 'multiSelect') {
    if (values.length > 0)
      throw invalid(
        `'options'는 singleSelect, multiSelect 필드에만 쓸 수 있습니다 (이 필드: ${type}).`,
      );
    return [];
  }
  const minimum = type === 'singleSelect' ? 1 : 2;
  if (current.length === 0 && values.length < minimum)
    throw invalid(`'options': ${type} 필드는 선택지가 ${minimum}개 이상 있어야 합니다.`);
  const seen = new Set(current.map((o) => o.value));
  for (const value of values) {
    if (seen.has(value)) throw invalid(`'options': 선택지가 겹칩니다: '${value.slice(0, 100)}'`);
    seen.add(value);
  }
  return values;
}

/**
 * The custom object definition a new field of `recordType` belongs to: the body's
 * `customObjectDefinitionId` for custom-object fields (required; one the workspace does
 * not have is a 404), none for the other types (the key is refused there).
 */
async function fieldDefinitionOf(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  definitionId: string | undefined,
): Promise<string | undefined> {
  if (recordType !== 'customObject') {
    if (definitionId !== undefined)
      throw invalid("'customObjectDefinitionId'는 custom-object 필드에만 쓸 수 있습니다.");
    return undefined;
  }
  if (definitionId === undefined)
    throw invalid("'customObjectDefinitionId' 값이 필요합니다: 필드를 만들 커스텀 객체 정의의 id.");
  return (await definitionNamed(w.trx, w.workspaceId, definitionId, undefined))!.id;
}

/**
 * A name that a built-in field, a deal's or lead's stage timing key, or another custom field of the record type (of the same
 * custom object definition, for custom objects) has: 409.
 */
async function refuseTakenName(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  name: string,
  exceptId: string | undefined,
  definitionId = '',
): Promise<void> {
  const builtIn =
    fixedKeysOf(recordType).includes(name) ||
    BUILT_IN_FIELDS[recordType].some((f) => f.name === name);
  if (builtIn)
    throw new DomainError(
      'conflict',
      `이미 존재하는 이름입니다: '${name}'은(는) 기본 필드의 이름입니다.`,
    );
  if (
    (recordType === 'deal' || recordType === 'lead') &&
    stageFieldNames(await stageKeysOfWorkspace(w.trx, w.workspaceId), recordType).includes(name)
  )
    throw new DomainError(
      'conflict',
      `이미 존재하는 이름입니다: '${name}'은(는) 파이프라인 단계 시간 필드의 이름입니다.`,
    );
  let query = w.trx
    .selectFrom('custom_fields')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('record_type', '=', recordType)
    .where('custom_object_definition_id', '=', definitionId ?? '')
    .where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = await query.executeTakeFirst();
  if (taken) {
    const message = `이미 존재하는 이름입니다: '${name}'은(는) 다른 필드의 이름입니다.`;
    throw new DomainError(
      'conflict',
      message,
      undefined,
      `${message} (기존 필드 id '${taken.id}')`,
    );
  }
}

/** The stored definition of a custom field of the record type; none is a 404. */
async function fieldRow(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  fieldId: string,
): Promise<FieldDefinitionRow & { custom_object_definition_id: string }> {
  const row = await w.trx
    .selectFrom('custom_fields')
    .select([
      'id',
      'name',
      'type',
      'description',
      'show_in_create_form',
      'required',
      'is_sensitive',
      'prevent_duplicates',
      'options',
      'created_at',
      'custom_object_definition_id',
      'formula',
    ])
    .where('workspace_id', '=', w.workspaceId)
    .where('record_type', '=', recordType)
    .where('id', '=', fieldId)
    .executeTakeFirst();
  if (!row)
    throw new DomainError('not_found', `필드를 찾을 수 없습니다: '${fieldId.slice(0, 100)}'`);
  return row;
}

import {
  ATTACHMENT_TYPE,
  type CustomFieldRecordType,
  type CustomFieldType,
  type SelectOption,
  type StoredCustomValues,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { formulaReads, isReferenceableName, renamedInFormula } from '../../domain/formulas.ts';
import { newId } from '../../domain/ids.ts';
import { appendNullKey } from '../../store/read-model/append-null-key.ts';
import { renameKey } from '../../store/read-model/rename-key.ts';
import {
  type RenderedType,
  TABLE_OF,
  typesShowingFieldsOf,
} from '../../store/read-model/rendered-types.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { recordPeopleHistory } from '../people-history/writes.ts';
import { fixedKeysOf } from './fixed-keys.ts';

/** A custom field to define. */
export interface NewCustomField {
  id?: string;
  recordType: CustomFieldRecordType;
  name: string;
  type: CustomFieldType;
  required?: boolean;
  /** Option values of a select field; ids are made for them. */
  options?: string[];
  description?: string | null;
  showInCreateForm?: boolean;
  isSensitive?: boolean;
  preventDuplicates?: boolean;
  /** The definition a `customObject` field belongs to (required for that record type). */
  customObjectDefinitionId?: string;
  /** A formula field's formula, checked by the caller (`type` is its result's). */
  formula?: string;
}

/** Why a custom field definition was refused. */
export class CustomFieldNameError extends Error {}

/**
 * Defines a custom field: it appears on every record of its type, after the fixed keys and
 * the fields defined before it. A name equal to a fixed key or another field is refused.
 */
export async function defineCustomField(w: WorkspaceWrite, field: NewCustomField): Promise<string> {
  if (fixedKeysOf(field.recordType).includes(field.name)) {
    throw new CustomFieldNameError(`'${field.name}' is a fixed field of ${field.recordType}`);
  }
  const definitionId = field.recordType === 'customObject' ? field.customObjectDefinitionId : '';
  if (definitionId === undefined)
    throw new CustomFieldNameError('a custom object field needs its customObjectDefinitionId');
  const existing = await w.trx
    .selectFrom('custom_fields')
    .select(['id', 'position'])
    .where('workspace_id', '=', w.workspaceId)
    .where('record_type', '=', field.recordType)
    .orderBy('position', 'desc')
    .execute();
  const clash = await w.trx
    .selectFrom('custom_fields')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('record_type', '=', field.recordType)
    .where('custom_object_definition_id', '=', definitionId)
    .where('name', '=', field.name)
    .executeTakeFirst();
  if (clash)
    throw new CustomFieldNameError(
      `a custom field '${field.name}' already exists on ${field.recordType}`,
    );
  const id = field.id ?? newId();
  const options: SelectOption[] | null = field.options
    ? field.options.map((value) => ({ id: newId(), value }))
    : null;
  await w.trx
    .insertInto('custom_fields')
    .values({
      workspace_id: w.workspaceId,
      id,
      record_type: field.recordType,
      name: field.name,
      type: field.type,
      position: existing.length === 0 ? 0 : existing[0]!.position + 1,
      required: field.required ? 1 : 0,
      options: options ? JSON.stringify(options) : null,
      created_at: w.now,
      description: field.description ?? null,
      show_in_create_form: field.showInCreateForm ? 1 : 0,
      is_sensitive: field.isSensitive ? 1 : 0,
      prevent_duplicates: field.preventDuplicates ? 1 : 0,
      custom_object_definition_id: definitionId,
      formula: field.formula ?? null,
    })
    .execute();
  if (field.recordType === 'customObject') {
    // Records of other definitions do not show it: only the definition's are rendered again.
    await markRecordsOfDefinition(w, definitionId);
  } else if (field.recordType === 'quoteProduct' || field.formula !== undefined) {
    // The key goes on each line inside the quote's JSON, or a formula's value is computed
    // for each record: the records are rendered again.
    for (const t of typesShowingFieldsOf(field.recordType)) w.touched.markAll(t);
  } else {
    for (const t of typesShowingFieldsOf(field.recordType)) await appendNullKey(w, t, field.name);
  }
  return id;
}

/** Marks every record of a custom object definition for rendering again. */
export async function markRecordsOfDefinition(
  w: WorkspaceWrite,
  definitionId: string,
): Promise<void> {
  const rows = await w.trx
    .selectFrom('custom_objects')
    .select('id')
    .where('workspace_id', '=', w.workspaceId)
    .where('definition_id', '=', definitionId)
    .execute();
  for (const row of rows) w.touched.mark('customObject', row.id);
}

/**
 * Renames a custom field; every record of its type shows the new name (`changeCustomField`
 * of its name alone).
 */
export async function renameCustomField(
  w: WorkspaceWrite,
  fieldId: string,
  name: string,
): Promise<void> {
  const field = await w.trx
    .selectFrom('custom_fields')
    .select('record_type')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', fieldId)
    .executeTakeFirstOrThrow();
  await changeCustomField(w, field.record_type as CustomFieldRecordType, fieldId, { name });
}

/**
 * Makes the formulas of a record type's fields (custom objects: of one definition) that read
 * field `from` read it as `to`, its new name: their values stay as they are. True when some
 * formula read a field named `to` already (one that was not there, as an imported formula
 * may): its values change, so the records are rendered again.
 */
async function renameInFormulas(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  definitionId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const formulas = await w.trx
    .selectFrom('custom_fields')
    .select(['id', 'formula'])
    .where('workspace_id', '=', w.workspaceId)
    .where('record_type', '=', recordType)
    .where('custom_object_definition_id', '=', definitionId)
    .where('formula', 'is not', null)
    .execute();
  let readsNewName = false;
  for (const f of formulas) {
    if (formulaReads(f.formula!, to)) readsNewName = true;
    const formula = renamedInFormula(f.formula!, from, to);
    if (formula === f.formula) continue;
    if (!isReferenceableName(to))
      throw new DomainError(
        'invalid_body',
        `'name': 수식이 읽는 필드라 '${to.slice(0, 100)}'(으)로 바꿀 수 없습니다. 수식의 {{대상명.필드명}}에 쓸 수 없는 이름입니다 ('}}'를 담거나 '}' 또는 공백으로 끝나거나 공백으로 시작함).`,
      );
    await w.trx
      .updateTable('custom_fields')
      .set({ formula })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', f.id)
      .execute();
  }
  return readsNewName;
}

/** What an update of a field's definition changes (undefined: unchanged). */
export interface CustomFieldChange {
  name?: string;
  description?: string | null;
  /** The field's options, the added ones after its own (ids are made for new values). */
  options?: SelectOption[];
}

/**
 * Changes a custom field's name, description or options; a new name or new options show on
 * every record of its type, re-rendered in this write.
 */
export async function changeCustomField(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  fieldId: string,
  change: CustomFieldChange,
): Promise<void> {
  const set: { name?: string; description?: string | null; options?: string } = {};
  if (change.name !== undefined) set.name = change.name;
  if (change.description !== undefined) set.description = change.description;
  if (change.options !== undefined) set.options = JSON.stringify(change.options);
  if (Object.keys(set).length === 0) return;
  const before = await w.trx
    .selectFrom('custom_fields')
    .select(['name', 'custom_object_definition_id'])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', fieldId)
    .executeTakeFirstOrThrow();
  await w.trx
    .updateTable('custom_fields')
    .set(set)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', fieldId)
    .execute();
  // The records show the name; options show only in the field list and the client's types.
  if (change.name === undefined || change.name === before.name) return;
  const formulasChange = await renameInFormulas(
    w,
    recordType,
    before.custom_object_definition_id,
    before.name,
    change.name,
  );
  if (recordType === 'customObject') {
    // Another definition's records may have a field of the same name: only this one's.
    await markRecordsOfDefinition(w, before.custom_object_definition_id);
    return;
  }
  for (const t of typesShowingFieldsOf(recordType)) {
    const renamed =
      recordType !== 'quoteProduct' &&
      !formulasChange &&
      (await renameKey(w, t, { id: fieldId, from: before.name, to: change.name }));
    // Quote-product keys sit inside each line, and formula values that change with the name
    // are computed: the records are rendered again.
    if (!renamed) w.touched.markAll(t);
  }
}

/** Deletes a custom field; it disappears from every record of its type. */
export async function deleteCustomField(w: WorkspaceWrite, fieldId: string): Promise<void> {
  const field = await w.trx
    .deleteFrom('custom_fields')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', fieldId)
    .returning('record_type')
    .executeTakeFirstOrThrow();
  for (const t of typesShowingFieldsOf(field.record_type as CustomFieldRecordType))
    w.touched.markAll(t);
}

/**
 * Sets (or with null, clears) custom values of one record; `수정 날짜` moves. A person's
 * changed fields are written to its history, as `actorId`'s changes (docs/decisions.md, Activities
 * and history).
 */
export async function setCustomValues(
  w: WorkspaceWrite,
  recordType: Exclude<CustomFieldRecordType, 'quoteProduct' | 'todo'>,
  recordId: string,
  values: StoredCustomValues,
  actorId: string | null = null,
): Promise<void> {
  const table = TABLE_OF[recordType];
  const row = await w.trx
    .selectFrom(table)
    .select('custom')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', recordId)
    .executeTakeFirstOrThrow();
  const custom = JSON.parse(row.custom) as StoredCustomValues;
  const changed: string[] = [];
  for (const [id, value] of Object.entries(values)) {
    if (JSON.stringify(custom[id] ?? null) !== JSON.stringify(value ?? null)) changed.push(id);
    if (value === null) delete custom[id];
    else custom[id] = value;
  }
  await w.trx
    .updateTable(table)
    .set({ custom: JSON.stringify(custom), updated_at: w.now })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', recordId)
    .execute();
  if (recordType === 'people' && changed.length > 0) {
    await recordCustomFieldHistory(w, recordId, changed, custom, actorId);
  }
  w.touched.mark(recordType, recordId);
}

/** `editField` history rows of a person's changed custom fields, values as text. */
async function recordCustomFieldHistory(
  w: WorkspaceWrite,
  personId: string,
  fieldIds: string[],
  custom: StoredCustomValues,
  actorId: string | null,
): Promise<void> {
  const fields = await w.trx
    .selectFrom('custom_fields')
    .select(['id', 'name'])
    .where('workspace_id', '=', w.workspaceId)
    .where('id', 'in', fieldIds)
    .execute();
  const names = new Map(fields.map((f) => [f.id, f.name]));
  await recordPeopleHistory(
    w,
    fieldIds
      .filter((id) => names.has(id))
      .map((id) => ({
        peopleId: personId,
        type: 'editField' as const,
        fieldName: names.get(id)!,
        fieldValue: asText(custom[id]),
        ownerId: actorId,
      })),
  );
}

/** A stored custom value as history text: strings as they are, others as JSON; null when unset. */
function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Takes deleted files out of the attachment fields that hold them, on every record of the
 * workspace: a field left with no file is cleared. The records are re-rendered in this
 * write; `수정 날짜` stays (nobody edited the record).
 */
export async function removeFilesFromValues(
  w: WorkspaceWrite,
  fileIds: readonly string[],
): Promise<void> {
  if (fileIds.length === 0) return;
  const fields = await w.trx
    .selectFrom('custom_fields')
    .select(['id', 'record_type'])
    .where('workspace_id', '=', w.workspaceId)
    .where('type', '=', ATTACHMENT_TYPE)
    .execute();
  if (fields.length === 0) return;
  for (let i = 0; i < fileIds.length; i += FILES_PER_SCAN) {
    await removeFilesFrom(w, fields, fileIds.slice(i, i + FILES_PER_SCAN));
  }
}

/**
 * Files a scan for attachment values looks for at once: one LIKE each, ORed (SQLite refuses
 * an expression deeper than 1,000, and a record may hold more files).
 */
const FILES_PER_SCAN = 100;

/** `removeFilesFromValues` for a few files. */
async function removeFilesFrom(
  w: WorkspaceWrite,
  fields: readonly { id: string; record_type: string }[],
  fileIds: readonly string[],
): Promise<void> {
  const gone = new Set(fileIds);
  for (const [recordType, table] of Object.entries(TABLE_OF) as [RenderedType, string][]) {
    const fieldIds = fields.filter((f) => f.record_type === recordType).map((f) => f.id);
    if (fieldIds.length === 0) continue;
    // LIKE finds the rows that may hold an id (`_` of an id matches any character: a few
    // more rows); the values themselves say which do.
    const rows = await w.trx
      .selectFrom(table as 'people')
      .select(['id', 'custom'])
      .where('workspace_id', '=', w.workspaceId)
      .where((eb) => eb.or(fileIds.map((id) => eb('custom', 'like', `%"${id}"%`))))
      .execute();
    for (const row of rows) {
      const custom = JSON.parse(row.custom) as StoredCustomValues;
      let changed = false;
      for (const fieldId of fieldIds) {
        const value = custom[fieldId];
        if (!Array.isArray(value) || !value.some((id) => gone.has(id))) continue;
        const kept = value.filter((id) => !gone.has(id));
        if (kept.length > 0) custom[fieldId] = kept;
        else delete custom[fieldId];
        changed = true;
      }
      if (!changed) continue;
      await w.trx
        .updateTable(table as 'people')
        .set({ custom: JSON.stringify(custom) })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', row.id)
        .execute();
      w.touched.mark(recordType, row.id);
    }
  }
}

import { sql } from 'kysely';
import {
  ATTACHMENT_TYPE,
  ATTACHMENT_VALUE_KEY,
  type CustomFieldDefinition,
  type CustomFieldRecordType,
  type CustomFieldType,
  fieldsOfDefinition,
  REF_TARGETS,
  type RefTarget,
  refTargetOf,
  type StoredCustomValues,
  valueKeyOf,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { builtInField } from '../../domain/field-catalogue.ts';
import {
  isEmailAddress,
  MAX_LIST_LENGTH,
  MAX_TEXT_LENGTH,
  parseDateValue,
} from '../../domain/field-values.ts';
import { codeOfLabel, selectLabelsOf } from '../../domain/select-labels.ts';
import { columnById } from '../../store/by-id.ts';
import { customFieldOfRow } from '../../store/catalog.ts';
import type { Executor } from '../../store/database.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** One entry of a write's `fieldList`: a field's Korean name and one typed value key. */
export type FieldListItem = { name: string } & Record<string, unknown>;

/** A `fieldList` checked against the record type's fields, values in stored form. */
export interface ResolvedFieldList {
  /** Built-in fields set, by Korean name; null clears. Ref fields hold ids, dates wire times. */
  fixed: Map<string, unknown>;
  /** Custom values by field id; null clears. */
  custom: StoredCustomValues;
  /** The record type's custom fields, in definition order. */
  definitions: CustomFieldDefinition[];
}

/** Tables of the records a Ref-valued field can point at, and their names in messages. */
const TARGETS: Record<RefTarget, { table: Parameters<typeof columnById>[1]; label: string }> = {
  user: { table: 'users', label: '사용자' },
  people: { table: 'people', label: '고객' },
  organization: { table: 'organizations', label: '회사' },
  deal: { table: 'deals', label: '딜' },
  pipeline: { table: 'pipelines', label: '파이프라인' },
  pipelineStage: { table: 'pipeline_stages', label: '파이프라인 단계' },
  webForm: { table: 'web_forms', label: '웹폼' },
  sequence: { table: 'sequences', label: '시퀀스' },
  customObject: { table: 'custom_objects', label: '커스텀 오브젝트' },
};

const VALUE_KEYS = new Set([
  'stringValue',
  'numberValue',
  'booleanValue',
  'dateValue',
  'stringValueList',
  ATTACHMENT_VALUE_KEY,
  ...REF_TARGETS.flatMap((t) => [`${t}ValueId`, `${t}ValueIdList`]),
]);

/** The custom field definitions of a record type, in definition order. */
export async function customFieldsOf(
  trx: Executor,
  workspaceId: string,
  recordType: CustomFieldRecordType,
): Promise<CustomFieldDefinition[]> {
  const rows = await trx
    .selectFrom('custom_fields')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('record_type', '=', recordType)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(customFieldOfRow);
}

/** What one field of the list is: a writable built-in field, or a custom field. */
interface Target {
  name: string;
  type: CustomFieldType;
  options: readonly string[] | null;
  customId?: string;
  /** A select the live API writes by label (`src/domain/select-labels.ts`): label → code. */
  labels?: Readonly<Record<string, string>>;
}

function fieldOf(
  recordType: CustomFieldRecordType,
  name: string,
  definitions: CustomFieldDefinition[],
): Target {
  const builtIn = builtInField(recordType, name);
  if (builtIn) {
    if (builtIn.access === 'body') {
      throw invalid(
        `'${name}' 필드는 fieldList로 쓸 수 없습니다. 본문의 '${builtIn.bodyKey}' 값으로 보내 주세요.`,
      );
    }
    if (builtIn.access !== 'fieldList') {
      throw invalid(`'${name}' 필드는 서비스가 정하는 필드라 쓸 수 없습니다.`);
    }
    return { name, type: builtIn.type as CustomFieldType, options: builtIn.options ?? null };
  }
  const def = definitions.find((d) => d.name === name);
  if (!def) throw invalid(`알 수 없는 필드입니다: '${name}'`);
  if (def.formula !== undefined) throw formulaWrite(name);
  const labels = def.type === 'singleSelect' ? selectLabelsOf(recordType, name) : undefined;
  return {
    name,
    type: def.type,
    options: def.options ? def.options.map((o) => o.value) : null,
    customId: def.id,
    ...(labels ? { labels } : {}),
  };
}

/**
 * Checks a write's `fieldList` against the record type's built-in and custom fields
 * (docs/decisions.md, Custom fields): known names, the value key of each field's type, well-typed
 * values, select options, and referenced records that exist in this workspace. Any mismatch is a
 * 400 naming the field.
 */
export async function resolveFieldList(
  w: Pick<WorkspaceWrite, 'trx' | 'workspaceId' | 'catalog' | 'store'>,
  recordType: CustomFieldRecordType,
  items: readonly FieldListItem[] | undefined,
  /** The record an update writes to (it may keep its own unique values). */
  recordId?: string,
  /** For custom objects: the record's definition, whose fields alone it has. */
  customObjectDefinitionId?: string,
): Promise<ResolvedFieldList> {
  const { trx, workspaceId } = w;
  const all = w.catalog
    ? [...((await w.catalog()).fields.get(recordType) ?? [])]
    : await customFieldsOf(trx, workspaceId, recordType);
  const definitions =
    customObjectDefinitionId === undefined
      ? all
      : fieldsOfDefinition(all, customObjectDefinitionId);
  const resolved: ResolvedFieldList = { fixed: new Map(), custom: {}, definitions };
  const refs = new Map<RefTarget, Map<string, string>>();
  /** File ids of attachment fields, each with the field that names it. */
  const files = new Map<string, string>();
  const seen = new Set<string>();
  for (const item of items ?? []) {
    const { name } = item;
    if (seen.has(name)) throw invalid(`'${name}' 필드가 fieldList에 두 번 있습니다.`);
    seen.add(name);
    const field = fieldOf(recordType, name, definitions);
    const value = readValue(field, item);
    if (field.type === ATTACHMENT_TYPE && value !== null)
      for (const id of value as string[]) files.set(id, name);
    const ref = refTargetOf(field.type);
    if (ref && value !== null) {
      let ids = refs.get(ref.target);
      if (!ids) {
        ids = new Map();
        refs.set(ref.target, ids);
      }
      for (const id of Array.isArray(value) ? value : [value]) ids.set(id as string, name);
    }
    if (field.customId) resolved.custom[field.customId] = value;
    else resolved.fixed.set(name, value);
  }
  for (const [target, ids] of refs) {
    const found = await columnById<string>(
      trx,
      TARGETS[target].table,
      workspaceId,
      ids.keys(),
      'id',
    );
    for (const [id, field] of ids) {
      if (!found.has(id)) {
        throw invalid(
          `'${field}' 필드: 이 워크스페이스에 없는 ${TARGETS[target].label} id입니다: '${id}'`,
        );
      }
    }
  }
  await refuseUnknownFiles(trx, workspaceId, files);
  await refuseDuplicateValues(w, recordType, resolved, recordId);
  return resolved;
}

/**
 * Files an attachment field names that the workspace has not (or not yet: an upload still
 * running): a 400 naming the field and the id.
 */
async function refuseUnknownFiles(
  trx: Executor,
  workspaceId: string,
  files: ReadonlyMap<string, string>,
): Promise<void> {
  if (files.size === 0) return;
  const status = await columnById<string>(trx, 'files', workspaceId, files.keys(), 'status');
  for (const [id, field] of files) {
    if (status.get(id) !== 'ready')
      throw invalid(`'${field}' 필드: 이 워크스페이스에 없는 파일 id입니다: '${id}'`);
  }
}

/**
 * A custom value in stored form checked as a write's `fieldList` item of `definition` is
 * (type, options, length): the value to store, or an `invalid_body` DomainError. Ref values are
 * checked for shape only; whether the records exist is the caller's (imports check them
 * against the records of the file and the workspace).
 */
export function checkCustomValue(definition: CustomFieldDefinition, value: unknown): unknown {
  if (definition.formula !== undefined) throw formulaWrite(definition.name);
  const field: Target = {
    name: definition.name,
    type: definition.type,
    options: definition.options ? definition.options.map((o) => o.value) : null,
    customId: definition.id,
  };
  return readValue(field, { name: definition.name, [valueKeyOf(definition.type)]: value });
}

/** The item's value in stored form (null clears), after checking key and type. */
function readValue(field: Target, item: FieldListItem): unknown {
  const keys = Object.keys(item).filter((k) => k !== 'name');
  const expectedKey = valueKeyOf(field.type);
  const unknownKey = keys.find((k) => !VALUE_KEYS.has(k));
  if (unknownKey !== undefined) {
    throw invalid(
      `'${field.name}' 필드: 알 수 없는 값 키 '${unknownKey}'. '${expectedKey}'로 보내 주세요.`,
    );
  }
  if (keys.length !== 1 || keys[0] !== expectedKey) {
    throw invalid(
      `'${field.name}' 필드는 ${field.type} 형식이라 '${expectedKey}' 하나로 값을 보내야 합니다.`,
    );
  }
  const raw = item[expectedKey];
  if (raw === null) return null;
  const wrong = (what: string) => invalid(`'${field.name}' 필드의 '${expectedKey}' 값은 ${what}`);
  if (field.type === ATTACHMENT_TYPE) {
    if (!Array.isArray(raw) || raw.length > MAX_LIST_LENGTH || !raw.every(isIdLike)) {
      throw wrong(`파일 id 문자열의 배열(최대 ${MAX_LIST_LENGTH}개)이어야 합니다.`);
    }
    // No file is no value: an empty list clears the field.
    return raw.length === 0 ? null : [...new Set(raw)];
  }
  const ref = refTargetOf(field.type);
  if (ref) {
    if (!ref.multi) {
      if (!isIdLike(raw)) throw wrong('id 문자열이어야 합니다.');
      return raw;
    }
    if (!Array.isArray(raw) || raw.length > MAX_LIST_LENGTH || !raw.every(isIdLike)) {
      throw wrong(`id 문자열의 배열(최대 ${MAX_LIST_LENGTH}개)이어야 합니다.`);
    }
    return [...new Set(raw)];
  }
  switch (field.type) {
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) throw wrong('숫자여야 합니다.');
      return raw;
    case 'boolean':
      if (typeof raw !== 'boolean') throw wrong('true 또는 false여야 합니다.');
      return raw;
    case 'date':
    case 'dateTime': {
      const time = typeof raw === 'string' ? parseDateValue(raw) : undefined;
      if (time === undefined) {
        throw wrong('YYYY-MM-DD 날짜 또는 시간대가 있는 ISO 8601 시각이어야 합니다.');
      }
      return time;
    }
    case 'multiSelect': {
      if (
        !Array.isArray(raw) ||
        raw.length > MAX_LIST_LENGTH ||
        !raw.every((v) => typeof v === 'string')
      ) {
        throw wrong('문자열의 배열이어야 합니다.');
      }
      for (const v of raw) checkOption(field, v);
      return [...new Set(raw as string[])];
    }
    default: {
      if (typeof raw !== 'string') throw wrong('문자열이어야 합니다.');
      if (raw.length > MAX_TEXT_LENGTH)
        throw wrong(`${MAX_TEXT_LENGTH.toLocaleString('en-US')}자 이하여야 합니다.`);
      if (field.type === 'singleSelect') {
        const value = field.labels ? codeOfLabel(field.labels, field.options, raw) : raw;
        checkOption(field, value);
        return value;
      }
      if (field.name === '이메일' && !field.customId && !isEmailAddress(raw)) {
        throw wrong(`이메일 주소여야 합니다: '${raw.slice(0, 100)}'`);
      }
      return raw;
    }
  }
}

function checkOption(field: Target, value: string): void {
  if (field.options && !field.options.includes(value)) {
    throw invalid(
      `'${field.name}' 필드에 없는 선택지입니다: '${value.slice(0, 100)}' (선택지: ${field.options.map((o) => `'${o}'`).join(', ')})`,
    );
  }
}

function isIdLike(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64;
}

/** Custom fields a create must set and did not, or an update clears (400 naming them). */
export function checkRequired(
  resolved: ResolvedFieldList,
  current: StoredCustomValues | undefined,
): void {
  for (const def of resolved.definitions) {
    if (!def.required) continue;
    const value = def.id in resolved.custom ? resolved.custom[def.id] : current?.[def.id];
    if (value === undefined || value === null) {
      throw invalid(`'${def.name}' 필드는 필수입니다. fieldList로 값을 보내 주세요.`);
    }
  }
}

/** A write of a formula field's value: its value is computed, never written. */
function formulaWrite(name: string): DomainError {
  return invalid(
    `'${name}' 필드는 수식 필드라 값을 쓸 수 없습니다. 값은 수식이 참조하는 필드로 계산됩니다.`,
  );
}

function invalid(message: string): DomainError {
  return new DomainError('invalid_body', message);
}

/** Tables of the record types whose custom values `preventDuplicates` keeps unique. */
const UNIQUE_TABLES: Partial<Record<CustomFieldRecordType, string>> = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  product: 'products',
  quote: 'quotes',
  customObject: 'custom_objects',
};

/**
 * A value of a `preventDuplicates` field that another record of the type holds: a 400
 * carrying that record's `{id, name}` (as a duplicate e-mail does). Reads the type's custom
 * values of the workspace: the check costs a scan, paid only by writes of such fields.
 */
async function refuseDuplicateValues(
  w: Pick<WorkspaceWrite, 'trx' | 'workspaceId' | 'store'>,
  recordType: CustomFieldRecordType,
  resolved: ResolvedFieldList,
  recordId: string | undefined,
): Promise<void> {
  const table = UNIQUE_TABLES[recordType];
  if (!table) return;
  for (const def of resolved.definitions) {
    const value = resolved.custom[def.id];
    if (!def.preventDuplicates || value === undefined || value === null) continue;
    const path = `$."${def.id}"`;
    const stored =
      w.store.dialect === 'sqlite'
        ? sql`json_extract(custom, ${path}) = ${value}`
        : sql`(custom::jsonb ->> ${def.id}) = ${String(value)}`;
    const holder = await sql<{
      id: string;
      name: string;
    }>`select id, name from ${sql.table(table)} where workspace_id = ${w.workspaceId} and ${stored}${recordId ? sql` and id <> ${recordId}` : sql``} limit 1`.execute(
      w.trx,
    );
    const found = holder.rows[0];
    if (found)
      throw new DomainError(
        'duplicate_record',
        `이미 존재하는 값입니다: '${def.name}' 필드는 중복을 허용하지 않습니다: '${String(value).slice(0, 100)}'`,
        { id: found.id, name: found.name },
      );
  }
}

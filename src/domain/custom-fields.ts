import { formulaValue } from './formulas.ts';
import type { Ref } from './records.ts';

/**
 * Record types that carry custom fields (docs/decisions.md, Custom fields; todos: their field list
 * names them, and custom objects: each definition has fields of its own).
 */
export const CUSTOM_FIELD_RECORD_TYPES = [
  'people',
  'organization',
  'deal',
  'lead',
  'product',
  'quote',
  'quoteProduct',
  'todo',
  'customObject',
] as const;
export type CustomFieldRecordType = (typeof CUSTOM_FIELD_RECORD_TYPES)[number];

/** Record types a Ref-valued custom field can point at. */
export const REF_TARGETS = [
  'user',
  'people',
  'organization',
  'deal',
  'pipeline',
  'pipelineStage',
  'webForm',
  'sequence',
  'customObject',
] as const;
export type RefTarget = (typeof REF_TARGETS)[number];

const MULTI_REF_TYPES = {
  multiUser: 'user',
  multiPeople: 'people',
  multiOrganization: 'organization',
  multiDeal: 'deal',
  multiPipeline: 'pipeline',
  multiPipelineStage: 'pipelineStage',
  multiWebForm: 'webForm',
  multiSequence: 'sequence',
  multiCustomObject: 'customObject',
} as const satisfies Record<string, RefTarget>;

const SCALAR_TYPES = [
  'string',
  'singleSelect',
  'number',
  'boolean',
  'date',
  'dateTime',
  'multiSelect',
] as const;

/**
 * The field type whose value is a list of the workspace's files (uploaded with
 * `POST /v2/file`): written as file ids (`fileValueIdList`), read as `[{id, name}]`.
 */
export const ATTACHMENT_TYPE = 'multiAttachment';

/** Record types whose fields cannot be attachments (the live API's rule). */
export const NO_ATTACHMENT_RECORD_TYPES: ReadonlySet<string> = new Set(['quoteProduct', 'todo']);

/** Every custom field type and how it reads (docs/decisions.md, Custom fields). */
export const CUSTOM_FIELD_TYPES = [
  ...SCALAR_TYPES,
  ...REF_TARGETS,
  ...(Object.keys(MULTI_REF_TYPES) as (keyof typeof MULTI_REF_TYPES)[]),
  ATTACHMENT_TYPE,
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** One option of a select field. */
export interface SelectOption {
  id: string;
  value: string;
}

/** A workspace's definition of one custom field. */
export interface CustomFieldDefinition {
  id: string;
  recordType: CustomFieldRecordType;
  name: string;
  type: CustomFieldType;
  required: boolean;
  options: SelectOption[] | null;
  /** A value one record at most may hold (string and number fields; unset: false). */
  preventDuplicates?: boolean;
  /** Its values are sensitive: events show them as `암호화된 데이터` (unset: false). */
  isSensitive?: boolean;
  /** The custom object definition a `customObject` field belongs to (unset for other types). */
  customObjectDefinitionId?: string;
  /**
   * A formula field's formula (`src/domain/formulas.ts`): its value is computed from the
   * record's own fields when the record renders, never written; `type` is its result's.
   */
  formula?: string;
}

/** The fields of one custom object definition among a record type's definitions. */
export function fieldsOfDefinition(
  definitions: readonly CustomFieldDefinition[],
  customObjectDefinitionId: string,
): CustomFieldDefinition[] {
  return definitions.filter((d) => d.customObjectDefinitionId === customObjectDefinitionId);
}

/** Stored custom values of one record: field id to stored value (Ref fields keep ids). */
export type StoredCustomValues = Record<string, unknown>;

/** The record a Ref-typed field points at, or undefined for scalar types. */
export function refTargetOf(
  type: CustomFieldType,
): { target: RefTarget; multi: boolean } | undefined {
  if ((REF_TARGETS as readonly string[]).includes(type)) {
    return { target: type as RefTarget, multi: false };
  }
  const multi = (MULTI_REF_TYPES as Record<string, RefTarget>)[type];
  return multi ? { target: multi, multi: true } : undefined;
}

/** What a stored custom value can name: a record a Ref field points at, or a file. */
export type NamedTarget = RefTarget | 'file';

/** Resolves display names of referenced records; undefined when the record is gone. */
export type NameOf = (target: NamedTarget, id: string) => string | undefined;

/** Collects the ids a set of stored values references, per target, for one batch lookup. */
export function collectRefIds(
  definitions: readonly CustomFieldDefinition[],
  values: StoredCustomValues,
  into: Map<NamedTarget, Set<string>>,
): void {
  for (const def of definitions) {
    const target = def.type === ATTACHMENT_TYPE ? 'file' : refTargetOf(def.type)?.target;
    const value = values[def.id];
    if (!target || value == null) continue;
    let ids = into.get(target);
    if (!ids) {
      ids = new Set();
      into.set(target, ids);
    }
    if (Array.isArray(value)) for (const id of value) ids.add(String(id));
    else ids.add(String(value));
  }
}

/**
 * Appends a record's custom fields to `record` in definition order, every defined field
 * present (`null` when unset), Ref fields rendered as `{id, name}`, formula fields computed
 * from the keys before them (a formula reads only fields defined before it).
 */
export function appendCustomFields(
  record: Record<string, unknown>,
  definitions: readonly CustomFieldDefinition[],
  values: StoredCustomValues,
  nameOf: NameOf,
): void {
  for (const def of definitions) {
    record[def.name] =
      def.formula === undefined
        ? renderCustomValue(def, values[def.id], nameOf)
        : formulaValue({ ...def, formula: def.formula }, definitions, record);
  }
}

function renderCustomValue(def: CustomFieldDefinition, value: unknown, nameOf: NameOf): unknown {
  if (value === undefined || value === null) return null;
  if (def.type === ATTACHMENT_TYPE) return attachmentRefs(value, nameOf);
  const ref = refTargetOf(def.type);
  if (!ref) return value;
  const toRef = (id: unknown): Ref => ({
    id: String(id),
    name: nameOf(ref.target, String(id)) ?? '',
  });
  if (ref.multi) return Array.isArray(value) ? value.map(toRef) : [toRef(value)];
  return toRef(Array.isArray(value) ? value[0] : value);
}

/**
 * An attachment field's files as `[{id, name}]`, in the order written; a file that is gone
 * is left out (deleting a file takes it out of the values too), and no file left is null.
 */
function attachmentRefs(value: unknown, nameOf: NameOf): Ref[] | null {
  const refs: Ref[] = [];
  for (const id of Array.isArray(value) ? value : [value]) {
    const name = nameOf('file', String(id));
    if (name !== undefined) refs.push({ id: String(id), name });
  }
  return refs.length > 0 ? refs : null;
}

/** The value key of an attachment field: the ids of files of the workspace. */
export const ATTACHMENT_VALUE_KEY = 'fileValueIdList';

/** The value key a field of `type` is written with (docs/decisions.md, Custom fields). */
export function valueKeyOf(type: CustomFieldType): string {
  if (type === ATTACHMENT_TYPE) return ATTACHMENT_VALUE_KEY;
  const ref = refTargetOf(type);
  if (ref) return ref.multi ? `${ref.target}ValueIdList` : `${ref.target}ValueId`;
  switch (type) {
    case 'number':
      return 'numberValue';
    case 'boolean':
      return 'booleanValue';
    case 'date':
    case 'dateTime':
      return 'dateValue';
    case 'multiSelect':
      return 'stringValueList';
    default:
      return 'stringValue';
  }
}

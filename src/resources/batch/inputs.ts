/**
 * One item of a batch write (`{data: {field: value}, association?}`) turned into the body of
 * the v2 write of its record type: built-in fields that the v2 body has top-level (`이름`,
 * pipelines, deal `금액` and `상태`, links) become those keys, every other field a `fieldList`
 * item with the value key of its type. The v2 commands then check and write it as they do
 * for `POST /v2/...`.
 */
import {
  BATCH_OBJECT_TYPE_LABELS,
  type BatchAssociation,
  type BatchObjectType,
} from '../../api-schema/bodies/batch.ts';
import {
  ATTACHMENT_TYPE,
  type CustomFieldDefinition,
  type CustomFieldType,
  refTargetOf,
  valueKeyOf,
} from '../../domain/custom-fields.ts';
import { DEAL_OUTCOMES } from '../../domain/deals.ts';
import { DomainError } from '../../domain/errors.ts';
import { builtInField } from '../../domain/field-catalogue.ts';
import type { FieldListItem } from '../fields/field-list.ts';

/** The top-level keys of each record type's v2 write body, besides `fieldList`. */
export const V2_BODY_KEYS: Record<BatchObjectType, readonly string[]> = {
  people: ['name', 'organizationId', 'memo'],
  organization: ['name', 'memo'],
  deal: [
    'name',
    'pipelineId',
    'pipelineStageId',
    'status',
    'peopleId',
    'organizationId',
    'price',
    'memo',
    '상태',
  ],
  lead: ['name', 'peopleId', 'organizationId', 'pipelineId', 'pipelineStageId', 'memo'],
};

/** The body keys that hold record ids: given as an id or as `{id, ...}`. */
const ID_KEYS = new Set(['organizationId', 'peopleId', 'pipelineId', 'pipelineStageId']);

/** The links `association` may set, by record type: the associated type and its body key. */
const ASSOCIATION_KEYS: Record<BatchObjectType, Partial<Record<keyof BatchAssociation, string>>> = {
  people: { organization: 'organizationId' },
  organization: {},
  deal: { people: 'peopleId', organization: 'organizationId' },
  lead: { people: 'peopleId', organization: 'organizationId' },
};

/** The links `association` may set on a record type (`POST /v3/association/list` says so too). */
export function associationKeys(type: BatchObjectType): Partial<Record<string, string>> {
  return ASSOCIATION_KEYS[type];
}

function invalid(message: string): DomainError {
  return new DomainError('invalid_body', message);
}

/** A reference given as an id or as a record `{id, name}` (as reads render it): the id. */
function refId(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>).id;
    return typeof id === 'string' ? id : value;
  }
  return value;
}

/** A field's value in the form of its `fieldList` value key. */
function fieldValue(type: CustomFieldType, value: unknown): unknown {
  // Files as reads render them (`[{id, name}]`) or as ids.
  if (type === ATTACHMENT_TYPE) return Array.isArray(value) ? value.map(refId) : value;
  const ref = refTargetOf(type);
  if (!ref) return value;
  return ref.multi && Array.isArray(value) ? value.map(refId) : refId(value);
}

/**
 * The v2 write body of one batch item: `data` by field name (or v2 body key), and
 * `association`. A field named twice (`이름` and `name`; `association.people` and
 * `peopleId`) is refused.
 */
export function v2Body(
  type: BatchObjectType,
  data: Record<string, unknown>,
  association: BatchAssociation | undefined,
  definitions: readonly CustomFieldDefinition[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const fieldList: FieldListItem[] = [];
  const from = new Map<string, string>();
  const set = (key: string, value: unknown, name: string) => {
    const earlier = from.get(key);
    if (earlier !== undefined) {
      throw invalid(`'${earlier}'와(과) '${name}'은(는) 같은 값을 정합니다. 하나만 보내 주세요.`);
    }
    from.set(key, name);
    body[key] = ID_KEYS.has(key) ? refId(value) : value;
  };
  for (const [name, value] of Object.entries(data)) {
    if (type === 'deal' && name === '상태') {
      // The record shows the label under `상태`; an outcome sets the outcome (`status`).
      const outcome = (DEAL_OUTCOMES as readonly unknown[]).includes(value);
      set(outcome ? 'status' : '상태', value, name);
      continue;
    }
    if (V2_BODY_KEYS[type].includes(name)) {
      set(name, value, name);
      continue;
    }
    const builtIn = builtInField(type, name);
    if (builtIn?.access === 'body' && builtIn.bodyKey) {
      set(builtIn.bodyKey, value, name);
      continue;
    }
    const definition = builtIn ? undefined : definitions.find((d) => d.name === name);
    const fieldType = (builtIn?.type ?? definition?.type ?? 'string') as CustomFieldType;
    // Unknown, derived and service fields go on too: the v2 check names them in its refusal.
    fieldList.push({ name, [valueKeyOf(fieldType)]: fieldValue(fieldType, value) });
  }
  for (const [target, id] of Object.entries(association ?? {})) {
    const key = ASSOCIATION_KEYS[type][target as keyof BatchAssociation];
    if (key === undefined) {
      throw invalid(
        `'association.${target}': ${LABEL[type]}에는 ${target} 연결을 정할 수 없습니다.`,
      );
    }
    set(key, id, `association.${target}`);
  }
  if (fieldList.length > 0) body.fieldList = fieldList;
  return body;
}

const LABEL = BATCH_OBJECT_TYPE_LABELS;

/**
 * A message of the v2 body check that names a body key (`'name' 값이 필요합니다.`) with the
 * field name the batch item uses instead (`'이름' 값이 필요합니다.`).
 */
export function withFieldNames(type: BatchObjectType, message: string): string {
  return message.replace(/^'([^'.[]+)/, (whole, key: string) => {
    const name = fieldNameOfBodyKey(type, key);
    return name === undefined ? whole : `'${name}`;
  });
}

function fieldNameOfBodyKey(type: BatchObjectType, key: string): string | undefined {
  if (type === 'deal' && key === 'status') return '상태';
  if (key === 'name') return '이름';
  if (key === 'pipelineId') return '파이프라인';
  if (key === 'pipelineStageId') return '파이프라인 단계';
  if (type === 'deal' && key === 'price') return '금액';
  return undefined;
}

import type { CustomFieldType } from './custom-fields.ts';
import { CUSTOM_OBJECT } from './record-types/custom-objects.ts';
import { DEAL } from './record-types/deals.ts';
import type { KeyGroup, RecordTypeDeclaration } from './record-types/declaration.ts';
import { LEAD } from './record-types/leads.ts';
import { ORGANIZATION } from './record-types/organizations.ts';
import { PEOPLE } from './record-types/people.ts';
import { PRODUCT } from './record-types/products.ts';
import { QUOTE_PRODUCT } from './record-types/quote-products.ts';
import { QUOTE } from './record-types/quotes.ts';

/** Record types with a field list (`GET /v2/field/{type}`) and `fieldList` writes. */
export const FIELD_RECORD_TYPES = [
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
export type FieldRecordType = (typeof FIELD_RECORD_TYPES)[number];

/** The `{type}` path values of `/v2/field/{type}` (the live API's), and the record type each names. */
export const FIELD_TYPE_OF_PATH = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  'quote-product': 'quoteProduct',
  todo: 'todo',
  'custom-object': 'customObject',
} as const satisfies Record<string, FieldRecordType>;

/** Type of a built-in field: the custom field types, plus teams and record ids. */
export type BuiltInFieldType = CustomFieldType | 'team' | 'multiTeam' | 'multiProduct' | 'id';

/**
 * How clients may write a built-in field:
 * - `fieldList`: by its Korean name in `fieldList`, with the type's value key;
 * - `body`: only as a top-level body key (`name`, `price`, pipelines, links ...);
 * - `derived`: computed by the service (docs/decisions.md, Derived fields), never written;
 * - `service`: set by the service (`소스`, `생성 날짜`, `수정 날짜`, ids).
 */
export type FieldAccess = 'fieldList' | 'body' | 'derived' | 'service';

/** One built-in field of a record type. */
export interface BuiltInField {
  /** The record key, as the API shows it. */
  name: string;
  type: BuiltInFieldType;
  /** Whether a create must give it. */
  required: boolean;
  access: FieldAccess;
  /** For `body` fields: the body key that sets it. */
  bodyKey?: string;
  /** For select fields: the allowed values. */
  options?: readonly string[];
}

const f = (
  name: string,
  type: BuiltInFieldType,
  access: FieldAccess,
  more: Partial<BuiltInField> = {},
): BuiltInField => ({ name, type, required: false, access, ...more });

const NOTE = [
  f('최근 작성된 노트', 'string', 'derived'),
  f('최근 노트 작성일', 'dateTime', 'derived'),
  f('최근 노트 작성자', 'user', 'derived'),
];
const WEBFORM = [
  f('최근 제출된 웹폼', 'webForm', 'derived'),
  f('최근 웹폼 제출 날짜', 'dateTime', 'derived'),
];
const SEQUENCE = [
  f('최근 등록한 시퀀스', 'sequence', 'derived'),
  f('최근 시퀀스 등록일', 'dateTime', 'derived'),
  f('누적 시퀀스 등록수', 'number', 'derived'),
  f('현재 진행중인 시퀀스 여부', 'boolean', 'derived'),
];
const OWNERSHIP = [
  f('담당자', 'user', 'fieldList'),
  f('생성 날짜', 'dateTime', 'service'),
  f('팀', 'multiTeam', 'derived'),
  f('수정 날짜', 'dateTime', 'service'),
];
const TODO = [
  f('다음 TODO', 'string', 'derived'),
  f('전체 TODO', 'number', 'derived'),
  f('완료 TODO', 'number', 'derived'),
  f('미완료 TODO', 'number', 'derived'),
];
const COUNTERS = [
  f('리드 개수', 'number', 'derived'),
  f('딜 개수', 'number', 'derived'),
  f('진행중 딜 개수', 'number', 'derived'),
  f('성사된 딜 개수', 'number', 'derived'),
  f('실패된 딜 개수', 'number', 'derived'),
];

/** The catalogue of each shared field group. */
const GROUP_FIELDS: Record<KeyGroup, readonly BuiltInField[]> = {
  dealCounters: COUNTERS,
  note: NOTE,
  webForm: WEBFORM,
  sequence: SEQUENCE,
  ownership: OWNERSHIP,
  todo: TODO,
};

/** The built-in fields of a declared record type's fixed keys, in its key order. */
function fixedFieldsOf(declaration: RecordTypeDeclaration): BuiltInField[] {
  return declaration.keys.flatMap((k) => {
    if ('group' in k) return GROUP_FIELDS[k.group];
    if ('lines' in k) return [f(k.key, k.field, k.access, { bodyKey: k.bodyKey })];
    if ('derive' in k) {
      const written: Partial<BuiltInField> = k.bodyKey === undefined ? {} : { bodyKey: k.bodyKey };
      return [f(k.key, k.field, k.access ?? 'derived', written)];
    }
    const more: Partial<BuiltInField> = {};
    if (k.bodyKey !== undefined) more.bodyKey = k.bodyKey;
    if (k.required !== undefined) more.required = k.required;
    if (k.options !== undefined) more.options = k.options;
    return [f(k.key, k.field, k.access, more)];
  });
}

/**
 * The built-in fields of a declared record type, in its key order: its fixed keys, then the keys
 * only its single record's read shows.
 */
function catalogueOf(declaration: RecordTypeDeclaration): BuiltInField[] {
  return [
    ...fixedFieldsOf(declaration),
    ...(declaration.singleRecordKeys ?? []).map((k) => f(k.key, k.field, k.access)),
  ];
}

/**
 * How many fixed keys a record of a declared type has (shared groups expanded): the keys before
 * the ones only its single record's read shows, its closing keys and its custom fields.
 */
export function fixedKeyCount(declaration: RecordTypeDeclaration): number {
  return fixedFieldsOf(declaration).length;
}

/**
 * The built-in fields of every record type, in record key order: what `GET /v2/field`
 * lists before the custom fields, and what `fieldList` writes may set. The names match
 * the renderers' keys (a test holds them to `fixedKeysOf`).
 */
export const BUILT_IN_FIELDS: Record<FieldRecordType, readonly BuiltInField[]> = {
  people: catalogueOf(PEOPLE),
  organization: catalogueOf(ORGANIZATION),
  deal: catalogueOf(DEAL),
  lead: catalogueOf(LEAD),
  product: catalogueOf(PRODUCT),
  quote: catalogueOf(QUOTE),
  quoteProduct: catalogueOf(QUOTE_PRODUCT),
  todo: [
    f('id', 'id', 'service'),
    f('dealId', 'id', 'body', { bodyKey: 'dealId' }),
    f('leadId', 'id', 'body', { bodyKey: 'leadId' }),
    f('peopleId', 'id', 'body', { bodyKey: 'peopleId' }),
    f('organizationId', 'id', 'body', { bodyKey: 'organizationId' }),
    f('내용', 'string', 'fieldList', { required: true }),
    f('유형', 'string', 'fieldList'),
    f('시작 날짜', 'dateTime', 'fieldList'),
    f('마지막 날짜', 'dateTime', 'fieldList'),
    f('완료', 'boolean', 'fieldList'),
    f('완료 날짜', 'dateTime', 'derived'),
    f('담당자', 'user', 'fieldList'),
    f('팀', 'multiTeam', 'derived'),
    f('생성 날짜', 'dateTime', 'service'),
    f('수정 날짜', 'dateTime', 'service'),
  ],
  customObject: catalogueOf(CUSTOM_OBJECT),
};

/** A record type's built-in field by name, if it has one. */
export function builtInField(type: FieldRecordType, name: string): BuiltInField | undefined {
  return BUILT_IN_FIELDS[type].find((field) => field.name === name);
}

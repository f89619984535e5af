/**
 * Events of the CRM's records (docs/decisions.md, Events and webhooks): what changed, found by
 * comparing a record's rendered JSON before and after a write, and the payload each becomes, with
 * the live API's keys in their order and its values (docs/webhooks.md, Payloads).
 */
import type { BuiltInFieldType } from './field-catalogue.ts';

/** The four topics. */
export const EVENT_TOPICS = ['생성', '수정', '삭제', '병합'] as const;
export type EventTopic = (typeof EVENT_TOPICS)[number];

/**
 * Record types that have events, and the name a payload gives each (a custom object's
 * payload also names its definition: `customObjectDefinitionId`).
 */
export const EVENT_OBJECT_TYPES = {
  people: '고객',
  organization: '회사',
  lead: '리드',
  deal: '딜',
  customObject: '커스텀 오브젝트',
} as const;
export type EventObjectType = keyof typeof EVENT_OBJECT_TYPES;

/** Whether a record type has events. */
export function isEventObjectType(type: string): type is EventObjectType {
  return Object.hasOwn(EVENT_OBJECT_TYPES, type);
}

/** Who made a change: a token's user, an import, or the service deriving one change from another. */
export const EVENT_SOURCES = ['API', '데이터 가져오기', '시스템'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** The actor of a write: its source and that source's id (the user, the import). */
export interface EventActor {
  source: EventSource;
  sourceId: string | null;
}

/** Derived changes are the service's own. */
export const SYSTEM_ACTOR: EventActor = { source: '시스템', sourceId: null };

/** Keys that change with every write and so fire no `수정`. */
const BOOKKEEPING_KEYS: ReadonlySet<string> = new Set(['수정 날짜']);

/** One changed key of a record: its name and its values before and after, as rendered. */
export interface KeyChange {
  key: string;
  before: unknown;
  after: unknown;
}

/**
 * The keys whose values differ between two renders of one record, in the new render's key
 * order (then keys that only the old one had), bookkeeping keys aside.
 */
export function changedKeys(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): KeyChange[] {
  const changes: KeyChange[] = [];
  for (const key of Object.keys(after)) {
    if (BOOKKEEPING_KEYS.has(key)) continue;
    const a = after[key];
    const b = Object.hasOwn(before, key) ? before[key] : null;
    if (!sameValue(b, a)) changes.push({ key, before: b, after: a });
  }
  for (const key of Object.keys(before)) {
    if (BOOKKEEPING_KEYS.has(key) || Object.hasOwn(after, key)) continue;
    if (!sameValue(before[key], null)) changes.push({ key, before: before[key], after: null });
  }
  return changes;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Korea's offset from UTC (no daylight saving time). */
const KST_MS = 9 * 3_600_000;

/** What a `수정` payload shows for a value of a sensitive field (docs/webhooks.md). */
export const SENSITIVE_VALUE = '암호화된 데이터';

/** How an event values a field: by its type, or as sensitive (`isSensitive` fields). */
export type EventFieldType = BuiltInFieldType | 'sensitive';

/**
 * The key of a custom field's type among a record type's (`EventLog.rendered`'s `types`): its
 * name, and for a custom object's the definition's id too, since two definitions may each
 * have a field of one name, of different types (one sensitive, the other not).
 */
export function fieldTypeKey(name: string, customObjectDefinitionId?: string): string {
  return customObjectDefinitionId === undefined ? name : `${customObjectDefinitionId}\u0000${name}`;
}

/**
 * A rendered value as a `수정` payload shows it (docs/webhooks.md): empty as null, a sensitive
 * field's value as `암호화된 데이터`, a date as `YYYY-MM-DD`, a date and time as
 * `YYYY-MM-DD 오전/오후 hh시 mm분` (Korea's time), Refs as `{id, name}`, everything else as it is.
 */
export function eventFieldValue(value: unknown, type: EventFieldType | undefined): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (type === 'sensitive') return SENSITIVE_VALUE;
  if (typeof value === 'string' && (type === 'date' || type === 'dateTime')) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return value;
    if (type === 'date') return value.length >= 10 ? value.slice(0, 10) : value;
    return koreanDateTime(ms);
  }
  return value;
}

/** `YYYY-MM-DD 오전/오후 hh시 mm분` in Korea's time. */
export function koreanDateTime(ms: number): string {
  const t = new Date(ms + KST_MS);
  const hours = t.getUTCHours();
  const half = hours < 12 ? '오전' : '오후';
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.toISOString().slice(0, 10)} ${half} ${two(h12)}시 ${two(t.getUTCMinutes())}분`;
}

/** What an event says, before it is numbered. */
export interface EventFacts {
  event: EventTopic;
  occurredAt: string;
  actor: EventActor;
  objectType: EventObjectType;
  /** For a custom object: the definition it is a record of. */
  customObjectDefinitionId?: string;
  objectId: string;
  eventId: string;
  /** For `수정`: the changed key and its values, as `eventFieldValue` makes them. */
  field?: { name: string; before: unknown; after: unknown };
}

/**
 * The payload a receiver gets, keys in their order (docs/decisions.md, Events and webhooks), as
 * JSON text: a custom object's names its definition (`customObjectDefinitionId`) right after
 * `objectType`, as the live API's payloads do.
 */
export function eventPayload(facts: EventFacts): string {
  const payload: Record<string, unknown> = {
    event: facts.event,
    occurredAt: facts.occurredAt,
    source: facts.actor.source,
    sourceId: facts.actor.sourceId,
    objectType: EVENT_OBJECT_TYPES[facts.objectType],
  };
  if (facts.objectType === 'customObject')
    payload.customObjectDefinitionId = facts.customObjectDefinitionId ?? null;
  payload.objectId = facts.objectId;
  payload.eventId = facts.eventId;
  if (facts.field) {
    payload.fieldName = facts.field.name;
    payload.beforeField = facts.field.before;
    payload.afterField = facts.field.after;
  }
  return JSON.stringify(payload);
}

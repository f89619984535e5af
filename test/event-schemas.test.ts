import type { TObject, TUnion } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { keysOf } from '../src/api-schema/records/common.ts';
import {
  CreatedEventPayload,
  CustomObjectCreatedEventPayload,
  CustomObjectDeletedEventPayload,
  CustomObjectUpdatedEventPayload,
  DeletedEventPayload,
  EventFeedItem,
  EventPayload,
  MergedEventPayload,
  UpdatedEventPayload,
  WebhookVerifyPayload,
} from '../src/api-schema/records/events.ts';
import {
  EVENT_OBJECT_TYPES,
  type EventFacts,
  type EventObjectType,
  eventFieldValue,
  eventPayload,
} from '../src/domain/events.ts';

// The event schemas against the payloads the server writes (`eventPayload`): same keys in
// the same order, and valid, for every topic, record type, source and value form.

registerFormats();

const BASE = {
  occurredAt: '2024-04-08T05:25:26.020Z',
  actor: { source: 'API', sourceId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' },
  objectId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
  eventId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d',
} as const;

/** The errors of `value` against `schema`, as text. */
function errors(schema: TObject | TUnion, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);
}

/** Checks a payload against its topic's schema and the union: keys in order, and valid. */
function expectMatches(schema: TObject, facts: EventFacts): void {
  const payload = JSON.parse(eventPayload(facts)) as Record<string, unknown>;
  expect(Object.keys(payload)).toEqual(keysOf(schema));
  expect(errors(schema, payload)).toEqual([]);
  expect(errors(EventPayload, payload)).toEqual([]);
}

describe('the event schemas', () => {
  it('match 생성, 삭제 and 병합 of every record type and source', () => {
    const sources = [
      BASE.actor,
      { source: '데이터 가져오기', sourceId: null },
      { source: '시스템', sourceId: null },
    ] as const;
    const topics = [
      ['생성', CreatedEventPayload],
      ['삭제', DeletedEventPayload],
      ['병합', MergedEventPayload],
    ] as const;
    const records = (Object.keys(EVENT_OBJECT_TYPES) as EventObjectType[]).filter(
      (t) => t !== 'customObject',
    );
    expect(records).toEqual(['people', 'organization', 'lead', 'deal']);
    for (const objectType of records)
      for (const actor of sources)
        for (const [event, schema] of topics)
          expectMatches(schema, { ...BASE, event, actor, objectType });
  });

  it('match 수정 with every value form of docs/webhooks.md', () => {
    const values: unknown[] = [
      null,
      '홍길동',
      0,
      1_250_000.5,
      true,
      false,
      ['CRM', '분석'],
      { id: 's1', name: '계약' },
      [{ id: 'u1', name: '김민준' }],
      eventFieldValue('2024-05-01T00:00:00.000Z', 'date'),
      eventFieldValue('2024-04-08T05:25:26.020Z', 'dateTime'),
      eventFieldValue([], undefined),
      '암호화된 데이터',
    ];
    for (const before of values)
      for (const after of [null, '계약']) {
        const field = { name: '파이프라인 단계', before, after };
        expectMatches(UpdatedEventPayload, { ...BASE, event: '수정', objectType: 'deal', field });
      }
  });

  it('match 생성, 수정 and 삭제 of custom objects, which name their definition', () => {
    const definition = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a60';
    const custom = {
      ...BASE,
      objectType: 'customObject',
      customObjectDefinitionId: definition,
    } as const;
    expectMatches(CustomObjectCreatedEventPayload, { ...custom, event: '생성' });
    expectMatches(CustomObjectDeletedEventPayload, { ...custom, event: '삭제' });
    const field = { name: '계약 금액', before: null, after: 1200 };
    expectMatches(CustomObjectUpdatedEventPayload, { ...custom, event: '수정', field });
    const payload = JSON.parse(eventPayload({ ...custom, event: '생성' }));
    expect(payload.objectType).toBe('커스텀 오브젝트');
    expect(payload.customObjectDefinitionId).toBe(definition);
    // Without its definition, merged, or a definition on another record type: no payload.
    const { customObjectDefinitionId: _, ...bare } = payload;
    expect(errors(EventPayload, bare)).not.toEqual([]);
    expect(errors(EventPayload, { ...payload, event: '병합' })).not.toEqual([]);
    expect(errors(EventPayload, { ...payload, objectType: '고객' })).not.toEqual([]);
    const person = JSON.parse(eventPayload({ ...BASE, event: '생성', objectType: 'people' }));
    expect(person).not.toHaveProperty('customObjectDefinitionId');
  });

  it('refuse what no payload has', () => {
    const ok = JSON.parse(eventPayload({ ...BASE, event: '생성', objectType: 'people' }));
    expect(errors(EventPayload, ok)).toEqual([]);
    expect(errors(EventPayload, { ...ok, event: '변경' })).not.toEqual([]);
    expect(errors(EventPayload, { ...ok, objectType: 'people' })).not.toEqual([]);
    expect(errors(EventPayload, { ...ok, extra: 1 })).not.toEqual([]);
    expect(errors(EventPayload, { ...ok, fieldName: '이름' })).not.toEqual([]);
    const update = { ...ok, event: '수정', fieldName: '이름', beforeField: { id: 1 } };
    expect(errors(EventPayload, { ...update, afterField: null })).not.toEqual([]);
  });

  it('describe the verification ping and the feed items', () => {
    const ping = { event: 'verify', webhookId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5e' };
    expect(errors(WebhookVerifyPayload, ping)).toEqual([]);
    expect(keysOf(WebhookVerifyPayload)).toEqual(['event', 'webhookId']);
    const payload = JSON.parse(eventPayload({ ...BASE, event: '삭제', objectType: 'lead' }));
    expect(errors(EventFeedItem, { ...payload, seq: 42 })).toEqual([]);
    expect(errors(EventFeedItem, payload)).not.toEqual([]);
    expect(errors(EventFeedItem, { ...payload, seq: 0 })).not.toEqual([]);
    for (const item of EventFeedItem.anyOf) expect(keysOf(item)[0]).toBe('seq');
  });
});

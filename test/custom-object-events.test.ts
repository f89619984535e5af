/**
 * Events and webhooks of custom objects (docs/webhooks.md, What fires): creating, updating,
 * noting and deleting a custom object fires `생성`, `수정` and `삭제` with `objectType`
 * `커스텀 오브젝트` and the record's `customObjectDefinitionId`, in the feed and to the webhooks
 * registered for `customObject`; `POST /v2/custom-object/{id}/delete` takes the record and
 * what is its own away.
 */
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { EventFeedItem, EventPayload } from '../src/api-schema/records/events.ts';
import { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makeDeal, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';
import { type Receiver, startReceiver, waitFor } from './webhook-fixtures.ts';

registerFormats();

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
// The receivers of these tests listen on 127.0.0.1.
appWithWorkspace((made) => ({ store, app, ws } = made), {
  config: { webhookAllowPrivate: true },
});

const UNKNOWN = '01890000-0000-7000-8000-000000000000';
const HEAD = ['event', 'occurredAt', 'source', 'sourceId', 'objectType'];
const CUSTOM_HEAD = [...HEAD, 'customObjectDefinitionId', 'objectId', 'eventId'];

/** A definition 계약서 with a pipeline and a number field; a deal with a field linking 계약서. */
async function seed(w: TestWorkspace) {
  return w.write(async (x) => {
    const contract = await defineCustomObject(x, {
      name: '계약서',
      fields: [{ name: '계약 금액', type: 'number' }],
      stages: ['초안', '서명'],
    });
    const stages = await x.trx
      .selectFrom('pipeline_stages')
      .select(['id', 'name'])
      .where('workspace_id', '=', w.workspaceId)
      .where('pipeline_id', '=', contract.pipelineId!)
      .orderBy('position')
      .execute();
    await defineCustomField(x, { recordType: 'deal', name: '계약', type: 'customObject' });
    const personId = await makePerson(x, { name: '고객' });
    const dealId = await makeDeal(x, { name: '큰 딜', peopleId: personId });
    return { contract, stages, dealId };
  });
}

let side: Awaited<ReturnType<typeof seed>>;
/** The number of the seed's last event: the tests look at the events after it. */
let seeded = 0;
const receivers: Receiver[] = [];
const dispatchers: Dispatcher[] = [];
beforeEach(async () => {
  side = await seed(ws);
  seeded = 0;
  seeded = Math.max(0, ...(await feed()).map((e) => Number(e.seq)));
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
});

async function ok(url: string, body: unknown, status = 200, token = ws.token): Promise<Rec> {
  const res = await post(app, token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  return res.json.data;
}

async function createContract(name: string, more: Rec = {}): Promise<string> {
  const data = await ok(
    '/v2/custom-object',
    { customObjectDefinitionName: '계약서', name, ...more },
    201,
  );
  return (data.customObject as Rec).id as string;
}

/** The workspace's events (or one record type's) since the seed, through the feed. */
async function feed(query = '', token = ws.token): Promise<Rec[]> {
  const events: Rec[] = [];
  let cursor = '';
  for (;;) {
    const res = await get(app, token, `/v2/event?limit=100${query}${cursor}`);
    expect(res.status, res.text).toBe(200);
    events.push(...res.json.data.eventList);
    cursor = `&cursor=${res.json.data.nextCursor}`;
    if (!res.json.data.hasMore) return events.filter((e) => Number(e.seq) > seeded);
  }
}

/** The feed's custom object events, as [event, fieldName, before, after, source]. */
const changes = (events: Rec[]) =>
  events
    .filter((e) => e.objectType === '커스텀 오브젝트')
    .map((e) => [e.event, e.fieldName, e.beforeField, e.afterField, e.source]);

describe('events of custom objects', () => {
  it('a create fires 생성 with the definition’s id, keys in the live order, by the API', async () => {
    const id = await createContract('공급 계약');
    const events = await feed();
    expect(events).toHaveLength(1);
    const [e] = events as [Rec];
    expect(Object.keys(e)).toEqual(['seq', ...CUSTOM_HEAD]);
    expect(e).toMatchObject({
      event: '생성',
      source: 'API',
      sourceId: ws.userId,
      objectType: '커스텀 오브젝트',
      customObjectDefinitionId: side.contract.id,
      objectId: id,
    });
    expect(Value.Errors(EventFeedItem, e).First()).toBeUndefined();
    // The other records' events keep their keys: no customObjectDefinitionId.
    await ok('/v2/people', { name: '홍길동' }, 201);
    const [person] = (await feed()).slice(1) as [Rec];
    expect(Object.keys(person)).toEqual(['seq', ...HEAD, 'objectId', 'eventId']);
  });

  it('an update fires 수정 per changed key; a stage change, a note and a renamed Ref too', async () => {
    const id = await createContract('공급 계약');
    const [first, second] = side.stages;
    await ok(`/v2/custom-object/${id}`, {
      fieldList: [
        { name: '이름', stringValue: '공급 계약 (개정)' },
        { name: '계약 금액', numberValue: 1200 },
      ],
    });
    await ok(`/v2/custom-object/${id}`, {
      pipelineId: side.contract.pipelineId,
      pipelineStageId: first!.id,
    });
    await ok(`/v2/custom-object/${id}`, {
      pipelineId: side.contract.pipelineId,
      pipelineStageId: second!.id,
    });
    // Nothing changes: nothing fires.
    await ok(`/v2/custom-object/${id}`, { fieldList: [{ name: '계약 금액', numberValue: 1200 }] });
    const events = await feed();
    expect(changes(events.slice(1))).toEqual([
      ['수정', '이름', '공급 계약', '공급 계약 (개정)', 'API'],
      ['수정', '계약 금액', null, 1200, 'API'],
      ['수정', '파이프라인', null, { id: side.contract.pipelineId, name: '계약서' }, 'API'],
      ['수정', '파이프라인 단계', null, { id: first!.id, name: '초안' }, 'API'],
      [
        '수정',
        '파이프라인 단계',
        { id: first!.id, name: '초안' },
        { id: second!.id, name: '서명' },
        'API',
      ],
    ]);
    for (const e of events) {
      expect(e.customObjectDefinitionId).toBe(side.contract.id);
      expect(Object.keys(e)).toEqual([
        'seq',
        ...CUSTOM_HEAD,
        ...(e.event === '수정' ? ['fieldName', 'beforeField', 'afterField'] : []),
      ]);
      expect(Value.Errors(EventFeedItem, e).First()).toBeUndefined();
    }

    // A note written on it: its NOTE group, by the API.
    const seen = events.length;
    await ok(`/v2/custom-object/${id}/memo`, { text: '서명 일정 확인' }, 201);
    const noted = (await feed()).slice(seen);
    expect(noted.map((e) => [e.fieldName, e.source])).toEqual([
      ['최근 작성된 노트', 'API'],
      ['최근 노트 작성일', 'API'],
      ['최근 노트 작성자', 'API'],
    ]);
    expect(noted[0]!.afterField).toBe('서명 일정 확인');
    expect(noted[2]!.afterField).toEqual({ id: ws.userId, name: '김관리' });
  });

  it('a delete fires 삭제 and takes the record, its notes, activities and history away', async () => {
    const id = await createContract('공급 계약', { memo: '첫 메모' });
    const keep = await createContract('다른 계약', { memo: '남는 메모' });
    await ok(`/v2/custom-object/${id}`, { fieldList: [{ name: '계약 금액', numberValue: 5 }] });
    await ok(`/v2/deal/${side.dealId}`, {
      fieldList: [{ name: '계약', customObjectValueId: id }],
    });
    const seen = (await feed()).length;
    const res = await post(app, ws.token, `/v2/custom-object/${id}/delete`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true });

    const events = (await feed()).slice(seen);
    const [deleted, ...rest] = events as [Rec, ...Rec[]];
    expect(Object.keys(deleted)).toEqual(['seq', ...CUSTOM_HEAD]);
    expect(deleted).toMatchObject({
      event: '삭제',
      source: 'API',
      sourceId: ws.userId,
      objectType: '커스텀 오브젝트',
      customObjectDefinitionId: side.contract.id,
      objectId: id,
    });
    // The deal's Ref keeps the id, its name gone: a 수정 of the deal, by the system.
    expect(
      rest.map((e) => [e.objectType, e.objectId, e.fieldName, e.afterField, e.source]),
    ).toEqual([['딜', side.dealId, '계약', { id, name: '' }, '시스템']]);

    const gone = await get(app, ws.token, `/v2/custom-object/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.message).toMatch(/^커스텀 오브젝트를 찾을 수 없습니다/);
    const list = (await get(app, ws.token, '/v2/custom-object')).json.data.customObjectList;
    expect(list.map((r: Rec) => r.id)).toEqual([keep]);
    const memos = (await get(app, ws.token, '/v2/memo')).json.data.memoList as Rec[];
    expect(memos.map((m) => m.text)).toEqual(['남는 메모']);
    for (const [path, key] of [
      ['activity', 'customObjectActivityList'],
      ['history', 'customObjectHistoryList'],
    ] as const) {
      const read = await get(app, ws.token, `/v2/custom-object/${path}?customObjectId=${id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.json.data[key]).toEqual([]);
    }
    // Deleted twice: the second is a 404, nothing written.
    const before = await tableSnapshot(store);
    const again = await post(app, ws.token, `/v2/custom-object/${id}/delete`, {});
    expect(again.status).toBe(404);
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('refuses deletes of what is not a custom object of the workspace, writing nothing', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    await seed(other);
    const theirs = (
      await ok(
        '/v2/custom-object',
        { customObjectDefinitionName: '계약서', name: '그쪽 계약' },
        201,
        other.token,
      )
    ).customObject as Rec;
    const cases: [string, number, RegExp][] = [
      [`/v2/custom-object/${UNKNOWN}/delete`, 404, /^커스텀 오브젝트를 찾을 수 없습니다/],
      [`/v2/custom-object/${theirs.id}/delete`, 404, /^커스텀 오브젝트를 찾을 수 없습니다/],
      [`/v2/custom-object/${side.dealId}/delete`, 404, /커스텀 오브젝트/],
      ['/v2/custom-object/a%20b/delete', 400, /customObjectId/],
    ];
    for (const [url, status, message] of cases) {
      const before = await tableSnapshot(store);
      const res = await post(app, ws.token, url, {});
      expect(res.status, `${url}: ${res.text}`).toBe(status);
      expect(res.json.message).toMatch(message);
      expect(await tableSnapshot(store)).toEqual(before);
    }
    const read = await get(app, other.token, `/v2/custom-object/${theirs.id}`);
    expect(read.status).toBe(200);
  });

  it('values a field by its own definition’s type: a sensitive one is hidden, its namesake not', async () => {
    const { secret } = await ws.write(async (x) => {
      const secret = await defineCustomObject(x, { name: '비밀 계약', fields: [] });
      await defineCustomField(x, {
        recordType: 'customObject',
        customObjectDefinitionId: secret.id,
        name: '계약 금액',
        type: 'string',
        isSensitive: true,
      });
      return { secret };
    });
    const open = await createContract('공개 계약');
    const hidden = (
      await ok(
        '/v2/custom-object',
        { customObjectDefinitionId: secret.id, name: '비밀 계약 1' },
        201,
      )
    ).customObject as Rec;
    await ok(`/v2/custom-object/${open}`, { fieldList: [{ name: '계약 금액', numberValue: 10 }] });
    await ok(`/v2/custom-object/${hidden.id}`, {
      fieldList: [{ name: '계약 금액', stringValue: '십억' }],
    });
    const changed = (await feed()).filter((e) => e.fieldName === '계약 금액');
    expect(changed.map((e) => [e.objectId, e.customObjectDefinitionId, e.afterField])).toEqual([
      [open, side.contract.id, 10],
      [hidden.id, secret.id, '암호화된 데이터'],
    ]);
  });

  it('the feed keeps custom objects’ events apart with objectType=customObject', async () => {
    const id = await createContract('공급 계약');
    await ok('/v2/people', { name: '홍길동' }, 201);
    const only = await feed('&objectType=customObject');
    expect(only.map((e) => [e.event, e.objectId])).toEqual([['생성', id]]);
    expect((await feed('&objectType=people')).map((e) => e.objectType)).toEqual(['고객']);
  });
});

describe('webhooks of custom objects', () => {
  it('registers customObject and delivers its events, and only those, signed', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const res = await post(app, ws.token, '/v2/webhook', {
      url: receiver.url,
      objectTypeList: ['customObject'],
    });
    expect(res.status, res.text).toBe(201);
    const webhook = res.json.data.webhook as Rec;
    expect(webhook.objectTypeList).toEqual(['customObject']);
    expect(receiver.receipts).toHaveLength(1); // the verification

    const id = await createContract('공급 계약');
    await ok(`/v2/custom-object/${id}`, { fieldList: [{ name: '계약 금액', numberValue: 7 }] });
    await ok('/v2/people', { name: '홍길동' }, 201);
    await ok(`/v2/custom-object/${id}/delete`, {});

    const log = await get(app, ws.token, `/v2/webhook/${webhook.id}/delivery`);
    expect(log.status, log.text).toBe(200);
    // Newest first.
    expect(
      (log.json.data.deliveryList as Rec[]).map((d) => [d.event, d.objectType, d.objectId]),
    ).toEqual([
      ['삭제', '커스텀 오브젝트', id],
      ['수정', '커스텀 오브젝트', id],
      ['생성', '커스텀 오브젝트', id],
    ]);

    const dispatcher = new Dispatcher(store, {
      retryDelays: [0.05],
      timeoutMs: 2_000,
      concurrency: 4,
      perWebhook: 1,
      pollMs: 20,
      jitter: 0,
      allowPrivate: true,
    });
    dispatchers.push(dispatcher);
    dispatcher.start();
    await waitFor(() => receiver.receipts.length === 4);
    const bodies = receiver.receipts.slice(1).map((r) => JSON.parse(r.body) as Rec);
    expect(bodies.map((b) => [b.event, b.fieldName])).toEqual([
      ['생성', undefined],
      ['수정', '계약 금액'],
      ['삭제', undefined],
    ]);
    for (const body of bodies) {
      expect(Object.keys(body).slice(0, CUSTOM_HEAD.length)).toEqual(CUSTOM_HEAD);
      expect(body.customObjectDefinitionId).toBe(side.contract.id);
      expect(Value.Errors(EventPayload, body).First()).toBeUndefined();
    }
  });

  it('a webhook of the other record types gets none of them', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const res = await post(app, ws.token, '/v2/webhook', {
      url: receiver.url,
      objectTypeList: ['people', 'deal'],
    });
    expect(res.status, res.text).toBe(201);
    await createContract('공급 계약');
    const log = await get(app, ws.token, `/v2/webhook/${res.json.data.webhook.id}/delivery`);
    expect(log.json.data.deliveryList).toEqual([]);
    const bad = await post(app, ws.token, '/v2/webhook', {
      url: receiver.url,
      objectTypeList: ['custom-object'],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/objectTypeList/);
  });
});

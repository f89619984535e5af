/**
 * The batch operations (`/v3`): reads of many ids with and without `fieldList`, creates and
 * updates of many records in one transaction (all or nothing, compared on a snapshot of
 * every table), the pipeline and association lists, workspace isolation, the limits, the
 * rate-limit cost, and a fuzz over the operations the OpenAPI document lists under `/v3`.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CrmClient, type Person, type Quote, ValidationError } from '../src/client/index.ts';
import { SINGLE_DEAL_KEYS } from '../src/resources/batch/reads.ts';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { listen } from './client-server.ts';
import {
  makeCustomField,
  makeDeal,
  makeLead,
  makeOrganization,
  makePerson,
  makePipeline,
  makeUser,
  type TestPipeline,
} from './factories.ts';
import {
  get,
  post,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
  walk,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

/** One workspace's records. */
interface Fixture {
  ws: TestWorkspace;
  pipe: TestPipeline;
  leadPipe: TestPipeline;
  user: string;
  org: string;
  people: string[];
  deal: string;
  lead: string;
}

async function seed(ws: TestWorkspace): Promise<Fixture> {
  return ws.write(async (w) => {
    const pipe = await makePipeline(w, { name: '신규 영업' });
    const leadPipe = await makePipeline(w, { kind: 'lead', name: '리드 접수', stages: ['접수'] });
    const user = await makeUser(w, '박영업');
    const org = await makeOrganization(w, { name: `${ws.workspaceId} 주식회사` });
    const people = [];
    for (const name of ['김하나', '이둘', '박셋']) {
      people.push(await makePerson(w, { name, organizationId: org }));
    }
    const deal = await makeDeal(w, {
      name: '첫 딜',
      peopleId: people[0],
      pipelineId: pipe.id,
      stageId: pipe.stageIds[0],
    });
    const lead = await makeLead(w, { name: '첫 리드', organizationId: org });
    await defineCustomField(w, {
      recordType: 'people',
      name: '고객 등급',
      type: 'singleSelect',
      options: ['VIP', '일반'],
    });
    await makeCustomField(w, 'people', '연봉', 'number');
    await makeCustomField(w, 'deal', '추천인', 'people');
    await makeCustomField(w, 'people', '소속 딜', 'multiDeal');
    return { ws, pipe, leadPipe, user, org, people, deal, lead };
  });
}

let store: TestStore;
let app: FastifyInstance;
let a: Fixture;
let b: Fixture;

beforeAll(async () => {
  store = await testStore();
  a = await seed(await testWorkspace(store, '배치 A'));
  b = await seed(await testWorkspace(store, '배치 B'));
  app = await testApp(store);
});
afterAll(async () => {
  await app?.close();
  await store?.dispose();
});

const call = (path: string, body: unknown, fx: Fixture = a) => post(app, fx.ws.token, path, body);

/** The text of each record of a `{"success":true,"data":{"<key>":[...]}}` answer. */
function recordTexts(res: TestResponse, key: string): string[] {
  return (res.json.data[key] as Rec[]).map((r) => JSON.stringify(r));
}

/** A refused call: 400 in shape A, naming `parts`, with `data` as given (or none). */
function expectRefused(res: TestResponse, parts: string[], data?: Rec): void {
  expect(res.status, res.text).toBe(400);
  expect(Object.keys(res.json)).toEqual(
    data === undefined
      ? ['success', 'message', 'reason']
      : ['success', 'message', 'reason', 'data'],
  );
  expect(res.json.success).toBe(false);
  for (const part of parts) expect(res.json.message).toContain(part);
  if (data !== undefined) expect(res.json.data).toEqual(data);
}

/** A deal's create `data` on the fixture's first stage. */
const dealData = (fx: Fixture, name: string): Rec => ({
  이름: name,
  파이프라인: fx.pipe.id,
  '파이프라인 단계': fx.pipe.stageIds[0],
  상태: 'In progress',
});

describe('POST /v3/object/read', () => {
  it('answers the stored records, as the single reads serve them, in idList order, each once', async () => {
    const ids = [a.people[2]!, 'no-such-id', a.people[0]!, a.people[2]!, b.people[0]!];
    const res = await call('/v3/object/read', { objectType: 'people', idList: ids });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(res.json.data)).toEqual(['objectList']);
    const singles = [];
    for (const id of [a.people[2]!, a.people[0]!]) {
      singles.push(...recordTexts(await get(app, a.ws.token, `/v2/people/${id}`), 'people'));
    }
    expect(recordTexts(res, 'objectList')).toEqual(singles);
    // Byte for byte: the stored record's text is spliced as it is.
    const single = (await get(app, a.ws.token, `/v2/people/${a.people[2]}`)).text;
    const stored = single.slice(single.indexOf('[') + 1, single.lastIndexOf(']'));
    expect(res.text.startsWith(`{"success":true,"data":{"objectList":[${stored},`)).toBe(true);
  });

  it('reads each record type; the deal record is the stored one, without the single read’s four keys', async () => {
    for (const [objectType, id, path, key] of [
      ['organization', a.org, `/v2/organization/${a.org}`, 'organization'],
      ['lead', a.lead, `/v2/lead/${a.lead}`, 'lead'],
    ] as const) {
      const res = await call('/v3/object/read', { objectType, idList: [id] });
      expect(recordTexts(res, 'objectList')).toEqual(
        recordTexts(await get(app, a.ws.token, path), key),
      );
    }
    const res = await call('/v3/object/read', { objectType: 'deal', idList: [a.deal] });
    const listed = (await walk(app, a.ws.token, '/v2/deal', 'dealList')).records.find(
      (d) => d.id === a.deal,
    );
    expect(recordTexts(res, 'objectList')).toEqual([JSON.stringify(listed)]);
    const single = (await get(app, a.ws.token, `/v2/deal/${a.deal}`)).json.data.deal[0] as Rec;
    const batchKeys = Object.keys(res.json.data.objectList[0]);
    expect(Object.keys(single).filter((k) => !batchKeys.includes(k))).toEqual(SINGLE_DEAL_KEYS);
  });

  it('with fieldList, answers id and those keys in the record’s key order', async () => {
    const res = await call('/v3/object/read', {
      objectType: 'people',
      idList: [a.people[1], a.people[0]],
      fieldList: ['고객 등급', '이메일', '이름', 'organizationId'],
    });
    expect(res.status, res.text).toBe(200);
    const list = res.json.data.objectList as Rec[];
    expect(list.map((r) => r.id)).toEqual([a.people[1], a.people[0]]);
    for (const record of list) {
      expect(Object.keys(record)).toEqual(['id', 'organizationId', '이름', '이메일', '고객 등급']);
    }
    expect(list[0]).toMatchObject({ 이름: '이둘', organizationId: a.org, '고객 등급': null });
  });

  it('refuses unknown field names, and the single deal’s own keys, naming them', async () => {
    expectRefused(
      await call('/v3/object/read', {
        objectType: 'people',
        idList: [a.people[0]],
        fieldList: ['이름', '없는 필드'],
      }),
      ['fieldList', '없는 필드'],
    );
    expectRefused(
      await call('/v3/object/read', {
        objectType: 'deal',
        idList: [a.deal],
        fieldList: ['정체 일수'],
      }),
      ['정체 일수', 'GET /v2/deal/{dealId}'],
    );
    // A custom field of another type is not a field of this one.
    expectRefused(
      await call('/v3/object/read', {
        objectType: 'organization',
        idList: [a.org],
        fieldList: ['연봉'],
      }),
      ['연봉'],
    );
  });

  it('never answers another workspace’s records', async () => {
    const res = await call('/v3/object/read', { objectType: 'people', idList: b.people });
    expect(res.status).toBe(200);
    expect(res.json.data.objectList).toEqual([]);
  });

  it('takes 500 ids; 501, none, or an unknown objectType is a 400', async () => {
    const ids = Array.from({ length: 499 }, (_, i) => `missing-${i}`);
    const ok = await call('/v3/object/read', {
      objectType: 'people',
      idList: [...ids, a.people[0]],
    });
    expect(ok.status).toBe(200);
    expect((ok.json.data.objectList as Rec[]).map((r) => r.id)).toEqual([a.people[0]]);
    expectRefused(
      await call('/v3/object/read', { objectType: 'people', idList: [...ids, 'x', 'y'] }),
      ['idList', '500'],
    );
    expectRefused(await call('/v3/object/read', { objectType: 'people', idList: [] }), ['idList']);
    expectRefused(await call('/v3/object/read', { objectType: 'todo', idList: ['x'] }), [
      'objectType',
      'people',
    ]);
    expectRefused(await call('/v3/object/read', { idList: ['x'] }), ['objectType']);
    expectRefused(
      await call('/v3/object/read', { objectType: 'people', idList: ['x', 'a\u0000'] }),
      ["'idList[1]'", 'U+0000'],
    );
  });
});

describe('POST /v3/object/create', () => {
  it('creates 100 people in one call: readable through v2, each with its create event and activity', async () => {
    const count = async (table: 'events' | 'activities' | 'people') =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', a.ws.workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { events: await count('events'), activities: await count('activities') };
    const inputList = Array.from({ length: 100 }, (_, i) => ({
      data: {
        이름: `일괄 고객 ${i}`,
        이메일: `bulk${i}@example.com`,
        '고객 등급': i % 2 ? 'VIP' : '일반',
        연봉: 1000 + i,
        담당자: a.user,
        '수신 거부 여부': i === 7,
      },
      ...(i % 10 === 0 ? { association: { organization: a.org } } : {}),
    }));
    const res = await call('/v3/object/create', { objectType: 'people', inputList });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    const created = res.json.data.objectList as Rec[];
    expect(created).toHaveLength(100);
    expect(created.map((c) => c.name)).toEqual(inputList.map((i) => i.data.이름));
    for (const c of created) expect(Object.keys(c)).toEqual(['id', 'name', 'createdAt']);
    expect(new Set(created.map((c) => c.id)).size).toBe(100);

    const listed = (await walk(app, a.ws.token, '/v2/people', 'peopleList')).records;
    const byId = new Map(listed.map((p) => [p.id, p]));
    for (const [i, c] of created.entries()) {
      expect(byId.get(c.id)).toMatchObject({
        이름: `일괄 고객 ${i}`,
        이메일: `bulk${i}@example.com`,
        '고객 등급': i % 2 ? 'VIP' : '일반',
        연봉: 1000 + i,
        담당자: { id: a.user, name: '박영업' },
        '수신 거부 여부': i === 7,
        organizationId: i % 10 === 0 ? a.org : null,
      });
    }
    const single = await get(app, a.ws.token, `/v2/people/${created[42]!.id}`);
    expect(single.json.data.people[0].이름).toBe('일괄 고객 42');
    // The organization's counters and the events: one 생성 per record, one event id.
    const events = await store.db
      .selectFrom('events')
      .select(['event', 'object_type', 'object_id', 'event_id'])
      .where('workspace_id', '=', a.ws.workspaceId)
      .where('event', '=', '생성')
      .where(
        'object_id',
        'in',
        created.map((c) => c.id as string),
      )
      .execute();
    expect(events).toHaveLength(100);
    expect(new Set(events.map((e) => e.object_type))).toEqual(new Set(['people']));
    expect(new Set(events.map((e) => e.event_id)).size).toBe(1);
    expect((await count('events')) - before.events).toBeGreaterThanOrEqual(100);
    expect((await count('activities')) - before.activities).toBe(100);
  });

  it('creates deals and leads with their links, pipelines and outcome from Korean field names', async () => {
    const res = await call('/v3/object/create', {
      objectType: 'deal',
      inputList: [
        {
          data: {
            ...dealData(a, '일괄 딜'),
            상태: 'Won',
            금액: 5000,
            '수주 예정일': '2024-05-01',
            추천인: a.people[2],
          },
          association: { people: a.people[1], organization: a.org },
        },
        {
          data: {
            ...dealData(a, '레이블 딜'),
            상태: 'SQL',
            status: 'In progress',
            memo: '첫 통화',
          },
          association: { organization: a.org },
        },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const [won, labelled] = res.json.data.objectList as Rec[];
    const deal = (await get(app, a.ws.token, `/v2/deal/${won!.id}`)).json.data.deal[0];
    expect(deal).toMatchObject({
      이름: '일괄 딜',
      peopleId: a.people[1],
      organizationId: a.org,
      파이프라인: { id: a.pipe.id, name: '신규 영업' },
      '파이프라인 단계': { id: a.pipe.stageIds[0], name: '미팅' },
      금액: 5000,
      상태: 'Won',
      추천인: { id: a.people[2], name: '박셋' },
    });
    expect(deal.마감일).not.toBeNull();
    const second = (await get(app, a.ws.token, `/v2/deal/${labelled!.id}`)).json.data.deal[0];
    expect(second).toMatchObject({ 상태: 'SQL', 마감일: null, '최근 작성된 노트': '첫 통화' });
    const lead = await call('/v3/object/create', {
      objectType: 'lead',
      inputList: [
        {
          data: {
            이름: '일괄 리드',
            파이프라인: { id: a.leadPipe.id },
            '파이프라인 단계': a.leadPipe.stageIds[0],
            상태: 'MQL',
            금액: 10,
          },
          association: { people: a.people[0] },
        },
      ],
    });
    expect(lead.status, lead.text).toBe(201);
    const leadId = lead.json.data.objectList[0].id;
    expect((await get(app, a.ws.token, `/v2/lead/${leadId}`)).json.data.lead[0]).toMatchObject({
      peopleId: a.people[0],
      파이프라인: { id: a.leadPipe.id },
      상태: 'MQL',
      금액: 10,
    });
  });

  it('an invalid item at index k refuses the whole batch and writes nothing', async () => {
    const cases: [string, Rec, string[], number][] = [
      ['bad e-mail', { 이름: 'x', 이메일: 'not-an-email' }, ['이메일'], 37],
      ['unknown field', { 이름: 'x', 없는필드: 1 }, ['없는필드'], 0],
      ['derived field', { 이름: 'x', '딜 개수': 3 }, ['딜 개수'], 99],
      ['wrong type', { 이름: 'x', 연봉: 'many' }, ['연봉', 'numberValue'], 50],
      ['bad option', { 이름: 'x', '고객 등급': 'Gold' }, ['Gold'], 12],
      ['no name', { 이메일: 'y@example.com' }, ["'이름'"], 5],
      ['foreign user', { 이름: 'x', 담당자: b.user }, ['담당자'], 64],
      ['name twice', { 이름: 'x', name: 'y' }, ["'이름'", "'name'"], 3],
      ['not an object', 3 as unknown as Rec, ["'data'"], 8],
      // PostgreSQL keeps no U+0000 in text: refused on both stores alike.
      ['NUL in text', { 이름: 'x', 포지션: 'a\u0000b' }, ["'data.포지션'", 'U+0000'], 21],
    ];
    for (const [label, data, parts, k] of cases) {
      const inputList = Array.from({ length: 100 }, (_, i) => ({
        data: i === k ? data : { 이름: `${label} ${i}` },
      }));
      const before = await tableSnapshot(store);
      const res = await call('/v3/object/create', { objectType: 'people', inputList });
      expectRefused(res, [`inputList[${k}]: `, ...parts], { index: k });
      expect(res.json.message.startsWith(`inputList[${k}]: `), label).toBe(true);
      expect(await tableSnapshot(store), label).toEqual(before);
    }
  });

  it('refuses a value nested 10,000 arrays deep with a 400 naming its field, and writes nothing', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const before = await tableSnapshot(store);
    const res = await app.inject({
      method: 'POST',
      url: '/v3/object/create',
      headers: { authorization: `Bearer ${a.ws.token}`, 'content-type': 'application/json' },
      payload: `{"objectType":"people","inputList":[{"data":{"이름":"x","포지션":${deep}}}]}`,
    });
    expectRefused(
      { status: res.statusCode, headers: res.headers, text: res.body, json: res.json() },
      ['inputList[0]: ', '포지션'],
      { index: 0 },
    );
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('a duplicate refuses the batch: of an existing record with it, of an earlier item without', async () => {
    const before = await tableSnapshot(store);
    const existing = await call('/v3/object/create', {
      objectType: 'organization',
      inputList: [
        { data: { 이름: '새 회사' } },
        { data: { 이름: `${a.ws.workspaceId} 주식회사` } },
      ],
    });
    expectRefused(existing, ['inputList[1]: ', '이미 존재하는 이름'], {
      index: 1,
      id: a.org,
      name: `${a.ws.workspaceId} 주식회사`,
    });
    const within = await call('/v3/object/create', {
      objectType: 'people',
      inputList: [
        { data: { 이름: 'a', 이메일: 'same@example.com' } },
        { data: { 이름: 'b' } },
        { data: { 이름: 'c', 이메일: 'SAME@example.com' } },
      ],
    });
    expectRefused(within, ['inputList[2]: ', 'inputList[0]'], { index: 2 });
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('refuses associations a type does not have, and links to another workspace’s records', async () => {
    const before = await tableSnapshot(store);
    expectRefused(
      await call('/v3/object/create', {
        objectType: 'organization',
        inputList: [{ data: { 이름: '연결 회사' }, association: { people: a.people[0] } }],
      }),
      ['inputList[0]: ', 'association.people'],
      { index: 0 },
    );
    expectRefused(
      await call('/v3/object/create', {
        objectType: 'deal',
        inputList: [
          { data: dealData(a, 'ok'), association: { people: a.people[0] } },
          { data: dealData(a, '남의 고객'), association: { people: b.people[0] } },
        ],
      }),
      ['inputList[1]: ', 'peopleId', b.people[0]!],
      { index: 1 },
    );
    expectRefused(
      await call('/v3/object/create', {
        objectType: 'deal',
        inputList: [
          {
            data: { ...dealData(a, 'x'), peopleId: a.people[0] },
            association: { people: a.people[1] },
          },
        ],
      }),
      ['inputList[0]: ', 'association.people'],
      { index: 0 },
    );
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('takes 100 items; 101 or none is a 400 that writes nothing', async () => {
    const before = await tableSnapshot(store);
    const many = Array.from({ length: 101 }, (_, i) => ({ data: { 이름: `n${i}` } }));
    expectRefused(await call('/v3/object/create', { objectType: 'people', inputList: many }), [
      'inputList',
      '100',
    ]);
    expectRefused(await call('/v3/object/create', { objectType: 'people', inputList: [] }), [
      'inputList',
    ]);
    expectRefused(await call('/v3/object/update', { objectType: 'people', inputList: [] }), [
      'inputList',
    ]);
    expect(await tableSnapshot(store)).toEqual(before);
  });
});

describe('POST /v3/object/update', () => {
  it('updates several records in order, with their history', async () => {
    const [p0, p1, p2] = a.people as [string, string, string];
    const res = await call('/v3/object/update', {
      objectType: 'people',
      inputList: [
        { id: p0, data: { 포지션: '팀장', '고객 등급': 'VIP' } },
        { id: p1, data: { 이름: '이둘 (수정)', 연봉: 4200 }, association: { organization: null } },
        { id: p2, data: { 전화: '010-0000-0000', '소속 딜': [{ id: a.deal, name: '첫 딜' }] } },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const updated = res.json.data.objectList as Rec[];
    expect(updated.map((u) => [u.id, u.name])).toEqual([
      [p0, '김하나'],
      [p1, '이둘 (수정)'],
      [p2, '박셋'],
    ]);
    for (const u of updated) expect(Object.keys(u)).toEqual(['id', 'name', 'updatedAt']);
    const read = await call('/v3/object/read', {
      objectType: 'people',
      idList: [p0, p1, p2],
      fieldList: ['이름', '포지션', '고객 등급', '연봉', '전화', '소속 딜', 'organizationId'],
    });
    expect(read.json.data.objectList).toEqual([
      {
        id: p0,
        organizationId: a.org,
        이름: '김하나',
        포지션: '팀장',
        전화: null,
        '고객 등급': 'VIP',
        연봉: null,
        '소속 딜': null,
      },
      {
        id: p1,
        organizationId: null,
        이름: '이둘 (수정)',
        포지션: null,
        전화: null,
        '고객 등급': null,
        연봉: 4200,
        '소속 딜': null,
      },
      {
        id: p2,
        organizationId: a.org,
        이름: '박셋',
        포지션: null,
        전화: '010-0000-0000',
        '고객 등급': null,
        연봉: null,
        '소속 딜': [{ id: a.deal, name: '첫 딜' }],
      },
    ]);
    const history = await get(app, a.ws.token, `/v2/people/history?peopleId=${p1}`);
    const rows = (history.json.data.peopleHistoryList as Rec[]).map((h) => [
      h.type,
      h.fieldName,
      h.fieldValue,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['editField', '이름', '이둘 (수정)'],
        ['editField', '연봉', '4200'],
        ['editOrganizationConnect', 'organizationId', null],
      ]),
    );
  });

  it('moves a deal’s outcome with 상태 and its links with association', async () => {
    const res = await call('/v3/object/update', {
      objectType: 'deal',
      inputList: [
        {
          id: a.deal,
          data: { 상태: 'Lost', '파이프라인 단계': a.pipe.stageIds[1] },
          association: { organization: a.org },
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const deal = (await get(app, a.ws.token, `/v2/deal/${a.deal}`)).json.data.deal[0];
    expect(deal).toMatchObject({
      상태: 'Lost',
      organizationId: a.org,
      peopleId: a.people[0],
      '파이프라인 단계': { id: a.pipe.stageIds[1] },
    });
    expect(deal.마감일).not.toBeNull();
  });

  it('an id of another workspace refuses the batch as not found there, and changes nothing anywhere', async () => {
    const before = await tableSnapshot(store);
    const theirs = await get(app, b.ws.token, `/v2/people/${b.people[0]}`);
    const res = await call('/v3/object/update', {
      objectType: 'people',
      inputList: [
        { id: a.people[0], data: { 포지션: '변경되면 안 됨' } },
        { id: b.people[0], data: { 이름: '탈취' } },
      ],
    });
    expectRefused(res, ['inputList[1]: ', '찾을 수 없습니다', b.people[0]!], { index: 1 });
    expect(await tableSnapshot(store)).toEqual(before);
    expect((await get(app, b.ws.token, `/v2/people/${b.people[0]}`)).text).toBe(theirs.text);
    // And an id of the right workspace but another type.
    expectRefused(
      await call('/v3/object/update', {
        objectType: 'lead',
        inputList: [{ id: a.deal, data: { 이름: 'x' } }],
      }),
      ['inputList[0]: ', '리드를 찾을 수 없습니다'],
      { index: 0 },
    );
  });
});

describe('POST /v3/pipeline/list and /v3/association/list', () => {
  it('lists the deal and lead pipelines as GET /v2/{deal,lead}/pipeline does', async () => {
    for (const kind of ['deal', 'lead'] as const) {
      const res = await call('/v3/pipeline/list', { objectType: kind });
      expect(res.status).toBe(200);
      expect(res.text).toBe((await get(app, a.ws.token, `/v2/${kind}/pipeline`)).text);
    }
    expectRefused(await call('/v3/pipeline/list', { objectType: 'people' }), ['deal', 'lead']);
    expectRefused(await call('/v3/pipeline/list', {}), ['objectType']);
  });

  it('lists each type’s associations: primary links, its reference fields, and fields pointing at it', async () => {
    const list = async (objectType: string) =>
      (await call('/v3/association/list', { objectType })).json.data.associationList as Rec[];
    const row = (
      name: string,
      fieldName: string,
      fieldOn: string,
      multiple: boolean,
      writeWith: string | null,
    ) => ({
      name,
      fieldName,
      fieldOn,
      multiple,
      writeWith,
    });
    expect(await list('deal')).toEqual([
      row('people', 'peopleId', 'deal', false, 'association'),
      row('organization', 'organizationId', 'deal', false, 'association'),
      row('people', '참여자', 'deal', true, 'data'),
      row('people', '추천인', 'deal', false, 'data'),
      row('people', '소속 딜', 'people', true, null),
    ]);
    expect(await list('people')).toEqual([
      row('organization', 'organizationId', 'people', false, 'association'),
      row('deal', 'peopleId', 'deal', true, null),
      row('lead', 'peopleId', 'lead', true, null),
      row('deal', '소속 딜', 'people', true, 'data'),
      row('deal', '추천인', 'deal', true, null),
    ]);
    expect(await list('organization')).toEqual([
      row('people', 'organizationId', 'people', true, null),
      row('deal', 'organizationId', 'deal', true, null),
      row('lead', 'organizationId', 'lead', true, null),
    ]);
    expect(await list('lead')).toEqual([
      row('people', 'peopleId', 'lead', false, 'association'),
      row('organization', 'organizationId', 'lead', false, 'association'),
    ]);
  });
});

describe('objectType by the live API’s names (고객, 회사, 딜, 리드)', () => {
  const NAMES = { people: '고객', organization: '회사', deal: '딜', lead: '리드' } as const;

  it('reads, lists pipelines and associations as with the English names', async () => {
    const ids = { people: a.people, organization: [a.org], deal: [a.deal], lead: [a.lead] };
    for (const [type, name] of Object.entries(NAMES) as [keyof typeof NAMES, string][]) {
      const korean = await call('/v3/object/read', { objectType: name, idList: ids[type] });
      expect(korean.status, korean.text).toBe(200);
      expect(korean.text).toBe(
        (await call('/v3/object/read', { objectType: type, idList: ids[type] })).text,
      );
      const fields = { objectType: name, idList: ids[type], fieldList: ['이름'] };
      expect((await call('/v3/object/read', fields)).json.data.objectList[0]).toEqual({
        id: ids[type][0],
        이름: expect.any(String),
      });
      const links = await call('/v3/association/list', { objectType: name });
      expect(links.status, links.text).toBe(200);
      expect(links.text).toBe((await call('/v3/association/list', { objectType: type })).text);
    }
    for (const [type, name] of [
      ['deal', '딜'],
      ['lead', '리드'],
    ] as const) {
      const res = await call('/v3/pipeline/list', { objectType: name });
      expect(res.status, res.text).toBe(200);
      expect(res.text).toBe((await get(app, a.ws.token, `/v2/${type}/pipeline`)).text);
    }
    expectRefused(await call('/v3/pipeline/list', { objectType: '고객' }), ['딜', '리드', '고객']);
    expectRefused(await call('/v3/object/read', { objectType: '상담', idList: [a.deal] }), [
      'objectType',
      '"딜"',
      '"deal"',
    ]);
  });

  it('reads products (상품) and quotes (견적서) as their lists serve them; writes take neither', async () => {
    const product = await post(app, a.ws.token, '/v2/product', { name: '배치 상품', price: 10 });
    expect(product.status, product.text).toBe(201);
    const productId = product.json.data.product.id as string;
    const quote = await post(app, a.ws.token, '/v2/quote', {
      name: '배치 견적',
      dealId: a.deal,
      quoteProductList: [{ productId, amount: 2 }],
    });
    expect(quote.status, quote.text).toBe(201);
    const quoteId = quote.json.data.quote.id as string;
    const products = (await walk(app, a.ws.token, '/v2/product', 'productList')).records;
    const quotes = (await get(app, a.ws.token, `/v2/deal/${a.deal}/quote`)).json.data
      .quoteList as Rec[];
    for (const [objectType, id, listed] of [
      ['상품', productId, products],
      ['product', productId, products],
      ['견적서', quoteId, quotes],
      ['quote', quoteId, quotes],
    ] as const) {
      const res = await call('/v3/object/read', { objectType, idList: [id, a.deal] });
      expect(res.status, res.text).toBe(200);
      expect(recordTexts(res, 'objectList')).toEqual([
        JSON.stringify(listed.find((r) => r.id === id)),
      ]);
    }
    const named = await call('/v3/object/read', {
      objectType: '견적서',
      idList: [quoteId],
      fieldList: ['이름'],
    });
    expect(named.json.data.objectList).toEqual([{ id: quoteId, 이름: '배치 견적' }]);
    const write = await call('/v3/object/create', {
      objectType: '상품',
      inputList: [{ data: { 이름: '안 됨' } }],
    });
    expectRefused(write, ['objectType']);
  });

  it('creates and updates records of each type', async () => {
    const created = await call('/v3/object/create', {
      objectType: '고객',
      inputList: [{ data: { 이름: '한글형', 이메일: 'korean-type@example.com' } }],
    });
    expect(created.status, created.text).toBe(201);
    const person = created.json.data.objectList[0].id as string;
    const org = await call('/v3/object/create', {
      objectType: '회사',
      inputList: [{ data: { 이름: `${a.ws.workspaceId} 한글형 회사` } }],
    });
    expect(org.status, org.text).toBe(201);
    const deal = await call('/v3/object/create', {
      objectType: '딜',
      inputList: [{ data: dealData(a, '한글형 딜'), association: { people: person } }],
    });
    expect(deal.status, deal.text).toBe(201);
    const lead = await call('/v3/object/create', {
      objectType: '리드',
      inputList: [{ data: { 이름: '한글형 리드' }, association: { people: person } }],
    });
    expect(lead.status, lead.text).toBe(201);
    const updated = await call('/v3/object/update', {
      objectType: '딜',
      inputList: [{ id: deal.json.data.objectList[0].id, data: { 이름: '한글형 딜 2' } }],
    });
    expect(updated.status, updated.text).toBe(200);
    const read = await get(app, a.ws.token, `/v2/deal/${deal.json.data.objectList[0].id}`);
    expect(read.json.data.deal[0]).toMatchObject({ peopleId: person, 이름: '한글형 딜 2' });
    const personRead = await get(app, a.ws.token, `/v2/people/${person}`);
    expect(personRead.json.data.people[0]['딜 개수']).toBe(1);
    expect(personRead.json.data.people[0]['리드 개수']).toBe(1);
  });
});

describe('authentication and the rate limit', () => {
  it('needs a token', async () => {
    const res = await post(app, null, '/v3/object/read', { objectType: 'people', idList: ['x'] });
    expect(res.status).toBe(401);
    expect(res.json.success).toBe(false);
  });

  it('counts a batch call 10 and a type list 1 against the workspace’s limit', async () => {
    const limited = await testApp(store, { rateLimitMax: 25 });
    try {
      const send = (path: string, body: unknown) => post(limited, a.ws.token, path, body);
      const read = { objectType: 'people', idList: [a.people[0]] };
      const first = await send('/v3/object/read', read);
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-remaining']).toBe('15');
      expect(
        (await send('/v3/pipeline/list', { objectType: 'deal' })).headers['ratelimit-remaining'],
      ).toBe('14');
      expect((await send('/v3/object/read', read)).headers['ratelimit-remaining']).toBe('4');
      const refused = await send('/v3/object/update', {
        objectType: 'people',
        inputList: [{ id: a.people[0], data: {} }],
      });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

describe('the client’s batch calls', () => {
  it('reads, creates, updates and lists through crm.batch, and a refusal names the index', async () => {
    const served = await testApp(store);
    try {
      const crm = new CrmClient({ baseUrl: await listen(served), token: a.ws.token });
      const people = await crm.batch.read({ objectType: 'people', idList: a.people });
      expectTypeOf(people).toEqualTypeOf<Person[]>();
      expect(people.map((p) => p.id)).toEqual(a.people);
      const byLiveName = await crm.batch.read({ objectType: '고객', idList: a.people });
      expectTypeOf(byLiveName).toEqualTypeOf<Person[]>();
      expect(byLiveName).toEqual(people);
      const quotes = await crm.batch.read({ objectType: '견적서', idList: ['no-such-quote'] });
      expectTypeOf(quotes).toEqualTypeOf<Quote[]>();
      expect(quotes).toEqual([]);
      const names = await crm.batch.read({
        objectType: 'people',
        idList: [a.people[0]!],
        fieldList: ['이름'],
      });
      expect(names).toEqual([{ id: a.people[0], 이름: '김하나' }]);
      const [made] = await crm.batch.create({
        objectType: 'organization',
        inputList: [{ data: { 이름: '클라이언트 회사', 전화: '02-000-0000' } }],
      });
      expect(made!.name).toBe('클라이언트 회사');
      const [changed] = await crm.batch.update({
        objectType: 'organization',
        inputList: [{ id: made!.id, data: { 이름: '클라이언트 회사 (수정)' } }],
      });
      expect(changed).toMatchObject({ id: made!.id, name: '클라이언트 회사 (수정)' });
      expect((await crm.batch.pipelines('lead')).map((p) => p.id)).toEqual([a.leadPipe.id]);
      expect((await crm.batch.associations('lead')).map((x) => x.name)).toEqual([
        'people',
        'organization',
      ]);
      const refused = await crm.batch
        .create({ objectType: 'people', inputList: [{ data: { 이름: 'ok' } }, { data: {} }] })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).body).toMatchObject({ data: { index: 1 } });
    } finally {
      await served.close();
    }
  });
});

// --- A fuzz over the /v3 operations of the OpenAPI document ------------------------------

/** A valid body of each /v3 operation of the document. */
const VALID: Record<string, () => Rec> = {
  'POST /v3/object/read': () => ({
    objectType: 'people',
    idList: [...a.people],
    fieldList: ['이름'],
  }),
  'POST /v3/object/create': () => ({
    objectType: 'deal',
    inputList: [{ data: dealData(a, '퍼즈 딜'), association: { people: a.people[0] } }],
  }),
  'POST /v3/object/update': () => ({
    objectType: 'people',
    inputList: [{ id: a.people[2], data: { 포지션: '과장' } }],
  }),
  'POST /v3/pipeline/list': () => ({ objectType: 'lead' }),
  'POST /v3/association/list': () => ({ objectType: 'organization' }),
};

/** A small seeded PRNG, so a failing fuzz case can be replayed. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `body` with one value somewhere in it replaced, removed, or a key added. */
function corrupt(random: () => number, body: Rec): Rec {
  const pool: unknown[] = [
    null,
    0,
    -1,
    1.5,
    1e308,
    '',
    ' ',
    'x'.repeat(300),
    '\u0000',
    '한글',
    true,
    [],
    {},
    [null],
    ['이름'],
    { id: 1 },
    'people',
    'deal',
    'product',
    'Won',
    '2024-02-30',
    a.people[0],
    b.people[0],
    a.pipe.stageIds[0],
    Array.from({ length: 600 }, (_, i) => `id${i}`),
  ];
  const copy = structuredClone(body);
  const containers: Rec[] = [];
  const visit = (v: unknown) => {
    if (v && typeof v === 'object') {
      containers.push(v as Rec);
      for (const inner of Object.values(v)) visit(inner);
    }
  };
  visit(copy);
  const target = containers[Math.floor(random() * containers.length)]!;
  const keys = Object.keys(target);
  const action = random();
  const value = pool[Math.floor(random() * pool.length)];
  if (keys.length === 0 || action < 0.2) {
    target[
      Array.isArray(target)
        ? String(keys.length)
        : ['extra', '이름', 'objectType', 'data'][Math.floor(random() * 4)]!
    ] = value;
  } else if (action < 0.35) {
    delete target[keys[Math.floor(random() * keys.length)]!];
  } else {
    target[keys[Math.floor(random() * keys.length)]!] = value;
  }
  return copy;
}

describe('fuzz over the /v3 operations of the OpenAPI document', () => {
  it('the valid bodies cover every /v3 operation of the document, and are accepted', async () => {
    const doc = (await get(app, null, '/openapi.json')).json;
    const operations = Object.entries(doc.paths as Record<string, Rec>)
      .filter(([path]) => path.startsWith('/v3/'))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(Object.keys(VALID).sort());
    for (const [op, body] of Object.entries(VALID)) {
      const res = await call(op.split(' ')[1]!, body());
      expect(res.status, `${op}: ${res.text}`).toBeLessThan(300);
    }
  });

  it('corrupted bodies never give a 500; a 400 is shape A and writes nothing', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20240408);
    const random = mulberry32(seed);
    const ops = Object.keys(VALID);
    const seen = new Map<number, number>();
    for (let i = 0; i < 150; i++) {
      const op = ops[Math.floor(random() * ops.length)]!;
      const body = corrupt(random, VALID[op]!());
      const before = await tableSnapshot(store);
      const res = await call(op.split(' ')[1]!, body);
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      const context = `seed ${seed} #${i} ${op} ${JSON.stringify(body).slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
      expect([200, 201, 400], context).toContain(res.status);
      if (res.status < 300) {
        expect(res.json.success, context).toBe(true);
        continue;
      }
      expect(res.json.success, context).toBe(false);
      expect(typeof res.json.message, context).toBe('string');
      expect(Object.keys(res.json).slice(0, 3), context).toEqual(['success', 'message', 'reason']);
      expect(await tableSnapshot(store), context).toEqual(before);
    }
    expect(seen.get(400)).toBeGreaterThan(30);
    expect((seen.get(200) ?? 0) + (seen.get(201) ?? 0)).toBeGreaterThan(10);
  }, 120_000);
});

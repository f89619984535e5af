import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  CrmApiError,
  CrmClient,
  GoneError,
  type ListRequest,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from '../src/client/index.ts';
import type { FetchLike } from '../src/client/transport.ts';
import { createDemoWorkspace, type DemoResult } from '../src/ingest/demo/create-workspace.ts';
import { listen } from './client-server.ts';
import { get, type TestStore, testApp, testStore, walk } from './helpers.ts';

// The client against the real API over real HTTP: a demo workspace (every record type) in
// a fresh SQLite file, served on a free port.

let store: TestStore;
let app: FastifyInstance;
let demo: DemoResult;
let baseUrl: string;
let crm: CrmClient;
/** Requests the counting fetch sent, by URL. */
const sent: string[] = [];

const countingFetch: FetchLike = (url, init) => {
  sent.push(`${init.method} ${url}`);
  return fetch(url, init);
};

beforeAll(async () => {
  store = await testStore();
  demo = await createDemoWorkspace(store, { seed: 7, people: 60 });
  app = await testApp(store);
  baseUrl = await listen(app);
  crm = new CrmClient({ baseUrl, token: demo.token, fetch: countingFetch });
});

afterAll(async () => {
  await app?.close();
  await store?.dispose();
});

/** Every record of a list as the server gives it, walked over `app.inject`. */
async function raw(url: string, key: string): Promise<Record<string, unknown>[]> {
  return (await walk(app, demo.token, url, key)).records;
}

/** `data` of one GET as the server gives it. */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
async function rawData(url: string): Promise<any> {
  const res = await get(app, demo.token, url);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

async function firstId(url: string, key: string): Promise<string> {
  const data = await rawData(url);
  return (data[key] as { id: string }[])[0]!.id;
}

describe('client: every list follows the cursor to the same records the server has', () => {
  const lists: [string, () => ListRequest<unknown>, string, string][] = [
    ['people.list', () => crm.people.list(), '/v2/people', 'peopleList'],
    ['organizations.list', () => crm.organizations.list(), '/v2/organization', 'organizationList'],
    ['deals.list', () => crm.deals.list(), '/v2/deal', 'dealList'],
    ['leads.list', () => crm.leads.list(), '/v2/lead', 'leadList'],
    ['products.list', () => crm.products.list(), '/v2/product', 'productList'],
    [
      'deals.activities.list',
      () => crm.deals.activities.list(),
      '/v2/deal/activity',
      'dealActivityList',
    ],
    [
      'people.activities.list',
      () => crm.people.activities.list(),
      '/v2/people/activity',
      'peopleActivityList',
    ],
    [
      'organizations.activities.list',
      () => crm.organizations.activities.list(),
      '/v2/organization/activity',
      'organizationActivityList',
    ],
    [
      'leads.activities.list',
      () => crm.leads.activities.list(),
      '/v2/lead/activity',
      'leadActivityList',
    ],
    [
      'people.history.list',
      () => crm.people.history.list(),
      '/v2/people/history',
      'peopleHistoryList',
    ],
    ['deals.history.list', () => crm.deals.history.list(), '/v2/deal/history', 'dealHistoryList'],
    ['leads.history.list', () => crm.leads.history.list(), '/v2/lead/history', 'leadHistoryList'],
    [
      'organizations.history.list',
      () => crm.organizations.history.list(),
      '/v2/organization/history',
      'organizationHistoryList',
    ],
    ['users.list', () => crm.users.list(), '/v2/user', 'userList'],
    ['teams.list', () => crm.teams.list(), '/v2/team', 'teamList'],
    ['todos.list', () => crm.todos.list(), '/v2/todo', 'todoList'],
    ['memos.list', () => crm.memos.list(), '/v2/memo', 'memoList'],
    ['webForms.list', () => crm.webForms.list(), '/v2/webForm', 'webFormList'],
  ];
  for (const [name, list, url, key] of lists) {
    it(name, async () => {
      const expected = await raw(url, key);
      expect(expected.length, `the demo has ${key}`).toBeGreaterThan(0);
      const got = await list().toArray({ max: 1_000_000 });
      expect(got).toEqual(expected);
      // The same order of keys as on the wire (custom fields last).
      expect(Object.keys(got[0] as object)).toEqual(Object.keys(expected[0]!));
    });
  }

  it('webForms.submissions', async () => {
    const formId = await firstId('/v2/webForm', 'webFormList');
    const expected = await raw(`/v2/webForm/${formId}/submit`, 'webFormSubmitList');
    expect(await crm.webForms.submissions(formId).toArray({ max: 100_000 })).toEqual(expected);
  });
});

describe('client: filters reach the server', () => {
  it('deals.list by pipeline and stage, reading nextCurosr', async () => {
    const pipelines = await crm.deals.pipelines();
    const pipeline = pipelines[0]!;
    const stage = pipeline.pipelineStageList[0]!;
    const q = `pipelineName=${encodeURIComponent(pipeline.name)}`;
    const expected = await raw(`/v2/deal?${q}`, 'dealList');
    expect(expected.length).toBeGreaterThan(2);
    expect(
      await crm.deals.list({ pipelineName: pipeline.name, limit: 2 }).toArray({ max: 1e6 }),
    ).toEqual(expected);
    const byStage = await crm.deals
      .list({ pipelineName: pipeline.name, pipelineStageName: stage.name })
      .toArray({ max: 1e6 });
    expect(byStage.length).toBeGreaterThan(0);
    for (const deal of byStage) expect(deal['파이프라인 단계']?.name).toBe(stage.name);
  });

  it('activity filters: dealId and types (a comma list)', async () => {
    const all = await crm.deals.activities.list().toArray({ max: 1e6 });
    const dealId = all.find((a) => a.type !== 'create')!.dealId!;
    const got = await crm.deals.activities
      .list({ dealId, types: ['create', 'email'] })
      .toArray({ max: 1e6 });
    const expected = all.filter(
      (a) => a.dealId === dealId && (a.type === 'create' || a.type === 'email'),
    );
    expect(got).toEqual(expected);
    expect(sent.at(-1)).toContain('types=create%2Cemail');
  });

  it('activity date filters take a Date or a day', async () => {
    const all = await crm.people.activities.list().toArray({ max: 1e6 });
    const middle = all[Math.floor(all.length / 2)]!;
    const fromDate = await crm.people.activities
      .list({ startDate: new Date(middle.date) })
      .toArray({ max: 1e6 });
    expect(fromDate).toEqual(all.filter((a) => a.date >= middle.date));
    await expect(
      crm.people.activities.list({ startDate: '2024-13-45' }).page(),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('history and memo filters by record', async () => {
    const history = await crm.people.history.list().toArray({ max: 1e6 });
    const peopleId = history[0]!.peopleId;
    expect(await crm.people.history.list({ peopleId }).toArray({ max: 1e6 })).toEqual(
      history.filter((h) => h.peopleId === peopleId),
    );
    // A note's cursorId is bound to its list's filters, as every cursor is.
    const withoutCursor = ({ cursorId, ...m }: { cursorId: string }) => m;
    const memos = await crm.memos.list().toArray({ max: 1e6 });
    const withPerson = memos.find((m) => m.peopleId !== null)!;
    const filtered = await crm.memos.list({ peopleId: withPerson.peopleId! }).toArray({ max: 1e6 });
    expect(filtered.map(withoutCursor)).toEqual(
      memos.filter((m) => m.peopleId === withPerson.peopleId).map(withoutCursor),
    );
  });
});

describe('client: single records and small lists', () => {
  it('people.get, organizations.get, deals.get, leads.get, memos.get are the server’s record', async () => {
    const personId = await firstId('/v2/people', 'peopleList');
    expect(await crm.people.get(personId)).toEqual(
      (await rawData(`/v2/people/${personId}`)).people[0],
    );
    const orgId = await firstId('/v2/organization', 'organizationList');
    expect(await crm.organizations.get(orgId)).toEqual(
      (await rawData(`/v2/organization/${orgId}`)).organization[0],
    );
    const dealId = await firstId('/v2/deal', 'dealList');
    const deal = await crm.deals.get(dealId);
    expect(deal).toEqual((await rawData(`/v2/deal/${dealId}`)).deal[0]);
    expect(Object.keys(deal)).toContain('상담 일수');
    const leadId = await firstId('/v2/lead', 'leadList');
    expect(await crm.leads.get(leadId)).toEqual((await rawData(`/v2/lead/${leadId}`)).lead[0]);
    const memoId = await firstId('/v2/memo', 'memoList');
    expect(await crm.memos.get(memoId)).toEqual((await rawData(`/v2/memo/${memoId}`)).memo);
  });

  it('deals.quotes and leads.quotes', async () => {
    const quoted = await store.reader
      .selectFrom('quotes')
      .select(['deal_id', 'lead_id'])
      .where('workspace_id', '=', demo.workspaceId)
      .execute();
    const dealId = quoted.find((q) => q.deal_id)!.deal_id!;
    // The demo quotes deals; a lead gets one here, through the client.
    const leadId = await firstId('/v2/lead', 'leadList');
    const products = await crm.products.list().toArray({ max: 1000 });
    const productId = products.find((p) => p['유형'] === '일반')!.id;
    await crm.quotes.create({
      name: '리드 견적',
      leadId,
      quoteProductList: [{ productId, amount: 3 }],
    });
    expect(quoted.some((q) => q.lead_id === leadId)).toBe(false);
    const dealQuotes = await crm.deals.quotes(dealId);
    expect(dealQuotes.length).toBeGreaterThan(0);
    expect(dealQuotes).toEqual((await rawData(`/v2/deal/${dealId}/quote`)).quoteList);
    const leadQuotes = await crm.leads.quotes(leadId);
    expect(leadQuotes.length).toBeGreaterThan(0);
    expect(leadQuotes).toEqual((await rawData(`/v2/lead/${leadId}/quote`)).quoteList);
  });

  it('pipelines, users.me, fields.list', async () => {
    expect(await crm.deals.pipelines()).toEqual((await rawData('/v2/deal/pipeline')).pipelineList);
    expect(await crm.leads.pipelines()).toEqual((await rawData('/v2/lead/pipeline')).pipelineList);
    expect(await crm.users.me()).toEqual((await rawData('/v2/user/me')).user);
    const fields = await crm.fields.list('quote-product');
    expect(fields).toEqual((await rawData('/v2/field/quote-product')).fieldList);
    expect(fields.map((f) => f.name)).toContain('전체금액');
  });
});

describe('client: pagination', () => {
  it('the iterator walks many pages, one request per page, in order', async () => {
    const expected = await raw('/v2/people', 'peopleList');
    const before = sent.length;
    const ids: string[] = [];
    for await (const person of crm.people.list({ limit: 7 })) ids.push(person.id);
    const requests = sent.slice(before);
    expect(ids).toEqual(expected.map((p) => p.id));
    const pages = Math.ceil(expected.length / 7);
    expect(requests.length).toBeGreaterThanOrEqual(pages);
    expect(requests.length).toBeLessThanOrEqual(pages + 1);
    expect(requests.every((r) => r.includes('limit=7'))).toBe(true);
    expect(requests.slice(1).every((r) => r.includes('cursor='))).toBe(true);
  });

  it('breaking out of the loop fetches no further page', async () => {
    const before = sent.length;
    let seen = 0;
    for await (const _ of crm.people.list({ limit: 5 })) {
      seen += 1;
      if (seen === 7) break;
    }
    expect(sent.length - before).toBe(2);
  });

  it('page() gives one page and its cursor; the next page continues it', async () => {
    const list = crm.leads.list();
    const first = await list.page({ limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list.page({ limit: 3, cursor: first.nextCursor });
    const expected = await raw('/v2/lead', 'leadList');
    expect([...first.items, ...second.items]).toEqual(expected.slice(0, 6));
  });

  it('toArray stops at max, fetching pages no larger than needed', async () => {
    const before = sent.length;
    const got = await crm.deals.list().toArray({ max: 3 });
    expect(got).toHaveLength(3);
    expect(sent.length - before).toBe(1);
    expect(sent.at(-1)).toContain('limit=3');
    await expect(crm.deals.list().toArray({ max: -1 })).rejects.toBeInstanceOf(TypeError);
    // @ts-expect-error: max is required
    await expect(crm.deals.list().toArray({})).rejects.toBeInstanceOf(TypeError);
  });

  it('a last page is reported with nextCursor null', async () => {
    const page = await crm.products.list().page({ limit: 100 });
    expect(page.nextCursor).toBeNull();
  });
});

describe('client: writes', () => {
  it('people create, update; organizations create, update', async () => {
    const org = await crm.organizations.create({ name: '클라이언트테스트 주식회사' });
    expect(org).toEqual({
      id: expect.any(String),
      name: '클라이언트테스트 주식회사',
      createdAt: expect.any(String),
    });
    const person = await crm.people.create({
      name: '홍길동',
      organizationId: org.id,
      fieldList: [{ name: '이메일', stringValue: 'hong@example.com' }],
    });
    const read = await crm.people.get(person.id);
    expect(read['이름']).toBe('홍길동');
    expect(read['이메일']).toBe('hong@example.com');
    expect(read.organizationId).toBe(org.id);
    const updated = await crm.people.update(person.id, { name: '홍길순' });
    expect(updated).toMatchObject({ id: person.id, name: '홍길순', updatedAt: expect.any(String) });
    expect((await crm.people.get(person.id))['이름']).toBe('홍길순');
    await crm.organizations.update(org.id, { name: '클라이언트테스트 유한회사' });
    expect((await crm.organizations.get(org.id))['이름']).toBe('클라이언트테스트 유한회사');
    // A duplicate e-mail: a ValidationError carrying the existing record in its body.
    const dup = await crm.people
      .create({
        name: '또 홍길동',
        fieldList: [{ name: '이메일', stringValue: 'hong@example.com' }],
      })
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ValidationError);
    expect((dup as ValidationError).body).toMatchObject({
      success: false,
      data: { id: person.id },
    });
  });

  it('deals create, update (won closes it), delete; quotes create; deals.quotes shows it', async () => {
    const [pipeline] = await crm.deals.pipelines();
    const person = await crm.people.create({ name: '딜 고객' });
    const deal = await crm.deals.create({
      name: '클라이언트 딜',
      pipelineId: pipeline!.id,
      pipelineStageId: pipeline!.pipelineStageList[0]!.id,
      status: 'In progress',
      peopleId: person.id,
      price: 1000,
    });
    expect((await crm.deals.get(deal.id))['마감일']).toBeNull();
    await crm.deals.update(deal.id, { status: 'Won' });
    expect((await crm.deals.get(deal.id))['마감일']).toEqual(expect.any(String));
    const product = await crm.products.create({ name: '클라이언트 상품', price: 500 });
    const quote = await crm.quotes.create({
      name: '클라이언트 견적',
      dealId: deal.id,
      isMainQuote: true,
      quoteProductList: [{ productId: product.id, price: 500, amount: 2 }],
    });
    const quotes = await crm.deals.quotes(deal.id);
    expect(quotes.map((q) => q.id)).toEqual([quote.id]);
    expect(quotes[0]!['금액']).toBe(1000);
    expect(quotes[0]!['견적 구성 상품'][0]!.productId).toBe(product.id);
    await crm.deals.delete(deal.id);
    await expect(crm.deals.get(deal.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('leads create, update, delete', async () => {
    const person = await crm.people.create({ name: '리드 고객' });
    const lead = await crm.leads.create({ name: '클라이언트 리드', peopleId: person.id });
    expect((await crm.leads.get(lead.id))['상태']).toBe('New');
    await crm.leads.update(lead.id, { name: '클라이언트 리드 2' });
    expect((await crm.leads.get(lead.id))['이름']).toBe('클라이언트 리드 2');
    await crm.leads.delete(lead.id);
    await expect(crm.leads.get(lead.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client: errors from the real server', () => {
  it('401: AuthenticationError with the request id and the shape-A body', async () => {
    const bad = new CrmClient({ baseUrl, token: 'scrm_not-a-token' });
    const error = await bad.people
      .list()
      .page()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(CrmApiError);
    const e = error as AuthenticationError;
    expect(e.status).toBe(401);
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.body).toEqual({ success: false, message: e.message, reason: e.message });
    expect(e.reason).toBe(e.message);
    expect(e.message.length).toBeGreaterThan(0);
  });

  it('404 of the single deal: NotFoundError from the shape-B body', async () => {
    const error = (await crm.deals.get('no-such-deal').catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toEqual({ error: error.message });
    expect(error.message).toContain('no-such-deal');
  });

  it('404 of a lead’s quotes: NotFoundError from the shape-A body', async () => {
    const error = (await crm.leads
      .quotes('no-such-lead')
      .catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toMatchObject({ success: false });
  });

  it('400 (bad cursor, unknown pipeline) and 413 (body over 1 MiB): ValidationError', async () => {
    const cursor = await crm.people
      .list()
      .page({ cursor: 'garbage' })
      .catch((e: unknown) => e);
    expect(cursor).toBeInstanceOf(ValidationError);
    expect((cursor as ValidationError).status).toBe(400);
    const pipeline = await crm.deals
      .list({ pipelineName: '없는 파이프라인' })
      .page()
      .catch((e: unknown) => e);
    expect(pipeline).toBeInstanceOf(ValidationError);
    expect((pipeline as ValidationError).message).toContain('없는 파이프라인');
    const tooBig = await crm.people
      .create({ name: '큰 메모', memo: 'x'.repeat(1024 * 1024 + 10) })
      .catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(ValidationError);
    expect((tooBig as ValidationError).status).toBe(413);
  });

  it('429: RateLimitError with retryAfter, once the limit is spent (no retries asked)', async () => {
    const limited = await testApp(store, { rateLimitMax: 2, rateLimitWindowMs: 60_000 });
    try {
      const url = await listen(limited);
      const client = new CrmClient({ baseUrl: url, token: demo.token, maxRetries: 0 });
      await client.users.me();
      await client.users.me();
      const error = (await client.users.me().catch((e: unknown) => e)) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(error.retryAfter).toBeLessThanOrEqual(60);
      expect(error.message).toBe('요청이 너무 많습니다.');
      // The reason names the wait that Retry-After gives.
      expect(error.reason).toBe(`${error.retryAfter}초 후 재시도해주세요.`);
      // The single deal answers its 429 in shape B.
      const deal = (await client.deals.get('x').catch((e: unknown) => e)) as RateLimitError;
      expect(deal).toBeInstanceOf(RateLimitError);
      expect(deal.body).toEqual({ error: '요청이 너무 많습니다.' });
      expect(deal.retryAfter).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('client: the event feed', () => {
  it('iterates the events waiting now and resumes from its cursor', async () => {
    const before = crm.events.list();
    const seen = [];
    for await (const event of before) seen.push(event.seq);
    const first = await crm.people.create({ name: '피드 고객' });
    await crm.people.update(first.id, { name: '피드 고객 (수정)' });
    const after = crm.events.list({ cursor: before.cursor, limit: 1 });
    const events = [];
    for await (const event of after) events.push(event);
    expect(events.map((e) => [e.event, e.objectId])).toEqual([
      ['생성', first.id],
      ['수정', first.id],
    ]);
    const last = events[1]!;
    if (last.event !== '수정') throw new Error('expected 수정');
    expect([last.fieldName, last.beforeField, last.afterField]).toEqual([
      '이름',
      '피드 고객',
      '피드 고객 (수정)',
    ]);
    expect(events[0]!.seq).toBe((seen.at(-1) ?? 0) + 1);
    // Nothing new: the walk ends at once, and its cursor stays where to poll from.
    const idle = crm.events.list({ cursor: after.cursor });
    for await (const _ of idle) throw new Error('no event expected');
    expect(idle.cursor).toBe(after.cursor);
  });

  it('raises GoneError for a cursor past the retention', async () => {
    const feed = crm.events.list();
    for await (const _ of feed);
    await crm.people.create({ name: '사라질 고객' });
    await crm.people.create({ name: '남을 고객' });
    await store.db.deleteFrom('events').where('workspace_id', '=', demo.workspaceId).execute();
    await expect(crm.events.list({ cursor: feed.cursor }).page()).rejects.toBeInstanceOf(GoneError);
  });
});

describe('client: fields, products, pipelines, note types and /v2/me', () => {
  it('creates and renames a field, and raises ConflictError for a taken name', async () => {
    const field = await crm.fields.create('organization', {
      name: '클라이언트 필드',
      type: 'multiSelect',
      options: [{ value: 'A' }, { value: 'B' }],
    });
    expect(field).toMatchObject({ name: '클라이언트 필드', type: 'multiSelect' });
    const renamed = await crm.fields.update('organization', field.id, {
      name: '클라이언트 필드 2',
      options: [{ value: 'C' }],
    });
    expect(renamed.options.map((o) => o.value)).toEqual(['A', 'B', 'C']);
    const [org] = (await crm.organizations.list({ limit: 1 }).page()).items;
    expect(org).toHaveProperty('클라이언트 필드 2', null);
    const taken = crm.fields.create('organization', { name: '클라이언트 필드 2', type: 'string' });
    await expect(taken).rejects.toBeInstanceOf(ConflictError);
    await expect(taken).rejects.toMatchObject({ status: 409 });
  });

  it('updates and deletes a product; a product on a quote is a ConflictError', async () => {
    const { id } = await crm.products.create({ name: '클라이언트 상품', price: 10 });
    const updated = await crm.products.update(id, { name: '클라이언트 상품 2', price: 20 });
    expect(updated).toMatchObject({ id, name: '클라이언트 상품 2' });
    await crm.products.delete(id);
    await expect(crm.products.delete(id)).rejects.toBeInstanceOf(NotFoundError);
    const quoted = (await rawData('/v2/deal?limit=100')).dealList.find(
      (d: Record<string, unknown>) => Array.isArray(d['메인 견적 상품 리스트']),
    )['메인 견적 상품 리스트'][0].id;
    await expect(crm.products.delete(quoted)).rejects.toBeInstanceOf(ConflictError);
  });

  it('reads every pipeline, the note types and the token user at /v2/me', async () => {
    const all = await crm.pipelines.list();
    const dealsAndLeads = [...(await crm.deals.pipelines()), ...(await crm.leads.pipelines())];
    // Besides the deal and lead pipelines, the demo's custom object 티켓 has one.
    expect(
      all
        .map((p) => p._id)
        .filter((id) => dealsAndLeads.some((p) => p.id === id))
        .sort(),
    ).toEqual(dealsAndLeads.map((p) => p.id).sort());
    expect(
      all.filter((p) => !dealsAndLeads.some((d) => d.id === p._id)).map((p) => p.name),
    ).toEqual(['티켓 처리']);
    expect((await crm.memos.types()).map((t) => t.value)).toEqual([
      '일반',
      '통화',
      '미팅',
      '이메일',
    ]);
    expect(await crm.users.meShort()).toEqual(await crm.users.me());
  });
});

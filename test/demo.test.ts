import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES } from '../src/domain/activities.ts';
import { hashToken } from '../src/domain/tokens.ts';
import { createDemoWorkspace, type DemoResult } from '../src/ingest/demo/create-workspace.ts';
import { buildApp } from '../src/server/app.ts';
import { openStore, type Store } from '../src/store/database.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests inspect rendered JSON
type Json = any;

const dirs: string[] = [];

async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'scrm-'));
  dirs.push(dir);
  const store = openStore(`sqlite:${join(dir, 'db.sqlite')}`);
  await store.migrate();
  return store;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const RENDERED = [
  'people',
  'organizations',
  'deals',
  'leads',
  'products',
  'quotes',
  'custom_objects',
] as const;
const WITH_BODY = [...RENDERED, 'activities', 'history'] as const;

/** Every stored body of a workspace, by table and id, as text. */
async function bodies(store: Store, workspaceId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const table of WITH_BODY) {
    const rows = await store.db
      .selectFrom(table as 'people')
      .select(['id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute();
    for (const r of rows) {
      out.set(`${table}/${r.id}`, r.body === null ? 'NULL' : Buffer.from(r.body).toString());
    }
  }
  return out;
}

/** The rendered records of one table. */
async function records(store: Store, workspaceId: string, table: string): Promise<Json[]> {
  const rows = await store.db
    .selectFrom(table as 'people')
    .select('body')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(Buffer.from(r.body!).toString()));
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('createDemoWorkspace: determinism', () => {
  it('builds byte-identical records, ids included, from the same seed and size', async () => {
    const a = await freshStore();
    const b = await freshStore();
    const first = await createDemoWorkspace(a, { seed: 42, people: 300 });
    const second = await createDemoWorkspace(b, { seed: 42, people: 300 });
    expect(second.counts).toEqual(first.counts);
    const left = await bodies(a, first.workspaceId);
    const right = await bodies(b, second.workspaceId);
    expect(left.size).toBeGreaterThan(1000);
    expect([...right.keys()]).toEqual([...left.keys()]);
    for (const [key, body] of left) {
      expect(body, key).not.toBe('NULL');
      if (right.get(key) !== body) expect(right.get(key), key).toBe(body);
    }
    // Another seed is another workspace.
    const other = await createDemoWorkspace(b, { seed: 43, people: 300 });
    const third = await bodies(b, other.workspaceId);
    expect([...third.keys()].filter((k) => left.has(k)).length).toBeLessThan(10);
    await a.close();
    await b.close();
  });

  it('works at tiny sizes and takes a name', async () => {
    const store = await freshStore();
    for (const people of [0, 1, 7]) {
      const demo = await createDemoWorkspace(store, { seed: 3, people, name: '작은 데모' });
      expect(demo.counts.people).toBe(people);
      const ws = await store.db
        .selectFrom('workspaces')
        .select('name')
        .where('id', '=', demo.workspaceId)
        .executeTakeFirstOrThrow();
      expect(ws.name).toBe('작은 데모');
    }
    await expect(createDemoWorkspace(store, { people: -1 })).rejects.toThrow(RangeError);
    await store.close();
  });
});

describe('createDemoWorkspace: in chunks', () => {
  it('gives the same data for any chunk at sizes up to one chunk', async () => {
    const a = await freshStore();
    const b = await freshStore();
    const whole = await createDemoWorkspace(a, { seed: 5, people: 120 });
    const chunked = await createDemoWorkspace(b, { seed: 5, people: 120, chunkPeople: 120 });
    expect(chunked.counts).toEqual(whole.counts);
    expect([...(await bodies(b, chunked.workspaceId)).entries()]).toEqual([
      ...(await bodies(a, whole.workspaceId)).entries(),
    ]);
    await a.close();
    await b.close();
  });

  it('builds several chunks into one consistent, deterministic workspace', async () => {
    const a = await freshStore();
    const b = await freshStore();
    const indexes = async () =>
      (
        await sql<{ name: string; sql: string }>`
          select name, sql from sqlite_master where type = 'index' order by name`.execute(a.db)
      ).rows;
    const indexesBefore = await indexes();
    expect(indexesBefore.length).toBeGreaterThan(30);
    const stages: string[] = [];
    const first = await createDemoWorkspace(a, {
      seed: 9,
      people: 250,
      chunkPeople: 60,
      onProgress: (stage, done, total) => {
        if (stage === 'generate') stages.push(`${done}/${total}`);
      },
    });
    expect(stages).toEqual(['0/5', '1/5', '2/5', '3/5', '4/5', '5/5']);
    // The build of a fresh database drops its secondary indexes and makes them again.
    expect(await indexes()).toEqual(indexesBefore);
    const second = await createDemoWorkspace(b, { seed: 9, people: 250, chunkPeople: 60 });
    const left = await bodies(a, first.workspaceId);
    const right = await bodies(b, second.workspaceId);
    expect([...right.entries()]).toEqual([...left.entries()]);
    // Proportions as in one pass, rounded per chunk (4 × 15 + 3 organizations); the
    // structure (users, products, ...) written once.
    const c = first.counts;
    expect([c.people, c.organizations, c.deals, c.leads]).toEqual([250, 63, 125, 83]);
    expect(c.products).toBe(30);
    expect(c.users).toBeLessThanOrEqual(10);
    const ws = first.workspaceId;
    const count = async (table: 'users' | 'products' | 'web_forms' | 'sequences' | 'people') =>
      Number(
        (
          await a.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', ws)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('users')).toBe(c.users);
    expect(await count('products')).toBe(30);
    expect(await count('web_forms')).toBe(c.webForms);
    expect(await count('sequences')).toBe(c.sequences);
    expect(await count('people')).toBe(250);
    // Unique e-mails, phones and organization names across chunks; every record rendered.
    const people = await records(a, ws, 'people');
    const emails = people.map((p) => p['이메일']).filter(Boolean);
    expect(new Set(emails).size).toBe(emails.length);
    const phones = people.map((p) => p['전화']).filter(Boolean);
    expect(new Set(phones).size).toBe(phones.length);
    const orgs = await records(a, ws, 'organizations');
    expect(new Set(orgs.map((o) => o['이름'])).size).toBe(orgs.length);
    for (const body of left.values()) expect(body).not.toBe('NULL');
    // Deals and leads name people of the workspace.
    const ids = new Set(people.map((p) => p.id));
    const deals = await records(a, ws, 'deals');
    expect(deals.length).toBe(125);
    expect(deals.every((d) => ids.has(d.peopleId))).toBe(true);
    await a.close();
    await b.close();
  });
});

describe('createDemoWorkspace: a default demo', () => {
  let store: Store;
  let demo: DemoResult;
  let ws: string;
  const progress: string[] = [];

  beforeAll(async () => {
    store = await freshStore();
    demo = await createDemoWorkspace(store, {
      onProgress: (stage, done, total) => {
        if (done === total) progress.push(stage);
      },
    });
    ws = demo.workspaceId;
  });
  afterAll(async () => {
    await store.close();
  });

  const rows = <T extends string>(table: T) =>
    store.db
      .selectFrom(table as 'people')
      .selectAll()
      .where('workspace_id', '=', ws)
      .execute() as Promise<Json[]>;

  it('reports its progress and counts, with 200 people by default', async () => {
    expect(progress).toContain('generate');
    expect(progress).toContain('people');
    expect(progress.at(-1)).toBe('render');
    expect(demo.counts.people).toBe(200);
    expect(demo.counts.organizations).toBe(50);
    expect(demo.counts.deals).toBe(100);
    expect(demo.counts.leads).toBe(67);
    for (const [table, key] of [
      ['people', 'people'],
      ['organizations', 'organizations'],
      ['deals', 'deals'],
      ['leads', 'leads'],
      ['quotes', 'quotes'],
      ['notes', 'notes'],
      ['todos', 'todos'],
      ['activities', 'activities'],
    ] as const) {
      expect((await rows(table)).length, table).toBe(demo.counts[key]);
    }
    const history = await rows('history');
    expect(history.length).toBe(demo.counts.peopleHistory! + demo.counts.recordHistory!);
  });

  it('has users in teams, and the token is the admin’s and works', async () => {
    const users = await rows('users');
    expect(users.length).toBeGreaterThanOrEqual(5);
    expect(users.length).toBeLessThanOrEqual(12);
    const teams = await rows('teams');
    expect(teams.length).toBeGreaterThanOrEqual(2);
    expect(teams.length).toBeLessThanOrEqual(3);
    const token = await store.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(demo.token))
      .executeTakeFirstOrThrow();
    expect(token.id).toBe(demo.tokenId);
    expect(token.workspace_id).toBe(ws);
    const admin = users.find((u) => u.id === token.user_id);
    expect(admin.role).toBe('admin');

    const app = await buildApp({
      store,
      config: {
        basePath: '',
        rateLimitMax: 0,
        rateLimitWindowMs: 10_000,
        pageCacheBytes: 1024 * 1024,
        logLevel: 'silent',
        logRequests: false,
        webhookAllowPrivate: false,
      },
    });
    const get = async (url: string) => {
      const res = await app.inject({ url, headers: { authorization: `Bearer ${demo.token}` } });
      return { status: res.statusCode, json: JSON.parse(res.body) };
    };
    const people = await get('/v2/people?limit=5');
    expect(people.status).toBe(200);
    expect(people.json.data.peopleList).toHaveLength(5);
    const deals = await get(`/v2/deal?pipelineName=${encodeURIComponent('신규 영업')}`);
    expect(deals.status).toBe(200);
    expect(deals.json.data.dealList.length).toBeGreaterThan(0);
    const quoted = (await rows('quotes')).find((q) => q.lead_id);
    const quotes = await get(`/v2/lead/${quoted.lead_id}/quote`);
    expect(quotes.status).toBe(200);
    expect(quotes.json.data.quoteList.length).toBeGreaterThan(0);

    // The record-level reads: every one has data, filtered by a record or not.
    const dealQuoted = (await rows('quotes')).find((q) => q.deal_id);
    const dealQuotes = await get(`/v2/deal/${dealQuoted.deal_id}/quote`);
    expect(dealQuotes.json.data.quoteList.length).toBeGreaterThan(0);
    const firstOf = async (path: string, key: string) => {
      const res = await get(`${path}?limit=1`);
      expect(res.status, path).toBe(200);
      expect(res.json.data[key], path).toHaveLength(1);
      return res.json.data[key][0];
    };
    for (const [path, key] of [
      ['/v2/people', 'people'],
      ['/v2/organization', 'organization'],
      ['/v2/lead', 'lead'],
    ] as const) {
      const record = await firstOf(path, `${key}List`);
      const one = await get(`${path}/${record.id}`);
      expect(one.json.data[key], path).toEqual([record]);
    }
    for (const [path, key, idKey] of [
      ['/v2/people/activity', 'peopleActivityList', 'peopleId'],
      ['/v2/organization/activity', 'organizationActivityList', 'organizationId'],
      ['/v2/lead/activity', 'leadActivityList', 'leadId'],
      ['/v2/deal/activity', 'dealActivityList', 'dealId'],
      ['/v2/deal/history', 'dealHistoryList', 'dealId'],
      ['/v2/lead/history', 'leadHistoryList', 'leadId'],
      ['/v2/organization/history', 'organizationHistoryList', 'organizationId'],
      ['/v2/people/history', 'peopleHistoryList', 'peopleId'],
    ] as const) {
      const first = await firstOf(path, key);
      const ofRecord = await get(`${path}?${idKey}=${first[idKey]}`);
      expect(ofRecord.json.data[key].length, path).toBeGreaterThan(0);
    }
    // Activities of people and organizations come in several types.
    for (const path of ['/v2/people/activity', '/v2/organization/activity']) {
      for (const type of ['create', 'email', 'emailOpen', 'smsSend', 'kakaoAlimtalkSend']) {
        const res = await get(`${path}?types=${type}&limit=1`);
        expect(Object.values(res.json.data)[0], `${path} ${type}`).toHaveLength(1);
      }
    }
    await app.close();
  });

  it('answers every workspace-level read with data through the API', async () => {
    const app = await buildApp({
      store,
      config: {
        basePath: '',
        rateLimitMax: 0,
        rateLimitWindowMs: 10_000,
        pageCacheBytes: 0,
        logLevel: 'silent',
        logRequests: false,
        webhookAllowPrivate: false,
      },
    });
    const data = async (url: string) => {
      const res = await app.inject({ url, headers: { authorization: `Bearer ${demo.token}` } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      return JSON.parse(res.body).data;
    };
    const lists: [url: string, key: string][] = [
      ['/v2/deal/pipeline', 'pipelineList'],
      ['/v2/lead/pipeline', 'pipelineList'],
      ['/v2/user', 'userList'],
      ['/v2/team', 'teamList'],
      ['/v2/todo', 'todoList'],
      ['/v2/memo', 'memoList'],
      ['/v2/webForm', 'webFormList'],
      ...[
        'people',
        'organization',
        'deal',
        'lead',
        'product',
        'quote',
        'quote-product',
        'todo',
      ].map((type): [string, string] => [`/v2/field/${type}`, 'fieldList']),
    ];
    for (const [url, key] of lists) expect((await data(url))[key].length, url).toBeGreaterThan(0);
    const me = (await data('/v2/user/me')).user;
    expect(me.room.id).toBe(ws);
    const todos = (await data('/v2/todo?limit=100')).todoList;
    expect(todos.some((t: Json) => t['우선순위'] !== null)).toBe(true);
    expect(todos.some((t: Json) => t['팀'].length > 0)).toBe(true);
    const memos = (await data(`/v2/memo?ownerId=${me.id}`)).memoList;
    expect(memos.length).toBeGreaterThan(0);
    const form = (await data('/v2/webForm')).webFormList.find((f: Json) => f.submitCount > 0);
    const submissions = (await data(`/v2/webForm/${form.id}/submit`)).webFormSubmitList;
    expect(submissions.length).toBe(Math.min(50, form.submitCount));
    expect((await data(`/v2/memo/${memos[0].id}`)).memo.id).toBe(memos[0].id);
    const todoFields = (await data('/v2/field/todo')).fieldList.map((f: Json) => f.name);
    expect(todoFields).toEqual(expect.arrayContaining(['우선순위', '예상 소요 시간(분)']));
    await app.close();
  });

  it('has deal pipelines with stages and a lead pipeline', async () => {
    const pipelines = await rows('pipelines');
    const stages = await rows('pipeline_stages');
    const stagesOf = (name: string) => {
      const p = pipelines.find((x) => x.name === name);
      return stages
        .filter((s) => s.pipeline_id === p.id)
        .sort((a, b) => a.position - b.position)
        .map((s) => s.name);
    };
    expect(stagesOf('신규 영업')).toEqual(['리드 확보', '미팅', '제안', '협상', '계약']);
    expect(stagesOf('재계약').length).toBeGreaterThan(2);
    expect(pipelines.filter((p) => p.kind === 'deal').length).toBeGreaterThanOrEqual(2);
    expect(pipelines.filter((p) => p.kind === 'lead').length).toBeGreaterThanOrEqual(1);
  });

  it('looks Korean and real: names, phones, e-mails, titles, companies', async () => {
    const people = await records(store, ws, 'people');
    for (const p of people) {
      expect(p['이름']).toMatch(/^[가-힣]{2,4}$/);
      if (p['전화'] !== null) expect(p['전화']).toMatch(/^010-\d{4}-\d{4}$/);
      if (p['이메일'] !== null) expect(p['이메일']).toMatch(/^[a-z0-9.]+@[a-z0-9.]+\.[a-z]+$/);
    }
    expect(people.filter((p) => p['이메일'] !== null).length).toBeGreaterThan(people.length * 0.8);
    expect(people.filter((p) => p['전화'] !== null).length).toBeGreaterThan(people.length * 0.8);
    expect(new Set(people.map((p) => p['이메일']).filter(Boolean)).size).toBe(
      people.filter((p) => p['이메일']).length,
    );
    const titles = people.map((p) => p['포지션']).join(' ');
    for (const title of ['팀장', '과장', '대리']) expect(titles).toContain(title);
    const orgs = await records(store, ws, 'organizations');
    expect(orgs.map((o) => o['이름'])).toContain('(주)한빛소프트');
    expect(orgs.map((o) => o['이름'])).toContain('그린에너지솔루션');
    const everything = JSON.stringify([...(await bodies(store, ws)).values()]);
    expect(everything).not.toMatch(/\b(test\d*|foo|bar|lorem|placeholder)\b/i);
    expect(everything).not.toMatch(/홍길동|김철수|이영희/);
  });

  it('has deals of every outcome, with labels, followers, participants and sane times', async () => {
    const deals = await rows('deals');
    expect(new Set(deals.map((d) => d.outcome))).toEqual(new Set(['In progress', 'Won', 'Lost']));
    const labels = new Set(deals.map((d) => d.label));
    expect(labels).toContain('SQL');
    expect(labels).toContain('Convert');
    expect(deals.some((d) => JSON.parse(d.follower_ids).length > 0)).toBe(true);
    expect(deals.some((d) => JSON.parse(d.participant_ids).length > 0)).toBe(true);
    for (const d of deals) {
      expect(d.stage_entered_at >= d.created_at).toBe(true);
      expect(d.updated_at >= d.created_at).toBe(true);
      if (d.outcome === 'In progress') expect(d.closed_at).toBeNull();
      else expect(d.closed_at > d.created_at).toBe(true);
    }
    const single = await store.db
      .selectFrom('deals')
      .select('id')
      .where('workspace_id', '=', ws)
      .where('follower_ids', '!=', '[]')
      .executeTakeFirstOrThrow();
    expect(single.id).toBeTruthy();
  });

  it('has leads with every label', async () => {
    const leads = await records(store, ws, 'leads');
    expect(new Set(leads.map((l) => l['상태']))).toEqual(
      new Set(['New', 'Nurturing', 'MQL', 'Working', 'Archive']),
    );
    expect(leads.some((l) => l['파이프라인'] === null)).toBe(true);
    expect(leads.some((l) => l['파이프라인'] !== null)).toBe(true);
  });

  it('has products of all three kinds and quotes with one main quote at most per record', async () => {
    const products = await records(store, ws, 'products');
    expect(products.length).toBeGreaterThanOrEqual(20);
    expect(products.length).toBeLessThanOrEqual(40);
    expect(new Set(products.map((p) => p['유형']))).toEqual(
      new Set(['일반', '구독 (월간)', '구독 (연간)']),
    );
    expect(products.map((p) => p['이름'])).toContain('CRM 스탠다드 (월간)');

    const quotes = await rows('quotes');
    expect(quotes.some((q) => q.deal_id)).toBe(true);
    expect(quotes.some((q) => q.lead_id)).toBe(true);
    for (const column of ['deal_id', 'lead_id']) {
      const mains = quotes.filter((q) => q[column] && q.is_main === 1).map((q) => q[column]);
      expect(mains.length).toBeGreaterThan(0);
      expect(new Set(mains).size).toBe(mains.length);
      expect(quotes.some((q) => q[column] && q.is_main === 0)).toBe(true);
    }
    const lines = await rows('quote_products');
    const monthly = new Set(products.filter((p) => p['유형'] === '구독 (월간)').map((p) => p.id));
    const subscriptionLines = lines.filter((l) => monthly.has(l.product_id));
    expect(subscriptionLines.length).toBeGreaterThan(0);
    for (const l of subscriptionLines) {
      expect(l.payment_count).toBe(12);
      expect(l.payment_start_at).toMatch(TIMESTAMP);
    }

    // A deal's amount and main products are its main quote's.
    const rendered = new Map((await records(store, ws, 'quotes')).map((q) => [q.id, q]));
    const deals = new Map((await records(store, ws, 'deals')).map((d) => [d.id, d]));
    for (const q of quotes.filter((x) => x.deal_id && x.is_main === 1)) {
      const deal = deals.get(q.deal_id);
      const quote = rendered.get(q.id);
      expect(deal['금액']).toBe(quote['금액']);
      expect(deal['메인 견적 상품 리스트'].map((p: Json) => p.id)).toEqual(
        quote['견적 구성 상품'].map((l: Json) => l.productId),
      );
    }
  });

  it('has notes on every record type and todos open and done', async () => {
    const notes = await rows('notes');
    expect(new Set(notes.map((n) => n.subject_type))).toEqual(
      new Set(['people', 'organization', 'deal', 'lead', 'product', 'quote']),
    );
    expect(notes.every((n) => /[가-힣]/.test(n.text) && !n.text.includes('{'))).toBe(true);
    const todos = await rows('todos');
    expect(new Set(todos.map((t) => t.subject_type))).toEqual(
      new Set(['people', 'organization', 'deal', 'lead']),
    );
    expect(todos.some((t) => t.done === 1 && t.done_at !== null)).toBe(true);
    expect(todos.some((t) => t.done === 0)).toBe(true);
    expect(todos.every((t) => TIMESTAMP.test(t.due_at))).toBe(true);
    const people = await records(store, ws, 'people');
    expect(people.some((p) => p['다음 TODO'] !== null)).toBe(true);
    expect(people.some((p) => p['최근 작성된 노트'] !== null)).toBe(true);
    // Notes on todos, on the todo's record too; replies, as HTML, to a note of the same record.
    const todoById = new Map(todos.map((t) => [t.id, t]));
    const onTodos = notes.filter((n) => n.todo_id !== null);
    expect(onTodos.length).toBeGreaterThan(0);
    for (const n of onTodos) {
      const todo = todoById.get(n.todo_id)!;
      expect([n.subject_type, n.subject_id]).toEqual([todo.subject_type, todo.subject_id]);
    }
    const noteById = new Map(notes.map((n) => [n.id, n]));
    const replies = notes.filter((n) => n.parent_id !== null);
    expect(replies.length).toBeGreaterThan(0);
    for (const n of replies) {
      const parent = noteById.get(n.parent_id)!;
      expect([n.subject_type, n.subject_id]).toEqual([parent.subject_type, parent.subject_id]);
      expect(n.created_at >= parent.created_at).toBe(true);
      expect(n.html_body).toBe(`<p>${n.text}</p>`);
    }
  });

  it('has custom objects 계약서 and 티켓, their records linked to deals', async () => {
    const definitions = await rows('custom_object_definitions');
    expect(definitions.map((d) => d.name).sort()).toEqual(['계약서', '티켓']);
    const ticket = definitions.find((d) => d.name === '티켓')!;
    expect(ticket.pipeline_id).toBeTruthy();
    const dealIds = new Set((await rows('deals')).map((d) => d.id));
    const all = await records(store, ws, 'custom_objects');
    for (const d of definitions) {
      const own = all.filter((r) => r.customObjectDefinitionId === d.id);
      expect(own.length, String(d.name)).toBeGreaterThan(3);
      expect(own.map((r) => r.RecordId).sort((a, b) => Number(a) - Number(b))).toEqual(
        own.map((_, i) => i + 1),
      );
      for (const r of own) {
        expect(dealIds.has((r.딜 as Json).id as string)).toBe(true);
        expect((r.딜 as Json).name).toBeTruthy();
        expect(r.담당자).not.toBeNull();
        if (d.name === '티켓') expect((r.파이프라인 as Json).id).toBe(ticket.pipeline_id);
      }
    }
    const activities = await rows('activities');
    expect(activities.some((a) => a.subject_type === 'customObject' && a.type === 'create')).toBe(
      true,
    );
  });

  it('has web forms with submissions, and sequences with enrollments', async () => {
    const forms = await rows('web_forms');
    expect(forms.length).toBeGreaterThanOrEqual(3);
    expect(forms.length).toBeLessThanOrEqual(6);
    const submissions = await rows('web_form_submissions');
    for (const column of ['people_id', 'organization_id', 'deal_id', 'lead_id']) {
      expect(
        submissions.some((s) => s[column]),
        column,
      ).toBe(true);
    }
    const sequences = await rows('sequences');
    expect(sequences.length).toBeGreaterThanOrEqual(3);
    expect(sequences.length).toBeLessThanOrEqual(5);
    const enrollments = await rows('sequence_enrollments');
    expect(new Set(enrollments.map((e) => e.subject_type))).toEqual(
      new Set(['people', 'deal', 'lead']),
    );
    expect(enrollments.some((e) => e.active === 0)).toBe(true);
    expect(enrollments.some((e) => e.active === 1)).toBe(true);
    expect(sequences.every((s) => typeof s.description === 'string')).toBe(true);
    // Every sequence has steps 0..n-1, starting with an e-mail sent at once.
    const steps = await rows('sequence_steps');
    for (const s of sequences) {
      const own = steps
        .filter((t) => t.sequence_id === s.id)
        .sort((a, b) => a.position - b.position);
      expect(own.map((t) => t.position)).toEqual(own.map((_, i) => i));
      expect(own.length).toBeGreaterThanOrEqual(3);
      expect(own[0]).toMatchObject({ type: 'sendEmail', execute_immediately: 1 });
    }
    // Timelines: e-mails sent, opened, clicked (with their link); each of a known enrollment,
    // never after the demo's "now"; some enrollments have none yet.
    const timeline = await rows('sequence_timeline');
    const enrollmentIds = new Set(enrollments.map((e) => e.id));
    expect(timeline.every((t) => enrollmentIds.has(t.enrollment_id))).toBe(true);
    expect(new Set(timeline.map((t) => t.event_type))).toEqual(
      new Set(['sendEmail', 'emailOpen', 'emailLinkClick', 'emailReply']),
    );
    expect(timeline.filter((t) => t.event_type === 'emailLinkClick').every((t) => t.link_url)).toBe(
      true,
    );
    const withTimeline = new Set(timeline.map((t) => t.enrollment_id));
    expect(withTimeline.size).toBeLessThan(enrollments.length);
    const orgs = await records(store, ws, 'organizations');
    expect(orgs.some((o) => o['등록된 시퀀스 목록'].length > 0)).toBe(true);
    expect(orgs.some((o) => o['제출된 웹폼 목록'].length > 0)).toBe(true);
  });

  it('has activities of every type it writes on deals and on leads, linked to what they name', async () => {
    // Deal and lead activities: the ones in the deal shape.
    const activities = (await records(store, ws, 'activities')).filter((a) => 'dealId' in a);
    const deals = new Map((await rows('deals')).map((d) => [d.id, d]));
    const leadIds = new Set((await rows('leads')).map((l) => l.id));
    const noteIds = new Set((await rows('notes')).map((n) => n.id));
    const todoIds = new Set((await rows('todos')).map((t) => t.id));
    const formIds = new Set((await rows('web_forms')).map((f) => f.id));
    const onDeals = activities.filter((a) => deals.has(a.dealId));
    const onLeads = activities.filter((a) => leadIds.has(a.dealId));
    expect(onDeals.length + onLeads.length).toBe(activities.length);
    // The types of the live API the service never writes itself (views, link clicks, e-sign,
    // and merges, which only a merge writes) are not in the demo.
    const written = ACTIVITY_TYPES.filter(
      (t) =>
        ![
          'webFormView',
          'emailLinkClick',
          'documentView',
          'merge',
          'modusignContractCreated',
        ].includes(t),
    );
    expect(new Set(onDeals.map((a) => a.type))).toEqual(new Set(written));
    expect(new Set(onLeads.map((a) => a.type))).toEqual(new Set(written));
    for (const a of onDeals) {
      const deal = deals.get(a.dealId);
      // The deal's outcome when it happened (docs/decisions.md, Activities and history).
      const closed = deal.closed_at !== null && a.date >= deal.closed_at;
      expect(a.dealStatus).toBe(closed ? deal.outcome : 'In progress');
      expect(a.date >= deal.created_at).toBe(true);
    }
    expect(onLeads.every((a) => a.dealStatus === null)).toBe(true);
    for (const a of activities) {
      if (a.type === 'memoCreate') expect(noteIds.has(a.memoId)).toBe(true);
      if (a.type === 'todoCreate') expect(todoIds.has(a.todoId)).toBe(true);
      if (a.type === 'webFormSubmit') expect(formIds.has(a.webFormId)).toBe(true);
      if (a.type === 'email' || a.type === 'emailOpen') expect(a.emailMessageId).toBeTruthy();
    }
    const rendered = await records(store, ws, 'deals');
    expect(rendered.some((d) => d['최근 이메일 오픈일'] !== null)).toBe(true);
  });

  it('has people history: field edits and organization connections', async () => {
    const history = (await records(store, ws, 'history')).filter((h) => 'peopleId' in h);
    const fields = new Set(history.filter((h) => h.type === 'editField').map((h) => h.fieldName));
    expect(fields).toContain('포지션');
    expect(fields).toContain('전화');
    const connects = history.filter((h) => h.type === 'editOrganizationConnect');
    expect(connects.length).toBeGreaterThan(0);
    for (const h of connects) {
      expect(h.fieldName).toBe('organizationId');
      expect(h.organization).toEqual({ id: h.fieldValue, name: expect.any(String) });
      expect(h.organization.name.length).toBeGreaterThan(0);
    }
    // `수정 날짜` is at or after the person's last change.
    const people = new Map((await records(store, ws, 'people')).map((p) => [p.id, p]));
    for (const h of history) expect(people.get(h.peopleId)['수정 날짜'] >= h.createdAt).toBe(true);
  });

  it('has custom fields of several types on every record type, set on most records', async () => {
    const fields = await rows('custom_fields');
    const types = (recordType: string) =>
      new Set(fields.filter((f) => f.record_type === recordType).map((f) => f.type));
    for (const recordType of [
      'people',
      'organization',
      'deal',
      'lead',
      'product',
      'quote',
      'quoteProduct',
      'todo',
    ]) {
      expect(types(recordType).size, recordType).toBeGreaterThanOrEqual(2);
    }
    const people = await records(store, ws, 'people');
    const share = (list: Json[], key: string) =>
      list.filter((r) => r[key] !== null).length / list.length;
    expect(share(people, '고객 등급')).toBeGreaterThan(0.6);
    expect(people.find((p) => p['관심 제품'] !== null)['관심 제품']).toEqual(
      expect.arrayContaining([expect.any(String)]),
    );
    expect(people.find((p) => p['생일'] !== null)['생일']).toMatch(TIMESTAMP);
    const deals = await records(store, ws, 'deals');
    expect(share(deals, '계약 유형')).toBeGreaterThan(0.6);
    const referrer = deals.find((d) => d['추천인'] !== null)['추천인'];
    expect(referrer.name).toMatch(/^[가-힣]{2,4}$/);
    const orgs = await records(store, ws, 'organizations');
    expect(share(orgs, '업종')).toBeGreaterThan(0.6);
    expect(typeof orgs.find((o) => o['직원 수'] !== null)['직원 수']).toBe('number');
    const leads = await records(store, ws, 'leads');
    expect(share(leads, '유입 경로')).toBeGreaterThan(0.6);
    const products = await records(store, ws, 'products');
    expect(share(products, '카테고리')).toBe(1);
    const quotes = await records(store, ws, 'quotes');
    expect(share(quotes, '유효 기간(일)')).toBeGreaterThan(0.6);
    const lines = quotes.flatMap((q) => q['견적 구성 상품']);
    expect(share(lines, '할인율')).toBeGreaterThan(0.4);
  });

  it('spreads times over about two years before a fixed date, in the wire form', async () => {
    const all = [...(await records(store, ws, 'people')), ...(await records(store, ws, 'deals'))];
    const created = all.map((r) => r['생성 날짜'] as string).sort();
    expect(created.every((t) => TIMESTAMP.test(t))).toBe(true);
    const spanDays = (Date.parse(created.at(-1)!) - Date.parse(created[0]!)) / 86_400_000;
    expect(spanDays).toBeGreaterThan(500);
    expect(spanDays).toBeLessThan(800);
    expect(Date.parse(created.at(-1)!)).toBeLessThan(Date.now());
  });
});

describe('createDemoWorkspace: size', () => {
  it('builds a 2,000-people demo', async () => {
    const store = await freshStore();
    const demo = await createDemoWorkspace(store, { seed: 7, people: 2000 });
    expect(demo.counts.people).toBe(2000);
    expect(demo.counts.organizations).toBe(500);
    expect(demo.counts.deals).toBe(1000);
    expect(demo.counts.leads).toBe(667);
    const unrendered = await store.db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', demo.workspaceId)
      .where('body', 'is', null)
      .executeTakeFirstOrThrow();
    // How fast it builds is the bench's to say (`npm run bench`), not a test's.
    expect(Number(unrendered.n)).toBe(0);
    await store.close();
  }, 120_000);
});

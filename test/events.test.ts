/**
 * Events in the write's transaction and the event feed (docs/decisions.md, Events and webhooks):
 * what each write fires, by whom, with which values, numbered in commit order, read through
 * `GET /v2/event`.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { pruneEvents } from '../src/store/outbox/prune.ts';
import { makeCustomField, makePipeline, type TestPipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let pipeline: TestPipeline;
appWithWorkspace((made) => ({ store, app, ws } = made));
beforeEach(async () => {
  pipeline = await ws.write((w) => makePipeline(w));
});

async function write(url: string, body: unknown, status = 200): Promise<Rec> {
  const res = await post(app, ws.token, url, body);
  expect(res.status, res.text).toBe(status);
  return res.json.data;
}

async function created(url: string, body: unknown, key: string): Promise<string> {
  return ((await write(url, body, 201))[key] as Rec).id as string;
}

/** Every event of the workspace through the feed, following the cursor. */
async function feed(query = '', token = ws.token): Promise<Rec[]> {
  const events: Rec[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1_000; pages++) {
    const sep = query ? '&' : '';
    const url = `/v2/event?${query}${sep}limit=7${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await get(app, token, url);
    expect(res.status, res.text).toBe(200);
    events.push(...res.json.data.eventList);
    expect(typeof res.json.data.nextCursor).toBe('string');
    cursor = res.json.data.nextCursor;
    if (!res.json.data.hasMore) return events;
  }
  throw new Error('the feed did not end');
}

/** The events after the ones already seen. */
async function eventsSince(seen: number): Promise<Rec[]> {
  return (await feed()).slice(seen);
}

describe('events of writes', () => {
  it('a create fires 생성 by the API with the live API keys in order', async () => {
    const id = await created('/v2/people', { name: '홍길동' }, 'people');
    const events = await feed();
    expect(events).toHaveLength(1);
    const [e] = events as [Rec];
    expect(Object.keys(e)).toEqual([
      'seq',
      'event',
      'occurredAt',
      'source',
      'sourceId',
      'objectType',
      'objectId',
      'eventId',
    ]);
    expect(e).toMatchObject({
      seq: 1,
      event: '생성',
      source: 'API',
      sourceId: ws.userId,
      objectType: '고객',
      objectId: id,
    });
    expect(e.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('an update fires 수정 once per changed key, with the values before and after', async () => {
    const id = await created('/v2/people', { name: '홍길동' }, 'people');
    await write(`/v2/people/${id}`, {
      name: '홍길순',
      fieldList: [{ name: '이메일', stringValue: 'hong@example.com' }],
    });
    const events = await eventsSince(1);
    const changes = events.map((e) => [e.event, e.fieldName, e.beforeField, e.afterField]);
    expect(changes).toEqual([
      ['수정', '이름', '홍길동', '홍길순'],
      ['수정', '이메일', null, 'hong@example.com'],
    ]);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(1);
    expect(events.every((e) => e.source === 'API' && e.objectId === id)).toBe(true);
    expect(Object.keys(events[0]!).slice(-3)).toEqual(['fieldName', 'beforeField', 'afterField']);
  });

  it('an update that changes nothing fires nothing', async () => {
    const id = await created('/v2/people', { name: '홍길동' }, 'people');
    await write(`/v2/people/${id}`, { name: '홍길동' });
    expect(await feed()).toHaveLength(1);
  });

  it('a won deal fires 수정 on its person, by the system, sharing the write’s eventId', async () => {
    const personId = await created('/v2/people', { name: '홍길동' }, 'people');
    const dealId = await created(
      '/v2/deal',
      {
        name: '큰 딜',
        pipelineId: pipeline.id,
        pipelineStageId: pipeline.stageIds[0],
        status: 'In progress',
        peopleId: personId,
        price: 1000,
      },
      'deal',
    );
    const before = (await feed()).length;
    await write(`/v2/deal/${dealId}`, { status: 'Won' });
    const events = await eventsSince(before);
    const onDeal = events.filter((e) => e.objectId === dealId);
    const onPerson = events.filter((e) => e.objectId === personId);
    expect(onDeal.length).toBeGreaterThan(0);
    expect(onDeal.every((e) => e.source === 'API' && e.objectType === '딜')).toBe(true);
    expect(onPerson.length).toBeGreaterThan(0);
    expect(
      onPerson.every((e) => e.source === '시스템' && e.sourceId === null && e.event === '수정'),
    ).toBe(true);
    expect(onPerson.map((e) => e.fieldName)).toContain('성사된 딜 개수');
    expect(new Set(events.map((e) => e.eventId)).size).toBe(1);
  });

  it('a delete fires 삭제, and its person’s derived changes', async () => {
    const personId = await created('/v2/people', { name: '홍길동' }, 'people');
    const dealId = await created(
      '/v2/deal',
      {
        name: '딜',
        pipelineId: pipeline.id,
        pipelineStageId: pipeline.stageIds[0],
        status: 'In progress',
        peopleId: personId,
      },
      'deal',
    );
    const before = (await feed()).length;
    await write(`/v2/deal/${dealId}/delete`, undefined);
    const events = await eventsSince(before);
    expect(events.filter((e) => e.event === '삭제')).toMatchObject([
      { objectType: '딜', objectId: dealId, source: 'API', sourceId: ws.userId },
    ]);
    expect(events.some((e) => e.objectId === personId && e.event === '수정')).toBe(true);
  });

  it('a rolled-back write fires nothing', async () => {
    const id = await created('/v2/people', { name: '홍길동' }, 'people');
    const res = await post(app, ws.token, `/v2/people/${id}`, {
      name: '새 이름',
      fieldList: [{ name: '없는 필드', stringValue: 'x' }],
    });
    expect(res.status).toBe(400);
    expect(await feed()).toHaveLength(1);
  });

  it('values of dates, times, numbers, booleans and lists take the live API’s forms', async () => {
    await ws.write(async (w) => {
      await makeCustomField(w, 'people', '생일', 'date');
      await makeCustomField(w, 'people', '첫 통화', 'dateTime');
      await makeCustomField(w, 'people', '점수', 'number');
      await makeCustomField(w, 'people', 'VIP', 'boolean');
    });
    const id = await created('/v2/people', { name: '홍길동' }, 'people');
    const before = (await feed()).length;
    await write(`/v2/people/${id}`, {
      fieldList: [
        { name: '생일', dateValue: '1990-03-15' },
        { name: '첫 통화', dateValue: '2024-04-08T05:25:26.020Z' },
        { name: '점수', numberValue: 42.5 },
        { name: 'VIP', booleanValue: true },
      ],
    });
    const byField = Object.fromEntries(
      (await eventsSince(before)).map((e) => [e.fieldName, [e.beforeField, e.afterField]]),
    );
    expect(byField).toEqual({
      생일: [null, '1990-03-15'],
      '첫 통화': [null, '2024-04-08 오후 02시 25분'],
      점수: [null, 42.5],
      VIP: [null, true],
    });
  });

  it('numbers the events of a workspace one after another, whatever writes run at once', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(app, ws.token, '/v2/people', { name: `동시 ${i}` }).then((r) =>
          expect(r.status, r.text).toBe(201),
        ),
      ),
    );
    const seqs = (await feed()).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('a reader walking the feed while writers run never skips an event', async () => {
    const seen: number[] = [];
    let cursor = '';
    let writing = true;
    // The reader reads a page, then waits for the next write to be answered (while the
    // others are under way), so that it reads between writes without spinning: a reader
    // polling as fast as it can starved the writers on a loaded machine.
    let wake: () => void = () => {};
    const nextWrite = () => new Promise<void>((resolve) => (wake = resolve));
    const reader = (async () => {
      do {
        const answered = nextWrite();
        const res = await get(
          app,
          ws.token,
          `/v2/event?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.status, res.text).toBe(200);
        seen.push(...res.json.data.eventList.map((e: Rec) => e.seq as number));
        cursor = res.json.data.nextCursor;
        if (writing) await answered;
      } while (writing);
    })();
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 6; i++) {
          const res = await post(app, ws.token, '/v2/people', { name: `작성자 ${writer}-${i}` });
          expect(res.status, res.text).toBe(201);
          wake();
        }
      }),
    );
    writing = false;
    wake();
    await reader;
    for (;;) {
      const res = await get(app, ws.token, `/v2/event?limit=100&cursor=${cursor}`);
      seen.push(...res.json.data.eventList.map((e: Rec) => e.seq as number));
      cursor = res.json.data.nextCursor;
      if (!res.json.data.hasMore) break;
    }
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it('keeps workspaces apart: each has its own events and numbers', async () => {
    await created('/v2/people', { name: '홍길동' }, 'people');
    const other = await testWorkspace(store, '다른 워크스페이스');
    await post(app, other.token, '/v2/people', { name: '다른 사람' });
    const mine = await feed();
    const theirs = await feed('', other.token);
    expect(mine.map((e) => e.seq)).toEqual([1]);
    expect(theirs.map((e) => e.seq)).toEqual([1]);
    expect(mine[0]!.objectId).not.toBe(theirs[0]!.objectId);
  });
});

describe('the event feed', () => {
  it('pages with a cursor that is never null, says whether more wait, and resumes there', async () => {
    for (let i = 0; i < 3; i++) await created('/v2/people', { name: `사람 ${i}` }, 'people');
    const first = await get(app, ws.token, '/v2/event?limit=2');
    expect(first.json.data.eventList).toHaveLength(2);
    expect(first.json.data.hasMore).toBe(true);
    const second = await get(
      app,
      ws.token,
      `/v2/event?limit=2&cursor=${first.json.data.nextCursor}`,
    );
    expect(second.json.data.eventList.map((e: Rec) => e.seq)).toEqual([3]);
    expect(second.json.data.hasMore).toBe(false);
    const end = second.json.data.nextCursor;
    const empty = await get(app, ws.token, `/v2/event?limit=2&cursor=${end}`);
    expect(empty.json.data).toEqual({ eventList: [], nextCursor: end, hasMore: false });
    await created('/v2/people', { name: '나중 사람' }, 'people');
    const later = await get(app, ws.token, `/v2/event?limit=2&cursor=${end}`);
    expect(later.json.data.eventList.map((e: Rec) => e.seq)).toEqual([4]);
  });

  it('filters by object type, with cursors bound to the filter', async () => {
    await created('/v2/people', { name: '홍길동' }, 'people');
    await created('/v2/organization', { name: '회사' }, 'organization');
    const organizations = await feed('objectType=organization');
    expect(organizations.map((e) => e.objectType)).toEqual(['회사']);
    const page = await get(app, ws.token, '/v2/event?objectType=people&limit=1');
    const foreign = await get(
      app,
      ws.token,
      `/v2/event?objectType=deal&cursor=${page.json.data.nextCursor}`,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.json.success).toBe(false);
  });

  it('answers 400 in shape A for a bad cursor, limit or object type', async () => {
    for (const query of ['cursor=abc', 'limit=0', 'objectType=product', 'objectType=']) {
      const res = await get(app, ws.token, `/v2/event?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
    }
    const another = await testWorkspace(store, '다른 곳');
    const theirs = await get(app, another.token, '/v2/event');
    const res = await get(app, ws.token, `/v2/event?cursor=${theirs.json.data.nextCursor}`);
    expect(res.status).toBe(400);
  });

  it('answers 410 for a cursor whose next events are past retention', async () => {
    await created('/v2/people', { name: '홍길동' }, 'people');
    const page = await get(app, ws.token, '/v2/event');
    const cursor = page.json.data.nextCursor;
    await created('/v2/people', { name: '김철수' }, 'people');
    await created('/v2/people', { name: '이영희' }, 'people');
    await store.db
      .deleteFrom('events')
      .where('workspace_id', '=', ws.workspaceId)
      .where('seq', '<=', 2)
      .execute();
    const res = await get(app, ws.token, `/v2/event?cursor=${cursor}`);
    expect(res.status).toBe(410);
    expect(res.json.success).toBe(false);
    // Without a cursor the feed starts at the first event kept.
    expect((await feed()).map((e) => e.seq)).toEqual([3]);
  });

  it('prunes events past retention, but keeps one a delivery still waits for', async () => {
    await created('/v2/people', { name: '홍길동' }, 'people');
    await created('/v2/people', { name: '김철수' }, 'people');
    const webhookId = 'wh-test';
    await store.db
      .insertInto('webhooks')
      .values({
        workspace_id: ws.workspaceId,
        id: webhookId,
        url: 'http://127.0.0.1:9/',
        object_types: '["people"]',
        events: '["생성"]',
        fields: null,
        status: 'disabled',
        secret: 'whsec_AAAA',
        previous_secret: null,
        previous_secret_until: null,
        failure_streak: 0,
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
      })
      .execute();
    await store.db
      .insertInto('webhook_deliveries')
      .values({
        workspace_id: ws.workspaceId,
        id: 'd-pending',
        webhook_id: webhookId,
        event_seq: 2,
        status: 'pending',
        attempt_count: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: '2024-01-01T00:00:00.000Z',
        leased_until: null,
        delivered_at: null,
        created_at: '2024-01-01T00:00:00.000Z',
      })
      .execute();
    // Nothing is old enough yet.
    expect(await pruneEvents(store, 30)).toEqual({ events: 0, deliveries: 0 });
    // Forty days on: the first event goes, the second waits for its delivery (the store is
    // shared by this file's tests, so other workspaces' events go too).
    const later = Date.now() + 40 * 86_400_000;
    expect((await pruneEvents(store, 30, later)).events).toBeGreaterThanOrEqual(1);
    expect((await feed()).map((e) => e.seq)).toEqual([2]);
  });

  it('opens no transaction in a workspace whose first event is not old enough', async () => {
    await created('/v2/people', { name: '홍길동' }, 'people');
    const opened: (string | undefined)[] = [];
    const transaction = store.transaction.bind(store);
    store.transaction = (fn, options) => {
      opened.push(options?.workspaceId);
      return transaction(fn, options);
    };
    try {
      expect(await pruneEvents(store, 30)).toEqual({ events: 0, deliveries: 0 });
      expect(opened).toEqual([]);
      expect(
        (await pruneEvents(store, 30, Date.now() + 40 * 86_400_000)).events,
      ).toBeGreaterThanOrEqual(1);
      expect(opened.length).toBeGreaterThanOrEqual(1);
      expect(await feed()).toEqual([]);
    } finally {
      store.transaction = transaction;
    }
  });

  it('needs a token', async () => {
    expect((await get(app, null, '/v2/event')).status).toBe(401);
  });
});

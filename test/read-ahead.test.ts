/**
 * Read-ahead of cursor walks: once a list page with more after it is sent, the server reads
 * the next page in the background; the client's next request is answered with it, as long
 * as the workspace has not changed, and only for the same list, filters and page size.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDeal, makeOrganization, makePerson, makePipeline } from './factories.ts';
import {
  get,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
  walk,
} from './helpers.ts';

let store: TestStore;
let app: FastifyInstance;
/** The same store without page cache or read-ahead: every page read when asked for. */
let plain: FastifyInstance;
let ws: TestWorkspace;
let people: string[];

beforeAll(async () => {
  store = await testStore();
  app = await testApp(store);
  plain = await testApp(store, { pageCacheBytes: 0 });
  ws = await testWorkspace(store);
  people = await ws.write(async (w) => {
    const org = await makeOrganization(w);
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push(await makePerson(w, { organizationId: org }));
    const pipeline = await makePipeline(w, { name: '신규 영업' });
    for (const id of ids.slice(0, 5)) {
      await makeDeal(w, {
        peopleId: id,
        organizationId: org,
        pipelineId: pipeline.id,
        stageId: pipeline.stage['미팅'],
      });
    }
    return ids;
  });
});
afterAll(async () => {
  await app.close();
  await plain.close();
  await store.dispose();
});

/** Lets the read-ahead scheduled by the last answer run. */
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** Changes a person's stored JSON without a write (the data version stays). */
async function changeBehindTheServersBack(id: string, name: string): Promise<void> {
  const [row] = await store.db.selectFrom('people').select('body').where('id', '=', id).execute();
  const record = JSON.parse(Buffer.from(row!.body as Uint8Array).toString());
  const body = Buffer.from(JSON.stringify({ ...record, 이름: name }));
  await store.db.updateTable('people').set({ body }).where('id', '=', id).execute();
}

async function page(server: FastifyInstance, url: string) {
  const res = await get(server, ws.token, url);
  expect(res.status, res.text).toBe(200);
  return res;
}

describe('read-ahead', () => {
  it('walks give the very bytes of a server that reads every page when asked', async () => {
    for (const [url, key] of [
      ['/v2/people?limit=2', 'nextCursor'],
      ['/v2/people?limit=4', 'nextCursor'],
      ['/v2/deal?limit=2', 'nextCurosr'],
      ['/v2/deal?limit=1&pipelineName=신규 영업&pipelineStageName=미팅', 'nextCurosr'],
    ] as const) {
      const pages = async (server: FastifyInstance) => {
        const texts: string[] = [];
        let cursor: string | null = null;
        do {
          const res = await page(server, cursor ? `${url}&cursor=${cursor}` : url);
          texts.push(res.text);
          cursor = res.json.data[key];
          await settle();
        } while (cursor);
        return texts;
      };
      const read = await pages(app);
      expect(read.length).toBeGreaterThan(1);
      expect(read).toEqual(await pages(plain));
    }
    expect((await walk(app, ws.token, '/v2/people?limit=2', 'peopleList')).records).toHaveLength(9);
  });

  it('answers the next page with the one read ahead', async () => {
    const first = await page(app, '/v2/people?limit=3');
    await settle();
    const onNextPage = people[3]!;
    await changeBehindTheServersBack(onNextPage, '미리 읽은 뒤');
    const next = await page(app, `/v2/people?limit=3&cursor=${first.json.data.nextCursor}`);
    // Read before the change: the page was read ahead of the request.
    expect(next.json.data.peopleList[0].id).toBe(onNextPage);
    expect(next.json.data.peopleList[0]['이름']).not.toBe('미리 읽은 뒤');
    // The plain server reads it now.
    const now = await page(plain, `/v2/people?limit=3&cursor=${first.json.data.nextCursor}`);
    expect(now.json.data.peopleList[0]['이름']).toBe('미리 읽은 뒤');
  });

  it('drops a page read ahead once the workspace changes', async () => {
    const first = await page(app, '/v2/people?limit=3');
    await settle();
    const onNextPage = people[3]!;
    await changeBehindTheServersBack(onNextPage, '쓰기 뒤');
    await ws.write(async (w) => void (await makeOrganization(w))); // moves the data version
    const next = await page(app, `/v2/people?limit=3&cursor=${first.json.data.nextCursor}`);
    expect(next.json.data.peopleList[0]['이름']).toBe('쓰기 뒤');
  });

  it('serves a page read ahead only to the same page size and filters', async () => {
    const first = await page(app, '/v2/deal?limit=2');
    await settle();
    const cursor = first.json.data.nextCursor;
    const wider = await page(app, `/v2/deal?limit=3&cursor=${cursor}`);
    expect(wider.json.data.dealList).toHaveLength(3);
    expect(wider.text).toBe((await page(plain, `/v2/deal?limit=3&cursor=${cursor}`)).text);
    // A cursor of the unfiltered list is refused by a filtered one, read ahead or not.
    const filtered = await get(
      app,
      ws.token,
      `/v2/deal?limit=2&pipelineName=신규 영업&cursor=${cursor}`,
    );
    expect(filtered.status).toBe(400);
  });

  it('still refuses a tampered cursor', async () => {
    const first = await page(app, '/v2/people?limit=3');
    await settle();
    const cursor = String(first.json.data.nextCursor);
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    const res = await get(app, ws.token, `/v2/people?limit=3&cursor=${tampered}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      success: false,
      message: expect.stringContaining('cursor'),
      reason: expect.stringContaining('cursor'),
    });
  });
});

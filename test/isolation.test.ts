import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EveryType, seedEveryType } from './every-type.ts';
import { get, type TestWorkspace, testApp, testStore, testWorkspace, walk } from './helpers.ts';

/** The list endpoints, the key of their list, the cursor key, and which seeded ids they hold. */
const LISTS = [
  {
    url: '/v2/people',
    listKey: 'peopleList',
    cursorKey: 'nextCursor',
    ids: (d: EveryType) => d.people,
  },
  {
    url: '/v2/people/history',
    listKey: 'peopleHistoryList',
    cursorKey: 'nextCursor',
    ids: (d: EveryType) => d.history,
  },
  {
    url: '/v2/organization',
    listKey: 'organizationList',
    cursorKey: 'nextCursor',
    ids: (d: EveryType) => d.organizations,
  },
  { url: '/v2/deal', listKey: 'dealList', cursorKey: 'nextCurosr', ids: (d: EveryType) => d.deals },
  {
    url: `/v2/deal?pipelineName=${encodeURIComponent('신규 영업')}`,
    listKey: 'dealList',
    cursorKey: 'nextCurosr',
    ids: (d: EveryType) => d.deals,
  },
  {
    url: `/v2/deal?pipelineStageName=${encodeURIComponent('미팅')}`,
    listKey: 'dealList',
    cursorKey: 'nextCurosr',
    ids: (d: EveryType) => d.deals.slice(0, 1),
  },
  {
    url: '/v2/deal/activity',
    listKey: 'dealActivityList',
    cursorKey: 'nextCursor',
    ids: (d: EveryType) => d.activities,
  },
  { url: '/v2/lead', listKey: 'leadList', cursorKey: 'nextCurosr', ids: (d: EveryType) => d.leads },
  {
    url: '/v2/product',
    listKey: 'productList',
    cursorKey: 'nextCursor',
    ids: (d: EveryType) => d.products,
  },
] as const;

/** Every id a workspace's seed wrote (and its own user and team), to look for in the other's answers. */
function allIds(ws: TestWorkspace, data: EveryType): string[] {
  return [ws.workspaceId, ws.userId, ws.teamId, ...Object.values(data).flat()];
}

describe('workspace isolation', () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let app: FastifyInstance;
  const side: Record<'A' | 'B', { ws: TestWorkspace; data: EveryType }> = {} as never;

  beforeAll(async () => {
    store = await testStore();
    for (const name of ['A', 'B'] as const) {
      const ws = await testWorkspace(store, `워크스페이스 ${name}`);
      side[name] = { ws, data: await seedEveryType(ws, name) };
    }
    // The page cache is on: the same URL must never answer from the other workspace's pages.
    app = await testApp(store);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  for (const [me, them] of [
    ['B', 'A'],
    ['A', 'B'],
  ] as const) {
    it(`${me}'s token lists exactly ${me}'s records on every list endpoint, none of ${them}'s`, async () => {
      const mine = side[me];
      const foreign = allIds(side[them].ws, side[them].data);
      for (const list of LISTS) {
        for (const limit of [1, 50]) {
          const sep = list.url.includes('?') ? '&' : '?';
          const { records } = await walk(
            app,
            mine.ws.token,
            `${list.url}${sep}limit=${limit}`,
            list.listKey,
            list.cursorKey,
          );
          const ids = records.map((r) => r.id as string);
          expect(ids, list.url).toEqual(list.ids(mine.data));
          const text = JSON.stringify(records);
          for (const id of foreign)
            expect(text, `${list.url} shows ${them}'s ${id}`).not.toContain(id);
        }
      }
    });

    it(`${me}'s token reads its own deal and quotes, and ${them}'s are not found`, async () => {
      const mine = side[me];
      const theirs = side[them];
      const own = await get(app, mine.ws.token, `/v2/deal/${mine.data.deals[0]}`);
      expect(own.status).toBe(200);
      expect(own.json.data.deal[0].id).toBe(mine.data.deals[0]);
      const ownQuotes = await get(app, mine.ws.token, `/v2/lead/${mine.data.leads[0]}/quote`);
      expect(ownQuotes.status).toBe(200);
      expect(ownQuotes.json.data.quoteList.map((q: { id: string }) => q.id)).toEqual(
        mine.data.quotes,
      );

      for (const dealId of theirs.data.deals) {
        const res = await get(app, mine.ws.token, `/v2/deal/${dealId}`);
        expect(res.status).toBe(404);
        expect(Object.keys(res.json)).toEqual(['error']);
        // Same answer as for an id that exists nowhere: nothing tells that it exists.
        const nowhere = `${dealId.slice(0, -1)}${dealId.endsWith('0') ? '1' : '0'}`;
        const none = await get(app, mine.ws.token, `/v2/deal/${nowhere}`);
        expect(none.status).toBe(404);
        expect(res.json.error.replaceAll(dealId, 'ID')).toBe(
          none.json.error.replaceAll(nowhere, 'ID'),
        );
      }
      for (const leadId of theirs.data.leads) {
        const res = await get(app, mine.ws.token, `/v2/lead/${leadId}/quote`);
        expect(res.status).toBe(404);
        expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
        expect(res.json.success).toBe(false);
        expect(res.text).not.toContain(theirs.data.quotes[0]);
      }
    });

    it(`${them}'s cursors are refused with ${me}'s token on every list endpoint`, async () => {
      for (const list of LISTS) {
        const sep = list.url.includes('?') ? '&' : '?';
        const first = await get(app, side[them].ws.token, `${list.url}${sep}limit=1`);
        const cursor = first.json.data[list.cursorKey] as string | null;
        if (list.ids(side[them].data).length < 2) {
          expect(cursor).toBeNull();
          continue;
        }
        expect(typeof cursor, list.url).toBe('string');
        const res = await get(app, side[me].ws.token, `${list.url}${sep}limit=1&cursor=${cursor}`);
        expect(res.status, list.url).toBe(400);
        expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
        expect(res.json.message).toContain("'cursor'");
        // The owner can still use it.
        const own = await get(
          app,
          side[them].ws.token,
          `${list.url}${sep}limit=1&cursor=${cursor}`,
        );
        expect(own.status, list.url).toBe(200);
      }
    });
  }
});

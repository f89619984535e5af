import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace, type DemoResult } from '../src/ingest/demo/create-workspace.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { get, TEST_DIALECT, type TestStore, testApp, testStore } from './helpers.ts';

/**
 * The same demo workspace built on SQLite and on PostgreSQL answers every read with the
 * same bytes: key order, number formatting, ordering and page boundaries alike. Only the
 * workspace id (random), cursors (signed with each workspace's secret; a note's `cursorId`
 * is one) and the demo's select option ids (minted when it runs) differ.
 * Runs in the PostgreSQL project, where both stores are at hand.
 */
describe.skipIf(TEST_DIALECT !== 'postgres')(
  'SQLite and PostgreSQL answer byte for byte alike',
  () => {
    // Made in the hook: a describe's body runs even when it is skipped.
    let dir: string;
    let sqlite: Store;
    let postgres: TestStore;
    const side: { app: FastifyInstance; demo: DemoResult }[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'salescrm-identical-'));
      sqlite = openStore(`sqlite:${join(dir, 'same.db')}`);
      await sqlite.migrate();
      postgres = await testStore();
      for (const store of [sqlite, postgres]) {
        const demo = await createDemoWorkspace(store, { seed: 7, people: 120 });
        side.push({ app: await testApp(store), demo });
      }
    }, 120_000);
    afterAll(async () => {
      for (const s of side) await s.app.close();
      await sqlite?.close();
      await postgres?.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Every page of `url` on one side, following the cursor, with its varying parts masked. */
    async function pages(i: number, url: string): Promise<string[]> {
      const { app, demo } = side[i]!;
      const out: string[] = [];
      let next: string | undefined = url;
      while (next && out.length < 200) {
        const res = await get(app, demo.token, next);
        const cursor = (res.json?.data?.nextCursor as string | null | undefined) ?? undefined;
        out.push(
          `${res.status} ${res.text
            .replaceAll(demo.workspaceId, 'WS')
            .replace(/"(nextCursor|nextCurosr|cursorId)":"[^"]*"/g, '"$1":"C"')
            // The demo mints select options' ids when it runs, not from its seed.
            .replace(/\{"id":"[^"]*","value":/g, '{"id":"O","value":')}`,
        );
        next = cursor ? `${url}${url.includes('?') ? '&' : '?'}cursor=${cursor}` : undefined;
      }
      return out;
    }

    async function same(url: string): Promise<string[]> {
      const [a, b] = [await pages(0, url), await pages(1, url)];
      expect(b, url).toEqual(a);
      return a;
    }

    /** Ids listed by `url`'s first page under `key`. */
    function ids(page: string, key: string): string[] {
      const json = JSON.parse(page.slice(page.indexOf(' ') + 1));
      return (json.data[key] as { id: string }[]).map((r) => r.id);
    }

    it('lists, walked page by page', async () => {
      const lists = [
        '/v2/people?limit=17',
        '/v2/organization?limit=9',
        '/v2/deal?limit=23',
        '/v2/lead?limit=11',
        '/v2/product?limit=5',
        '/v2/deal/activity?limit=50',
        '/v2/people/activity?limit=50',
        '/v2/organization/activity?limit=50',
        '/v2/lead/activity?limit=50',
        '/v2/people/history?limit=50',
        '/v2/deal/history?limit=50',
        '/v2/lead/history?limit=50',
        '/v2/organization/history?limit=50',
        '/v2/user',
        '/v2/team',
        '/v2/todo',
        '/v2/memo',
        '/v2/webForm',
      ];
      for (const url of lists) {
        const first = await same(url);
        expect(first[0], url).toMatch(/^200 /);
      }
    }, 120_000);

    it('single records, their quotes, submissions, pipelines, fields and the user', async () => {
      const [people] = await same('/v2/people?limit=5');
      const [orgs] = await same('/v2/organization?limit=5');
      const [deals] = await same('/v2/deal?limit=8');
      const [leads] = await same('/v2/lead?limit=5');
      const [memos] = await same('/v2/memo?limit=3');
      const [forms] = await same('/v2/webForm');
      for (const id of ids(people!, 'peopleList')) {
        await same(`/v2/people/${id}`);
        await same(`/v2/people/activity?peopleId=${id}`);
      }
      for (const id of ids(orgs!, 'organizationList')) await same(`/v2/organization/${id}`);
      for (const id of ids(leads!, 'leadList')) await same(`/v2/lead/${id}`);
      for (const id of ids(deals!, 'dealList')) {
        await same(`/v2/deal/${id}`);
        await same(`/v2/deal/${id}/quote`);
        await same(`/v2/deal/activity?dealId=${id}`);
      }
      for (const id of ids(memos!, 'memoList')) await same(`/v2/memo/${id}`);
      for (const id of ids(forms!, 'webFormList')) await same(`/v2/webForm/${id}/submit?limit=7`);
      for (const type of ['people', 'organization', 'deal', 'lead', 'product', 'quote', 'todo']) {
        await same(`/v2/field/${type}`);
      }
      await same('/v2/deal/pipeline');
      await same('/v2/lead/pipeline');
      await same('/v2/user/me');
      await same('/v2/deal/nonexistent-id');
      await same('/v2/people?limit=0');
    }, 120_000);
  },
);

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspaces } from '../src/ingest/demo/create-workspaces.ts';
import { revokeToken } from '../src/resources/workspaces/writes.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makePerson } from './factories.ts';
import { get, post, TEST_DIALECT, type TestStore, testApp, testStore } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';
import { startServe } from './serve-process.ts';

const ROOT = join(import.meta.dirname, '..');

/** `salescrm …` in a child process on `databaseUrl`; its exit code and standard output. */
function cli(databaseUrl: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } },
      (error, stdout) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout });
      },
    );
  });
}

describe('many workspaces on one server', { timeout: 120_000 }, () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store.dispose();
  });

  it('demo workspaces: the same records in each, under its own id, name, token and cursor secret', async () => {
    const built = await createDemoWorkspaces(store, { workspaces: 4, people: 5, seed: 3 });
    expect(new Set(built.map((w) => w.workspaceId)).size).toBe(4);
    expect(new Set(built.map((w) => w.token)).size).toBe(4);
    const rows = await store.db
      .selectFrom('workspaces')
      .select(['id', 'name', 'cursor_secret'])
      .where(
        'id',
        'in',
        built.map((w) => w.workspaceId),
      )
      .execute();
    expect(new Set(rows.map((r) => r.cursor_secret)).size).toBe(4);
    const names = built.map((w) => rows.find((r) => r.id === w.workspaceId)!.name);
    expect(names.map((n) => n.replace(/.* /, ''))).toEqual(['1', '2', '3', '4']);
    const app = await testApp(store);
    const pages = [];
    for (const w of built) {
      const res = await get(app, w.token, '/v2/people?limit=100');
      expect(res.status).toBe(200);
      expect(res.json.data.peopleList).toHaveLength(5);
      pages.push(res.json.data.peopleList);
    }
    for (const page of pages.slice(1)) expect(page).toEqual(pages[0]);
    // A write to one copy is its own.
    await writeWorkspace(store, built[1]!.workspaceId, (w) => makePerson(w, { name: '둘째만' }));
    const second = await get(app, built[1]!.token, '/v2/people?limit=100');
    expect(second.json.data.peopleList).toHaveLength(6);
    const third = await get(app, built[2]!.token, '/v2/people?limit=100');
    expect(third.json.data.peopleList).toHaveLength(5);
    // No events were copied: each feed starts empty.
    const events = await get(app, built[3]!.token, '/v2/event');
    expect(events.status).toBe(200);
    expect(events.json.data.eventList).toHaveLength(0);
    await app.close();
  });

  it('serves the lists of many workspaces from memory: no token lookup once each was read', async () => {
    const built = await createDemoWorkspaces(store, { workspaces: 30, people: 2 });
    let reads = 0;
    const counting = Object.create(store, {
      rows: {
        value: (query: Parameters<Store['rows']>[0]) => {
          reads += 1;
          return store.rows(query);
        },
      },
    }) as Store;
    const app = await testApp(counting);
    // The PostgreSQL store's change feed starts with the app: wait until it listens.
    await waitFor(() => !counting.changes || counting.changes().feed.live);
    for (let round = 0; round < 2; round++) {
      for (const w of built) expect((await get(app, w.token, '/v2/people')).status).toBe(200);
    }
    reads = 0;
    for (const w of built) expect((await get(app, w.token, '/v2/people')).status).toBe(200);
    expect(reads).toBe(0);
    await app.close();
  });
});

describe('salescrm demo --workspaces, and the banner of serve', { timeout: 120_000 }, () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store.dispose();
  });

  it('prints one {"workspaceId","token"} line a workspace; serve names three and counts them', async () => {
    const run = await cli(store.url, ['demo', '--workspaces', '5', '--people', '3', '--json']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    const built = lines.map((l) => JSON.parse(l) as Record<string, string>);
    for (const w of built) expect(Object.keys(w)).toEqual(['workspaceId', 'token']);
    const server = await startServe(store.url);
    try {
      const res = await fetch(`${server.url}/v2/people`, {
        headers: { authorization: `Bearer ${built[4]!.token}` },
      });
      expect(res.status).toBe(200);
      const banner = /^workspaces: .*$/m.exec(server.out())?.[0];
      expect(banner).toBe(
        `workspaces: 5 (${built
          .slice(0, 3)
          .map((w) => w.workspaceId)
          .join(', ')}, … 2 more)`,
      );
    } finally {
      await server.stop();
    }
  });
});

describe.runIf(TEST_DIALECT === 'postgres')(
  'PostgreSQL: tokens kept until a notification says otherwise',
  { timeout: 120_000 },
  () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await testStore();
    });
    afterAll(async () => {
      await store.dispose();
    });

    it('a token revoked by one process is refused by another once the commit is notified, without a restart', async () => {
      const [w] = await createDemoWorkspaces(store, { workspaces: 1, people: 2 });
      const tokenId = (
        await store.db.selectFrom('access_tokens').select('id').executeTakeFirstOrThrow()
      ).id;
      const server = await startServe(store.url);
      try {
        const read = () =>
          fetch(`${server.url}/v2/people`, { headers: { authorization: `Bearer ${w!.token}` } });
        // The server listens once it has started; then its kept lookup serves the token.
        await waitForAsync(async () => {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and query = 'listen salescrm_changes'`.execute(
            store.db,
          );
          return rows[0]!.n > 0;
        });
        for (let i = 0; i < 3; i++) expect((await read()).status).toBe(200);
        const other = openStore(store.url);
        try {
          expect(await revokeToken(other, tokenId)).toBe(true);
        } finally {
          await other.close();
        }
        // The revocation's notification reaches the server's listening connection after the
        // commit (milliseconds; longer on a loaded machine): from then on the token is refused.
        // Before it, the kept lookup may still serve it; a lookup is never kept past it.
        await waitForAsync(async () => (await read()).status === 401);
        for (let i = 0; i < 3; i++) expect((await read()).status).toBe(401);
      } finally {
        await server.stop();
      }
    });

    /** A workspace of two people, and an app on `store` (its token lookups counted) that listens. */
    async function listeningApp() {
      const [w] = await createDemoWorkspaces(store, { workspaces: 1, people: 2 });
      const counted = countingTokenLookups(store);
      const app = await testApp(counted.store);
      await waitFor(() => store.changes!().feed.live);
      return { w: w!, app, counted };
    }

    it('a write through the server is read back by its next request, the page kept before or not, with no token lookup', async () => {
      const { w, app, counted } = await listeningApp();
      const list = '/v2/people?limit=100';
      for (let i = 0; i < 3; i++) expect((await get(app, w.token, list)).status).toBe(200);
      counted.lookups = 0;
      for (let i = 0; i < 5; i++) {
        const made = await post(app, w.token, '/v2/people', { name: `바로 읽기 ${i}` });
        expect(made.status).toBe(201);
        const page = await get(app, w.token, list);
        expect(page.json.data.peopleList).toHaveLength(3 + i);
        // Asked again, the page is kept, until the next write.
        expect((await get(app, w.token, list)).text).toBe(page.text);
      }
      // Each write named the versions it left: the token's lookup stayed kept, with them.
      expect(counted.lookups).toBe(0);
      await app.close();
    });

    it("another process's write is read back once its commit is notified, with no token lookup", async () => {
      const { w, app, counted } = await listeningApp();
      const list = '/v2/people?limit=100';
      const count = async () => (await get(app, w.token, list)).json.data.peopleList.length;
      expect(await count()).toBe(2);
      counted.lookups = 0;
      const other = openStore(store.url);
      try {
        for (let i = 0; i < 3; i++) {
          await writeWorkspace(other, w.workspaceId, (x) => makePerson(x));
          // The commit's notification names the versions it left (migration 029).
          await waitForAsync(async () => (await count()) === 3 + i);
        }
      } finally {
        await other.close();
      }
      expect(counted.lookups).toBe(0);
      await app.close();
    });

    it('while its listening connection is lost, every request looks its token up; then it listens again', async () => {
      const [w] = await createDemoWorkspaces(store, { workspaces: 1, people: 2 });
      const app = await testApp(store);
      const { feed } = store.changes!();
      await waitFor(() => feed.live);
      expect((await get(app, w.token, '/v2/people')).status).toBe(200);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'listen salescrm_changes'`.execute(store.db);
      await waitFor(() => !feed.live);
      await store.db
        .updateTable('access_tokens')
        .set({ revoked_at: '2026-01-01T00:00:00.000Z' })
        .execute();
      expect((await get(app, w.token, '/v2/people')).status).toBe(401);
      await waitFor(() => feed.live);
      await app.close();
    });
  },
);

/** `store` with its token lookups counted (the queries of `access_tokens`). */
function countingTokenLookups(store: Store): { store: Store; lookups: number } {
  const counted = { store, lookups: 0 };
  counted.store = Object.create(store, {
    rows: {
      value: (query: Parameters<Store['rows']>[0]) => {
        if ('sql' in query && query.sql.includes('"access_tokens"')) counted.lookups += 1;
        return store.rows(query);
      },
    },
  }) as Store;
  return counted;
}

async function waitFor(condition: () => boolean): Promise<void> {
  await waitForAsync(async () => condition());
}

async function waitForAsync(condition: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

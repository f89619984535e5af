import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/database.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import { NoHostError } from '../src/store/postgres-host-pool.ts';
import { isStoreUnavailable } from '../src/store/unavailable.ts';
import {
  get,
  post,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { ident, testServerUrl, withAdmin } from './postgres.ts';

/** A port of 127.0.0.1 on which nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const OPTIONS = {
  poolMax: 4,
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
};

/**
 * libpq's multi-host `DATABASE_URL` against the test server: a host that refuses is passed
 * over, a host whose sessions are read-only is no place for writes (`read-write`), and a
 * primary serves `prefer-standby` but not `standby`. The two-cluster failover itself is
 * `postgres-failover.test.ts`.
 */
describe.skipIf(TEST_DIALECT !== 'postgres')('a multi-host DATABASE_URL', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let database: string;
  const opened: Store[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    database = new URL(store.url).pathname.slice(1);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const s of opened) await s.close();
    await store?.dispose();
  });

  /** The store's URL with `hosts` for its host list. */
  function hostsUrl(hosts: string[], attrs: string): string {
    const url = new URL(store.url);
    return `postgres://${url.username}@${hosts.join(',')}/${database}?target_session_attrs=${attrs}&application_name=salescrm-hosts`;
  }

  async function appOn(url: string): Promise<{ store: Store; app: FastifyInstance }> {
    const s = openPostgresStore(url, OPTIONS);
    opened.push(s);
    const app = await testApp(s);
    apps.push(app);
    return { store: s, app };
  }

  it('passes over a host that refuses connections, and names every host in its location', async () => {
    const real = new URL(store.url).host;
    const dead = `127.0.0.1:${await deadPort()}`;
    const { store: s, app } = await appOn(hostsUrl([dead, real], 'read-write'));
    expect(s.location).toBe(`postgres://${dead},${real}/${database}`);
    const created = await post(app, ws.token, '/v2/people', { name: '두 번째 호스트' });
    expect(created.status).toBe(201);
    expect((await get(app, ws.token, '/v2/people')).json.data.peopleList).toHaveLength(1);
  });

  it('falls back to a primary for prefer-standby, and finds no host for standby', async () => {
    const real = new URL(store.url).host;
    const dead = `127.0.0.1:${await deadPort()}`;
    const count = (s: Store) =>
      s.rows(s.reader.selectFrom('workspaces').select((e) => e.fn.countAll().as('n')));
    const prefer = openPostgresStore(hostsUrl([dead, real], 'prefer-standby'), OPTIONS);
    opened.push(prefer);
    // No standby answers: the primary serves, and keeps serving on the same connections.
    expect(await count(prefer)).toEqual([[expect.any(Number)]]);
    expect(await count(prefer)).toEqual([[expect.any(Number)]]);
    const standbyOnly = openPostgresStore(hostsUrl([dead, real], 'standby'), OPTIONS);
    opened.push(standbyOnly);
    const refused = await Promise.resolve(count(standbyOnly)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NoHostError);
    expect(isStoreUnavailable(refused)).toBe(true);
    expect((refused as Error).message).toContain(`${real}: its session is not standby`);
  });

  it('answers 503 while no host takes writes, and writes once one does, without a restart', async () => {
    const real = new URL(store.url).host;
    const readOnly = (on: boolean) =>
      withAdmin(testServerUrl(), (c) =>
        c.query(
          `alter database ${ident(database)} ${on ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`,
        ),
      );
    await readOnly(true);
    try {
      const { app } = await appOn(hostsUrl([`127.0.0.1:${await deadPort()}`, real], 'read-write'));
      const refused = await post(app, ws.token, '/v2/people', { name: '읽기 전용' });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json).toEqual({
        success: false,
        message: expect.any(String),
        reason: expect.any(String),
      });
      // Without target_session_attrs the session is taken, and the write's 25006 is a 503 too.
      const { app: anyApp } = await appOn(hostsUrl([real], 'any'));
      const readOnlyWrite = await post(anyApp, ws.token, '/v2/people', { name: '읽기 전용' });
      expect(readOnlyWrite.status).toBe(503);
      expect(readOnlyWrite.headers['retry-after']).toBeDefined();

      await readOnly(false);
      const accepted = await post(app, ws.token, '/v2/people', { name: '다시 쓰기' });
      expect(accepted.status).toBe(201);
    } finally {
      await readOnly(false);
    }
  });
});

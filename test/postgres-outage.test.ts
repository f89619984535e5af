import { connect, createServer, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/database.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import { isStoreUnavailable } from '../src/store/unavailable.ts';
import { makeDeal } from './factories.ts';
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
import { withAdmin } from './postgres.ts';

/**
 * A TCP relay in front of the PostgreSQL server, to take the database away from the service
 * and give it back: `down()` closes the port and cuts every connection, `blackHole()`
 * accepts connections and never answers, `freeze()` keeps the connections open but carries
 * nothing more on them (a server gone without a word), `up()` relays again on the same port.
 */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private pairs: [Socket, Socket][] = [];
  port = 0;
  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async up(mode: 'relay' | 'blackHole' = 'relay'): Promise<void> {
    await this.down();
    const server = createServer((client) => {
      this.track(client);
      if (mode === 'blackHole') return;
      const upstream = connect(this.targetPort, this.host);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      this.pairs.push([client, upstream]);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async blackHole(): Promise<void> {
    await this.up('blackHole');
  }

  /** The connections open now stay open and silent; new ones are relayed. */
  freeze(): void {
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    this.pairs = [];
  }

  async down(): Promise<void> {
    this.pairs = [];
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `fn` until it returns true, for up to `ms`. */
async function eventually(fn: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await fn()) return true;
    await sleep(100);
  }
  return false;
}

describe.skipIf(TEST_DIALECT !== 'postgres')('PostgreSQL going away and coming back', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let dealId: string;
  const relay = new Relay('127.0.0.1', 0);
  let relayed: Store;
  let app: FastifyInstance;
  const appName = `salescrm-outage-${process.pid}`;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    dealId = await ws.write((w) => makeDeal(w));
    const target = new URL(store.url);
    Object.assign(relay, { host: target.hostname, targetPort: Number(target.port || 5432) });
    await relay.up();
    const url = new URL(store.url);
    url.host = `127.0.0.1:${relay.port}`;
    url.searchParams.set('application_name', appName);
    relayed = openPostgresStore(url.toString(), {
      poolMax: 4,
      connectTimeoutMs: 1_000,
      statementTimeoutMs: 5_000,
      idleTimeoutMs: 30_000,
    });
    app = await testApp(relayed);
  });
  afterAll(async () => {
    await app?.close();
    await relayed?.close();
    await relay.down();
    await store?.dispose();
  });

  async function healthy(): Promise<boolean> {
    const [people, deal, ready] = await Promise.all([
      get(app, ws.token, '/v2/people'),
      get(app, ws.token, `/v2/deal/${dealId}`),
      get(app, null, '/readyz'),
    ]);
    return people.status === 200 && deal.status === 200 && ready.status === 200;
  }

  /** The answers while the database is away: 503, `Retry-After`, each endpoint's shape. */
  async function expectUnavailable(): Promise<void> {
    const people = await get(app, ws.token, '/v2/people');
    expect(people.status).toBe(503);
    expect(people.headers['retry-after']).toBeDefined();
    expect(people.json).toEqual({
      success: false,
      message: expect.any(String),
      reason: expect.any(String),
    });
    const deal = await get(app, ws.token, `/v2/deal/${dealId}`);
    expect(deal.status).toBe(503);
    expect(deal.headers['retry-after']).toBeDefined();
    expect(deal.json).toEqual({ error: expect.any(String) });
    const write = await post(app, ws.token, '/v2/people', { name: '연결 끊김' });
    expect(write.status).toBe(503);
    const ready = await get(app, null, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
  }

  it('answers 503 while nothing listens, and recovers by itself when the server is back', async () => {
    expect(await healthy()).toBe(true);
    await relay.down();
    await expectUnavailable();
    await relay.up();
    expect(await eventually(healthy)).toBe(true);
    // Nothing was lost or half-written: the write refused above is not there.
    const people = await get(app, ws.token, '/v2/people');
    expect(people.json.data.peopleList).toHaveLength(0);
  });

  it('answers 503 within the connect timeout when the server accepts but never answers', async () => {
    expect(await healthy()).toBe(true);
    await relay.blackHole();
    const started = Date.now();
    await expectUnavailable();
    // Four requests, each bounded by the 1 s connect timeout (plus slack for a busy machine).
    expect(Date.now() - started).toBeLessThan(20_000);
    await relay.up();
    expect(await eventually(healthy)).toBe(true);
  });

  it('closes a connection whose query went unanswered, and writes again on new ones', async () => {
    // Open the pool's connections, then silence them: their server is gone without a word
    // (no reset), while a new connection reaches it.
    await Promise.all(Array.from({ length: 8 }, () => get(app, ws.token, '/v2/people')));
    relay.freeze();
    const write = () =>
      relayed
        .transaction((trx) => sql`select 1`.execute(trx))
        .then(
          () => 'written',
          (error: unknown) => (isStoreUnavailable(error) ? 'unavailable' : error),
        );
    const first = await Promise.all(Array.from({ length: 4 }, write));
    for (const outcome of first) expect(['written', 'unavailable']).toContain(outcome);
    // A transaction whose query timed out (statement + connect timeout) closes its
    // connection rather than handing it back to the pool with that query still waiting on
    // it, where every later transaction would queue behind it.
    expect(await eventually(async () => (await write()) === 'written', 15_000)).toBe(true);
    expect(await eventually(healthy)).toBe(true);
  });

  it('survives its connections being terminated with pg_terminate_backend', async () => {
    // Fill the pool, so several connections are open when they are cut.
    await Promise.all(Array.from({ length: 8 }, () => get(app, ws.token, '/v2/people')));
    const terminated = await withAdmin(store.url, async (c) => {
      const { rows } = await c.query(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1',
        [appName],
      );
      return rows.length;
    });
    expect(terminated).toBeGreaterThan(0);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        get(app, ws.token, i % 2 ? '/v2/people' : `/v2/deal/${dealId}`),
      ),
    );
    for (const res of answers) {
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
    }
    expect(await eventually(healthy)).toBe(true);
    const after = await withAdmin(store.url, async (c) => {
      const { rows } = await c.query(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [appName],
      );
      return rows[0].n as number;
    });
    expect(after).toBeGreaterThan(0);
    // The pool's 4 at the most, and the connection that listens for commits (it reconnects
    // once cut, sooner or later: on a loaded machine it was back before this count).
    expect(after).toBeLessThanOrEqual(4 + 1);
  });
});

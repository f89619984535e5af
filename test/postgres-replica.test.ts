import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/database.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import { makePerson } from './factories.ts';
import { get, post, TEST_DIALECT, testApp, testWorkspace } from './helpers.ts';
import { type Cluster, ClusterDir, clustersMissing, runPg } from './pg-clusters.ts';

/**
 * `DATABASE_READ_URL` against a real streaming replica: the test makes a primary cluster
 * with initdb and a replica of it with `pg_basebackup -R`, on free ports in a temporary
 * directory, run as the `postgres` OS user. Replay is paused on the replica to make lag
 * for certain, so routing, lag and read-your-writes are each seen in the data served.
 */
const missing = TEST_DIALECT === 'postgres' ? clustersMissing() : undefined;
if (missing) {
  console.warn(`\n!!! SKIPPED: the read-replica test: ${missing}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(TEST_DIALECT !== 'postgres' || missing !== undefined)(
  'reads from a streaming replica (DATABASE_READ_URL)',
  () => {
    // Made in the hook: a describe's body runs even when it is skipped.
    let dirs: ClusterDir | undefined;
    let replica: Cluster;
    let primaryUrl: string;
    let replicaUrl: string;
    let primaryAdmin: pg.Client;
    let replicaAdmin: pg.Client;
    let setup: Store;
    let store: Store;
    let app: FastifyInstance;

    beforeAll(async () => {
      dirs = new ClusterDir('salescrm-replica-');
      const primary = await dirs.primary('primary');
      replica = await dirs.standby('replica', primary);
      primaryUrl = primary.url;
      replicaUrl = replica.url;
      primaryAdmin = new pg.Client(primaryUrl);
      replicaAdmin = new pg.Client(replicaUrl);
      // The replica is stopped by a test: its admin connection's loss is expected.
      replicaAdmin.on('error', () => {});
      await primaryAdmin.connect();
      await replicaAdmin.connect();

      setup = openStore(primaryUrl);
      await setup.migrate();
      store = openPostgresStore(primaryUrl, {
        poolMax: 4,
        connectTimeoutMs: 2_000,
        statementTimeoutMs: 10_000,
        idleTimeoutMs: 30_000,
        readUrl: replicaUrl,
      });
      // No page cache: every read goes to a database.
      app = await testApp(store, { pageCacheBytes: 0 });
    }, 120_000);

    afterAll(async () => {
      await app?.close();
      await store?.close();
      await setup?.close();
      await primaryAdmin?.end();
      await replicaAdmin?.end();
      dirs?.dispose();
    }, 60_000);

    /** Waits until the replica has replayed everything the primary wrote. */
    async function caughtUp(): Promise<void> {
      const lsn = (await primaryAdmin.query('select pg_current_wal_lsn() as l')).rows[0].l;
      for (let i = 0; i < 200; i++) {
        const { rows } = await replicaAdmin.query(
          'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
          [lsn],
        );
        if (rows[0].ok) return;
        await sleep(50);
      }
      throw new Error('the replica did not catch up');
    }

    it('is a real streaming replica', async () => {
      const { rows } = await replicaAdmin.query('select pg_is_in_recovery() as r');
      expect(rows[0].r).toBe(true);
      // pg_basebackup's own WAL sender may still be leaving when the replica starts, so
      // this counts the replica's: it streams under the default name 'walreceiver'.
      let streaming = 0;
      for (let i = 0; i < 100 && streaming !== 1; i++) {
        if (i > 0) await sleep(50);
        const senders = await primaryAdmin.query(
          `select count(*)::int as n from pg_stat_replication
            where application_name = 'walreceiver' and state = 'streaming'`,
        );
        streaming = senders.rows[0].n;
      }
      expect(streaming).toBe(1);
    });

    it('serves a caught-up workspace from the replica, and a workspace that just wrote from the primary', async () => {
      const a = await testWorkspace(setup, '쓰는 워크스페이스');
      const b = await testWorkspace(setup, '읽는 워크스페이스');
      const bPerson = await b.write((w) => makePerson(w, { name: '복제본 사람' }));
      await caughtUp();
      await replicaAdmin.query('select pg_wal_replay_pause()');
      try {
        // Lag: a write in workspace A, through the API, is not replayed on the replica.
        const created = await post(app, a.token, '/v2/people', { name: '방금 쓴 사람' });
        expect(created.status).toBe(201);
        const onReplica = await replicaAdmin.query(
          'select count(*)::int as n from people where workspace_id = $1',
          [a.workspaceId],
        );
        expect(onReplica.rows[0].n).toBe(0);
        // Read-your-writes: A's next read sees it (the primary serves A).
        const readA = await get(app, a.token, '/v2/people');
        expect(readA.status).toBe(200);
        expect(readA.json.data.peopleList.map((p: { 이름: string }) => p.이름)).toEqual([
          '방금 쓴 사람',
        ]);

        // Routing: B has not written since the replica caught up, so the replica serves it.
        // A change on the primary that bypasses the write path (no data version bump) shows
        // which server answered: the replica, paused, still has the old record.
        await primaryAdmin.query(
          `update people set body = replace(body, '복제본 사람', '프라이머리 사람') where workspace_id = $1 and id = $2`,
          [b.workspaceId, bPerson],
        );
        const before = { ...store.reads! };
        const readB = await get(app, b.token, `/v2/people/${bPerson}`);
        expect(readB.status).toBe(200);
        expect(readB.text).toContain('복제본 사람');
        expect(store.reads!.replica).toBeGreaterThan(before.replica);
      } finally {
        await replicaAdmin.query('select pg_wal_replay_resume()');
      }
      // Once the replica has replayed A's write, the replica serves A again.
      await caughtUp();
      const before = { ...store.reads! };
      const readA = await get(app, a.token, '/v2/people');
      expect(readA.json.data.peopleList).toHaveLength(1);
      expect(store.reads!.replica).toBeGreaterThan(before.replica);
      // At most the token lookup on the primary (none while the token is kept: the commits'
      // notifications have said nothing of its workspace since).
      expect(store.reads!.primary).toBeLessThanOrEqual(before.primary + 1);
    });

    it('falls back to the primary while the replica is down', async () => {
      const ws = await testWorkspace(setup, '복제본 없이');
      const person = await ws.write((w) => makePerson(w, { name: '버티는 사람' }));
      const read = await testWorkspace(setup, '복제본에서 읽던');
      const readPerson = await read.write((w) => makePerson(w, { name: '읽히던 사람' }));
      await caughtUp();
      // `read` is now served by the replica, `ws` not yet checked there.
      const before = store.reads!.replica;
      expect((await get(app, read.token, `/v2/people/${readPerson}`)).status).toBe(200);
      expect(store.reads!.replica).toBeGreaterThan(before);
      runPg('pg_ctl', ['-D', replica.dir, '-m', 'fast', '-w', 'stop']);
      try {
        const res = await get(app, ws.token, `/v2/people/${person}`);
        expect(res.status).toBe(200);
        expect(res.text).toContain('버티는 사람');
        // The workspace that was read on the replica is read on the primary at once.
        const again = await get(app, read.token, `/v2/people/${readPerson}`);
        expect(again.status).toBe(200);
        expect(again.text).toContain('읽히던 사람');
        expect((await get(app, read.token, '/v2/people')).status).toBe(200);
      } finally {
        dirs!.start(replica);
        await replicaAdmin.end().catch(() => {});
        replicaAdmin = new pg.Client(replicaUrl);
        replicaAdmin.on('error', () => {});
        await replicaAdmin.connect();
      }
    });

    it('takes a token made on the primary at once (auth reads the primary)', async () => {
      await caughtUp();
      await replicaAdmin.query('select pg_wal_replay_pause()');
      try {
        const ws = await testWorkspace(setup, '새 토큰');
        const onReplica = await replicaAdmin.query(
          'select count(*)::int as n from access_tokens where id = $1',
          [ws.tokenId],
        );
        expect(onReplica.rows[0].n).toBe(0);
        expect((await get(app, ws.token, '/v2/people')).status).toBe(200);
      } finally {
        await replicaAdmin.query('select pg_wal_replay_resume()');
      }
    });
  },
);

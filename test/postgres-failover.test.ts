import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/database.ts';
import { TEST_DIALECT, type TestWorkspace, testWorkspace } from './helpers.ts';
import { type Cluster, ClusterDir, clustersMissing, runPg } from './pg-clusters.ts';
import { type ServeProcess, startServe } from './serve-process.ts';
import { insertWebhook, type Receiver, startReceiver } from './webhook-fixtures.ts';

/**
 * Failover with no acknowledged write lost (docs/deploy.md, "A primary that fails over"):
 * two clusters on loopback, a primary and its synchronous standby (`synchronous_commit = on`,
 * `synchronous_standby_names` naming it), `serve --workers 2` on libpq's multi-host URL with
 * `target_session_attrs=read-write` (and `prefer-standby` for reads), four writers creating
 * people, a reader listing them, and a webhook receiver. The primary's postmaster is killed
 * with SIGKILL, the standby promoted (`pg_ctl promote`), and the writers carry on: every
 * create answered 201, before, during or after, is on the new primary; every one reached the
 * receiver at least once; nothing was answered but 201 (200 to the reader) or 503 with
 * `Retry-After`. The times from the kill to the first write accepted after the promotion are
 * printed. Before that, a commit whose wait for the standby is cancelled is answered 503.
 */
const missing = TEST_DIALECT === 'postgres' ? clustersMissing() : undefined;
if (missing) console.warn(`\n!!! SKIPPED: the failover test: ${missing}\n`);

const WRITERS = 4;
/** A writer's pause after a 503 or a refused connection, as a client's retry would be. */
const RETRY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds; fails, saying `what`, after `ms`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** One create the API acknowledged. */
interface Accepted {
  id: string;
  /** `performance.now()` when the request was sent. */
  sentAt: number;
  /** `performance.now()` when the answer was in. */
  at: number;
}

describe.skipIf(TEST_DIALECT !== 'postgres' || missing !== undefined)(
  'failover to a synchronous standby',
  () => {
    let dirs: ClusterDir | undefined;
    let primary: Cluster;
    let standby: Cluster;
    let ws: TestWorkspace;
    let receiver: Receiver | undefined;
    let serve: ServeProcess | undefined;

    beforeAll(async () => {
      dirs = new ClusterDir('salescrm-failover-');
      primary = await dirs.primary('a', ['synchronous_commit = on']);
      const setup = openStore(primary.url);
      try {
        await setup.migrate();
        ws = await testWorkspace(setup, '장애 조치');
        receiver = await startReceiver();
        await insertWebhook(setup, ws.workspaceId, { url: receiver.url });
      } finally {
        await setup.close();
      }
      // The standby is named by its cluster_name, which its WAL receiver reports; the primary
      // names it synchronous only now, so the standby's copy of postgresql.conf (taken by
      // pg_basebackup) does not wait for a standby of its own once promoted.
      standby = await dirs.standby('b', primary, ["cluster_name = 'salescrm_b'"]);
      dirs.configure(primary, ["synchronous_standby_names = 'FIRST 1 (salescrm_b)'"]);
      runPg('pg_ctl', ['-D', primary.dir, 'reload']);
      await streamingSynchronously();
      serve = await startServe(
        `postgres://postgres@${primary.host},${standby.host}/postgres?target_session_attrs=read-write`,
        {
          WEBHOOK_DISPATCH: '1',
          WEBHOOK_ALLOW_PRIVATE: '1',
          WEBHOOK_POLL_MS: '50',
          WEBHOOK_RETRY_DELAYS: '0.2,0.5,1,1,1,1,1,1,1,1',
          DATABASE_CONNECT_TIMEOUT_MS: '1000',
          READ_THREADS: '0',
          // Reads on the standby while it is one (the primary if it is the only host left).
          DATABASE_READ_URL: `postgres://postgres@${standby.host},${primary.host}/postgres?target_session_attrs=prefer-standby`,
        },
        ['--workers', '2'],
      );
    }, 120_000);

    async function streamingSynchronously(): Promise<void> {
      await until('the standby to stream synchronously', async () => {
        const rows = await queryOn(
          primary,
          `select sync_state from pg_stat_replication where application_name = 'salescrm_b'`,
        );
        return rows[0]?.sync_state === 'sync';
      });
    }

    afterAll(async () => {
      await serve?.kill();
      await receiver?.close();
      dirs?.dispose();
    }, 60_000);

    it('answers 503, not 201, for a commit whose wait for the standby was cancelled', async () => {
      const create = (name: string) =>
        fetch(`${serve!.url}/v2/people`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
      runPg('pg_ctl', ['-D', standby.dir, '-m', 'fast', '-w', 'stop']);
      try {
        // The commit waits for the standby; a cancel (an operator's pg_cancel_backend) ends the
        // wait, and PostgreSQL reports the commit done, with a warning, though only the
        // primary has it.
        const answer = create('확인 안 된 커밋');
        await until('a commit waiting for the standby', async () => {
          const rows = await queryOn(
            primary,
            `select pg_cancel_backend(pid) as cancelled from pg_stat_activity where wait_event = 'SyncRep'`,
          );
          return rows.some((row) => row.cancelled === true);
        });
        const res = await answer;
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeTruthy();
        const [onPrimary] = await queryOn(
          primary,
          `select count(*)::int as n from people where workspace_id = $1 and name = '확인 안 된 커밋'`,
          [ws.workspaceId],
        );
        expect(onPrimary!.n).toBe(1);
      } finally {
        dirs!.start(standby);
      }
      await streamingSynchronously();
      expect((await create('확인된 커밋')).status).toBe(201);
    }, 60_000);

    it('loses no acknowledged write, delivers every event, and writes again after the promotion', async () => {
      const accepted: Accepted[] = [];
      const statuses = new Map<number, number>();
      let withoutRetryAfter = 0;
      let stopped = false;
      const writer = async (w: number) => {
        for (let n = 1; !stopped; n++) {
          let status = 0;
          const sentAt = performance.now();
          try {
            const res = await fetch(`${serve!.url}/v2/people`, {
              method: 'POST',
              headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name: `작성자 ${w} - ${n}` }),
            });
            status = res.status;
            const body = (await res.json()) as { data?: { people?: { id: string } } };
            if (status === 201)
              accepted.push({ id: body.data!.people!.id, sentAt, at: performance.now() });
            if (status === 503 && !res.headers.get('retry-after')) withoutRetryAfter += 1;
          } catch {
            status = 0; // the connection to serve failed: counted, and must not happen
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 201) await sleep(RETRY_MS);
        }
      };
      const reads = new Map<number, number>();
      const reader = async () => {
        while (!stopped) {
          let status = 0;
          try {
            const res = await fetch(`${serve!.url}/v2/people?limit=5`, {
              headers: { authorization: `Bearer ${ws.token}` },
            });
            status = res.status;
            await res.arrayBuffer();
            if (status === 503 && !res.headers.get('retry-after')) withoutRetryAfter += 1;
          } catch {
            status = 0;
          }
          reads.set(status, (reads.get(status) ?? 0) + 1);
          await sleep(status === 200 ? 20 : RETRY_MS);
        }
      };
      const writers = [...Array.from({ length: WRITERS }, (_, w) => writer(w + 1)), reader()];
      const unavailable = () => statuses.get(503) ?? 0;
      try {
        await until('writes before the kill', () => accepted.length >= 40);
        const beforeKill = accepted.length;

        const killedAt = performance.now();
        process.kill(dirs!.postmasterPid(primary), 'SIGKILL');
        // The writers see the primary gone (503s) before the standby is promoted.
        await until('503s while no host takes writes', () => unavailable() >= 2 * WRITERS);
        const promoting = performance.now();
        runPg('pg_ctl', ['-D', standby.dir, '-w', 'promote']);
        const promotedAt = performance.now();
        await until('writes after the promotion', () => accepted.some((a) => a.at > promotedAt));
        // A request sent before the kill may be answered after it (committed on the primary
        // and its standby in time): the first write of the new primary is the first one sent
        // after the kill.
        const firstAfter = Math.min(
          ...accepted.filter((a) => a.sentAt > killedAt).map((a) => a.at),
        );
        await until('more writes after the promotion', () => accepted.length >= beforeKill + 40);
        stopped = true;
        await Promise.all(writers);

        const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
        console.log(
          `failover: kill → promotion asked ${seconds(promoting - killedAt)}, ` +
            `promotion (pg_ctl promote -w) ${seconds(promotedAt - promoting)}, ` +
            `promoted → first write accepted ${seconds(firstAfter - promotedAt)}, ` +
            `kill → first write accepted ${seconds(firstAfter - killedAt)}; ` +
            `${accepted.length} writes accepted (${beforeKill} before the kill), ` +
            `${unavailable()} answered 503; reads: ${reads.get(200) ?? 0} answered 200, ` +
            `${reads.get(503) ?? 0} 503`,
        );

        // Nothing but 201 and 503 (with Retry-After): never a 500, never a dropped connection.
        expect([...statuses.keys()].sort()).toEqual([201, 503]);
        expect([...reads.keys()].filter((status) => status !== 503)).toEqual([200]);
        expect(withoutRetryAfter).toBe(0);
        // The standby is the primary now, and every acknowledged write is on it.
        const [state] = await queryOn(standby, 'select pg_is_in_recovery() as standby');
        expect(state!.standby).toBe(false);
        const rows = await queryOn(standby, 'select id from people where workspace_id = $1', [
          ws.workspaceId,
        ]);
        const stored = new Set(rows.map((r) => r.id as string));
        const lost = accepted.filter((a) => !stored.has(a.id));
        expect(lost).toEqual([]);
        // Every acknowledged create reached the receiver at least once (its 생성 event).
        const missingEvents = () => {
          const delivered = new Set(
            receiver!.receipts
              .map((r) => JSON.parse(r.body) as { event: string; objectId: string })
              .filter((e) => e.event === '생성')
              .map((e) => e.objectId),
          );
          return accepted.filter((a) => !delivered.has(a.id));
        };
        await until('every event delivered', () => missingEvents().length === 0, 60_000);
        expect(missingEvents()).toEqual([]);
      } finally {
        stopped = true;
        await Promise.all(writers);
      }
    }, 180_000);
  },
);

/** Runs one query on its own connection to `cluster`. */
async function queryOn(
  cluster: Cluster,
  text: string,
  values: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

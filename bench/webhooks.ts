// `npm run bench:webhooks [-- --store sqlite,postgres] [--backlog N] [--writes N] [--seconds S]
//  [--phases latency,first,outage,writes,claim]`:
// the webhook dispatcher with 1 and with 50 webhooks, its receivers on 127.0.0.1 in a child
// process, the dispatcher (default settings) and the writer in this one, as in `serve`:
//   - latency from commit to receipt (p50, p99), writes paced below capacity, the dispatcher
//     woken after each commit as `serve` wakes it after each write request;
//   - deliveries per second one dispatcher sustains, draining a backlog of N first attempts
//     (the dispatcher was not running);
//   - the time to drain a backlog of N deliveries after a receiver outage: each has one
//     failed try behind it and is due (the state an outage leaves once the receiver is back);
//   - write throughput (one writer, one person per write) without a webhook and with one
//     being delivered to, and their ratio;
//   - (`claim`, not run by default) the time of one claim of up to 512 deliveries over 50
//     webhooks with 20,000 due, first attempts and then retries, its median over 50 claims:
//     the claim's statement alone, no POST (run it on two checkouts to compare them).
// PostgreSQL runs in a fresh database of BENCH_DATABASE_URL (default the local server),
// vacuumed after each drain as autovacuum would (a server with it off, as a test server may
// be, otherwise measures claims wading through the dead rows of the drains before).

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import {
  Dispatcher,
  type DispatcherOptions,
  dispatcherOptions,
} from '../src/dispatch/dispatcher.ts';
import { newId } from '../src/domain/ids.ts';
import { insertPeople } from '../src/resources/people/writes.ts';
import { createWorkspace, insertUsers } from '../src/resources/workspaces/writes.ts';
import { bumpCatalogVersion } from '../src/store/catalog.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { claimDeliveries } from '../src/store/outbox/deliveries.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { countArg, onPostgres, peopleWebhookRow, percentile, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite,postgres' },
    backlog: { type: 'string', default: '20000' },
    writes: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '4' },
    phases: { type: 'string', default: 'latency,first,outage,writes' },
  },
});
const PHASES = ['latency', 'first', 'outage', 'writes', 'claim'];
const phases = new Set(values.phases.split(','));
for (const phase of phases) {
  if (!PHASES.includes(phase)) {
    console.error(`bench:webhooks: no phase '${phase}' (phases: ${PHASES.join(', ')})`);
    process.exit(2);
  }
}
const stores = values.store.split(',') as ('sqlite' | 'postgres')[];
for (const kind of stores) {
  if (kind !== 'sqlite' && kind !== 'postgres') {
    console.error(`bench:webhooks: no store '${kind}' (sqlite, postgres)`);
    process.exit(2);
  }
}
const backlog = countArg('backlog', values.backlog);
const latencyWrites = countArg('writes', values.writes);
const seconds = countArg('seconds', values.seconds);
const WEBHOOKS = [1, 50];
// The receivers listen on this machine's loopback.
const options: DispatcherOptions = { ...dispatcherOptions(loadConfig({})), allowPrivate: true };
const epochMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the receivers' process ----

interface Report {
  unique: number;
  total: number;
  receipts: [string, number][];
}

const receivers: ChildProcess = fork(join(import.meta.dirname, 'webhook-receivers.ts'), ['50'], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const urls = await new Promise<string[]>((resolve, reject) => {
  receivers.once('message', (m: { urls: string[] }) => resolve(m.urls));
  receivers.once('exit', (code) => reject(new Error(`receivers exited with ${code}`)));
});
function ask<T>(message: object, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { t: string }) => {
      if (m.t !== answer) return;
      receivers.off('message', on);
      resolve(m as T);
    };
    receivers.on('message', on);
    receivers.send(message);
  });
}
const reset = (keep: boolean) => receivers.send({ t: 'reset', keep });
const reached = (count: number) =>
  ask<{ at: number; unique: number; total: number }>({ t: 'wait', count }, 'reached');
const report = () => ask<Report>({ t: 'report' }, 'report');

// ---- the database ----

async function openBench(kind: 'sqlite' | 'postgres') {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-webhooks-'));
    const store = openStore(`sqlite:${join(dir, 'bench.db')}`);
    await store.migrate();
    return { store, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `salescrm_bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = (text: string) => onPostgres(server, text);
  await admin(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const store = openStore(url.toString());
  await store.migrate();
  return { store, drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

async function newWorkspace(store: Store, webhooks: number): Promise<string> {
  const workspaceId = await createWorkspace(store, `웹훅 벤치 ${newId()}`);
  await store.transaction((trx) =>
    insertUsers(trx, workspaceId, [{ name: '김관리', email: 'admin@example.com', role: 'admin' }]),
  );
  const now = new Date().toISOString();
  for (let i = 0; i < webhooks; i++) {
    await store.db
      .insertInto('webhooks')
      .values(peopleWebhookRow(workspaceId, urls[i]!, now))
      .execute();
  }
  // The subscriptions are part of the workspace's catalog, as a registration's are.
  await bumpCatalogVersion(store.db, workspaceId);
  return workspaceId;
}

let named = 0;
/** One write creating `n` people (n `생성` events); their ids. */
function createPeople(store: Store, workspaceId: string, n: number): Promise<string[]> {
  return writeWorkspace(store, workspaceId, (w) =>
    insertPeople(
      w,
      Array.from({ length: n }, () => ({ name: `벤치 고객 ${++named}` })),
    ),
  );
}

async function pending(store: Store, workspaceId: string): Promise<number> {
  const row = await sql<{ n: number }>`select count(*) as n from webhook_deliveries
    where workspace_id = ${workspaceId} and status = 'pending'`.execute(store.db);
  return Number(row.rows[0]!.n);
}

// ---- the measurements ----

async function latency(store: Store, webhooks: number) {
  const workspaceId = await newWorkspace(store, webhooks);
  const writes = webhooks === 1 ? latencyWrites : Math.max(20, Math.round(latencyWrites / 4));
  const paceMs = webhooks === 1 ? 10 : 50;
  reset(true);
  const dispatcher = new Dispatcher(store, options);
  dispatcher.start();
  const committed = new Map<string, number>();
  for (let i = 0; i < writes; i++) {
    const [id] = await createPeople(store, workspaceId, 1);
    committed.set(id!, epochMs());
    dispatcher.wake();
    await sleep(paceMs);
  }
  await reached(writes * webhooks);
  const { receipts, unique, total } = await report();
  await dispatcher.stop();
  const ms = receipts.map(([objectId, at]) => at - committed.get(objectId)!).sort((a, b) => a - b);
  return {
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    writes,
    paceMs,
    duplicates: total - unique,
  };
}

/** Deliveries of `webhooks` webhooks, `backlog` in all, created while no dispatcher runs. */
async function makeBacklog(store: Store, workspaceId: string, webhooks: number): Promise<number> {
  const events = Math.ceil(backlog / webhooks);
  for (let made = 0; made < events; made += 200) {
    await createPeople(store, workspaceId, Math.min(200, events - made));
  }
  return events * webhooks;
}

/** PostgreSQL: what autovacuum would do after a drain. */
async function vacuum(store: Store): Promise<void> {
  if (store.dialect === 'postgres')
    await sql`vacuum (analyze) webhook_deliveries`.execute(store.db);
}

async function drain(store: Store, workspaceId: string, deliveries: number) {
  reset(false);
  const started = epochMs();
  const dispatcher = new Dispatcher(store, options);
  dispatcher.start();
  const { at, unique, total } = await reached(deliveries);
  while ((await pending(store, workspaceId)) > 0) await sleep(50);
  const recorded = epochMs();
  await dispatcher.stop();
  await vacuum(store);
  return {
    receivedS: (at - started) / 1000,
    recordedS: (recorded - started) / 1000,
    perSecond: deliveries / ((at - started) / 1000),
    duplicates: total - unique,
    claims: dispatcher.stats.claims,
  };
}

async function firstAttemptBacklog(store: Store, webhooks: number) {
  const workspaceId = await newWorkspace(store, webhooks);
  const deliveries = await makeBacklog(store, workspaceId, webhooks);
  return { deliveries, ...(await drain(store, workspaceId, deliveries)) };
}

async function afterOutage(store: Store, webhooks: number) {
  const workspaceId = await newWorkspace(store, webhooks);
  const deliveries = await makeBacklog(store, workspaceId, webhooks);
  const now = new Date().toISOString();
  await sql`update webhook_deliveries set attempt_count = 1, last_status_code = 503,
      last_error = 'HTTP 503', next_attempt_at = ${now}
    where workspace_id = ${workspaceId} and status = 'pending'`.execute(store.db);
  return { deliveries, ...(await drain(store, workspaceId, deliveries)) };
}

/**
 * The median time of a claim taking up to 512 of a backlog over `webhooks` webhooks, all first
 * attempts, then all retries: each claim's leases let go before the next, so each claims
 * the same rows; the first 10 of each warm up.
 */
async function claimTimes(store: Store, webhooks: number) {
  const workspaceId = await newWorkspace(store, webhooks);
  await makeBacklog(store, workspaceId, webhooks);
  const median = async (attemptCount: number) => {
    await sql`update webhook_deliveries set attempt_count = ${attemptCount}, leased_until = null
      where workspace_id = ${workspaceId}`.execute(store.db);
    await vacuum(store);
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const started = performance.now();
      await claimDeliveries(store, {
        now: new Date().toISOString(),
        leaseUntil: new Date(Date.now() + 30_000).toISOString(),
        limit: 512,
        perWebhook: 64,
        held: new Set(),
        heldOf: () => 0,
        heldIn: () => [],
        mostHeldOfOne: 0,
        likely: true,
        workspaces: [workspaceId],
        holder: 'bench',
      });
      if (i >= 10) times.push(performance.now() - started);
      await sql`update webhook_deliveries set leased_until = null
        where workspace_id = ${workspaceId}`.execute(store.db);
    }
    return percentile(times, 50);
  };
  return { first: await median(0), retries: await median(1) };
}

/** Writes per second of one writer for `ms`. */
async function writeRate(store: Store, workspaceId: string, ms: number, wake?: Dispatcher) {
  let writes = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    await createPeople(store, workspaceId, 1);
    wake?.wake();
    writes += 1;
  }
  return writes;
}

/**
 * Writes per second without a webhook, with one but no dispatcher running (the outbox's
 * own cost: a delivery row per event), and with one being delivered to.
 */
async function writeThroughput(store: Store) {
  const without = await newWorkspace(store, 0);
  const queued = await newWorkspace(store, 1);
  const withOne = await newWorkspace(store, 1);
  reset(false);
  await writeRate(store, without, 500); // warm-up
  const slice = (seconds * 1000) / 2;
  let plain = 0;
  let outbox = 0;
  let hooked = 0;
  // Interleaved, so drift (caches, the machine's other load) falls on all alike.
  for (let round = 0; round < 2; round++) {
    plain += await writeRate(store, without, slice);
    outbox += await writeRate(store, queued, slice);
    const dispatcher = new Dispatcher(store, options);
    dispatcher.start();
    hooked += await writeRate(store, withOne, slice, dispatcher);
    while ((await pending(store, withOne)) > 0) await sleep(50);
    await dispatcher.stop();
  }
  return {
    plain: plain / seconds,
    outbox: outbox / seconds,
    hooked: hooked / seconds,
    ratio: hooked / plain,
  };
}

// ---- the run ----

console.log(
  `webhook dispatch bench: ${cpus().length} cores (load ${loadavg()[0]!.toFixed(1)}), backlog ${backlog.toLocaleString('en-US')}, ` +
    `concurrency ${options.concurrency} (${options.perWebhook} per webhook), poll ${options.pollMs} ms`,
);
try {
  for (const kind of stores) {
    const { store, drop } = await openBench(kind);
    // Interrupted: the database goes too (and the receivers, with the IPC channel).
    const interrupted = () => void drop().finally(() => process.exit(130));
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    try {
      const autovacuum =
        kind === 'postgres'
          ? `, autovacuum ${(await sql<{ autovacuum: string }>`show autovacuum`.execute(store.db)).rows[0]?.autovacuum}`
          : '';
      console.log(`\n== ${kind}${autovacuum}`);
      const rows: (string | number)[][] = [];
      const skipped = '–';
      for (const webhooks of WEBHOOKS) {
        const row: (string | number)[] = [webhooks, skipped, skipped, skipped, skipped, skipped];
        let duplicates = 0;
        if (phases.has('latency')) {
          const l = await latency(store, webhooks);
          console.log(
            `${webhooks} webhook(s): latency over ${l.writes} writes ${l.paceMs} ms apart: p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`,
          );
          row[1] = l.p50;
          row[2] = l.p99;
          duplicates += l.duplicates;
        }
        if (phases.has('first')) {
          const first = await firstAttemptBacklog(store, webhooks);
          console.log(
            `${webhooks} webhook(s): ${first.deliveries} first attempts drained in ${first.receivedS.toFixed(1)} s (recorded ${first.recordedS.toFixed(1)} s), ${first.claims} claims`,
          );
          row[3] = Math.round(first.perSecond);
          duplicates += first.duplicates;
        }
        if (phases.has('outage')) {
          const outage = await afterOutage(store, webhooks);
          console.log(
            `${webhooks} webhook(s): ${outage.deliveries} retries after an outage drained in ${outage.receivedS.toFixed(1)} s (recorded ${outage.recordedS.toFixed(1)} s)`,
          );
          row[4] = `${outage.receivedS.toFixed(1)} s (${Math.round(outage.perSecond)}/s)`;
          duplicates += outage.duplicates;
        }
        if (phases.has('claim') && webhooks > 1) {
          const claim = await claimTimes(store, webhooks);
          console.log(
            `${webhooks} webhook(s): a claim of up to 512 of ${backlog} due, median of 50: first attempts ${claim.first.toFixed(1)} ms, retries ${claim.retries.toFixed(1)} ms`,
          );
        }
        row[5] = duplicates;
        rows.push(row);
      }
      console.log(
        `\n${table(
          [
            'webhooks',
            'commit→receipt p50 ms',
            'p99 ms',
            'first attempts/s sustained',
            `drain ${backlog.toLocaleString('en-US')} after outage`,
            'sent twice',
          ],
          rows,
        )}`,
      );
      if (phases.has('writes')) {
        const w = await writeThroughput(store);
        console.log(
          `\nwrites/s, one writer: ${Math.round(w.plain)} without a webhook, ${Math.round(w.outbox)} with one and no dispatcher, ${Math.round(w.hooked)} with one delivered to (ratio ${w.ratio.toFixed(2)})`,
        );
      }
    } finally {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      await store.close();
      await drop();
    }
  }
} finally {
  receivers.kill('SIGTERM');
}

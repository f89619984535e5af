/**
 * The webhook dispatcher (docs/webhooks.md, Delivery and signatures) against receivers on
 * 127.0.0.1: what a delivery carries and how it is signed, retries after errors, time limits and
 * resets, the end of the schedule, disabling a webhook, two dispatchers on one database, the order
 * of first attempts, and a delivery committed before a crash sent by the next process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { USER_AGENT } from '../src/dispatch/attempt.ts';
import { Dispatcher, type DispatcherOptions } from '../src/dispatch/dispatcher.ts';
import type { DispatchLog } from '../src/dispatch/log.ts';
import { MAX_ANSWER_BYTES, postWebhook } from '../src/dispatch/send.ts';
import { replayDelivery } from '../src/resources/webhooks/commands.ts';
import { bumpCatalogVersion } from '../src/store/catalog.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { WORKSPACES_PER_CLAIM } from '../src/store/outbox/deliveries.ts';
import { DELIVERIES_CHANNEL } from '../src/store/postgres-listener.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { afterWrite } from '../src/store/write-commits.ts';
import { START_MS } from './budgets.ts';
import { makePerson } from './factories.ts';
import {
  post,
  TEST_DIALECT,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';
import {
  answerOk,
  claimHoldingNothing,
  dueMarkOf,
  expectedSignature,
  FAST_DISPATCH,
  holdLock,
  insertWebhook,
  listeningTo,
  type Receiver,
  startReceiver,
  waitFor,
} from './webhook-fixtures.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

let store: TestStore;
let ws: TestWorkspace;
const dispatchers: Dispatcher[] = [];
const receivers: Receiver[] = [];
const stores: Store[] = [];

/** Each test of the calling `describe` gets a fresh database and workspace. */
function freshStore(): void {
  beforeEach(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
  });
  afterEach(async () => {
    // Receivers first: a POST still waiting for one ends at once rather than at its time limit.
    await Promise.all(receivers.splice(0).map((r) => r.close().catch(() => {})));
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await store.dispose();
  });
}

function dispatch(options: Partial<DispatcherOptions> = {}, on: Store = store): Dispatcher {
  const dispatcher = new Dispatcher(on, { ...FAST_DISPATCH, ...options });
  dispatchers.push(dispatcher);
  dispatcher.start();
  return dispatcher;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

/** `n` writes, each creating a person: one `생성` event each. */
async function createPeople(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await ws.write((w) => makePerson(w)));
  return ids;
}

async function deliveries(webhookId?: string) {
  let q = store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('event_seq');
  if (webhookId) q = q.where('webhook_id', '=', webhookId);
  return q.execute();
}

async function attempts(deliveryId: string) {
  return store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();
}

async function webhookRow(id: string) {
  return store.db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function statuses(webhookId?: string): Promise<string[]> {
  return (await deliveries(webhookId)).map((d) => d.status);
}

/** Sets a webhook's status as its update route would (a change of the workspace's catalog). */
async function setWebhookStatus(id: string, status: 'active' | 'disabled'): Promise<void> {
  await store.transaction(async (trx) => {
    await trx
      .updateTable('webhooks')
      .set({ status })
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', id)
      .execute();
    await bumpCatalogVersion(trx, ws.workspaceId);
  });
}

describe(`webhook dispatch (${TEST_DIALECT})`, () => {
  freshStore();

  it('POSTs the stored payload byte for byte, with the Standard Webhooks headers, signed', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const before = Math.floor(Date.now() / 1000);
    await createPeople(1);
    dispatch();
    await waitFor(async () => (await statuses()).join() === 'delivered');
    const after = Math.ceil(Date.now() / 1000);

    expect(r.receipts).toHaveLength(1);
    const receipt = r.receipts[0]!;
    const [delivery] = await deliveries();
    const event = await store.db
      .selectFrom('events')
      .select('payload')
      .where('workspace_id', '=', ws.workspaceId)
      .where('seq', '=', delivery!.event_seq)
      .executeTakeFirstOrThrow();
    expect(receipt.body).toBe(event.payload);
    expect(JSON.parse(receipt.body)).toMatchObject({ event: '생성', objectType: '고객' });
    expect(receipt.id).toBe(delivery!.id);
    // Signed at the send, in seconds: between the write and the delivery's record.
    expect(receipt.timestamp).toMatch(/^\d+$/);
    expect(Number(receipt.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(receipt.timestamp)).toBeLessThanOrEqual(after);
    expect(receipt.headers['content-type']).toBe('application/json');
    expect(receipt.headers['user-agent']).toBe(USER_AGENT);
    expect(receipt.signature).toBe(expectedSignature(hook.secret, receipt));

    expect(delivery).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      leased_until: null,
    });
    expect(delivery!.delivered_at).toEqual(expect.any(String));
    const tries = await attempts(delivery!.id);
    expect(tries).toHaveLength(1);
    expect(tries[0]).toMatchObject({ attempt: 1, status_code: 200, error: null });
  });

  it('is woken by a write committed in this process (no HTTP request) through afterWrite, long before its next poll', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = dispatch({ pollMs: 600_000 });
    const stop = afterWrite(store, () => d.wake());
    try {
      await createPeople(1);
      await waitFor(async () => (await statuses()).join() === 'delivered');
      // Its claims after the first delivery found nothing: it sleeps until woken.
      await createPeople(1);
      await waitFor(async () => (await statuses()).join() === 'delivered,delivered');
    } finally {
      stop();
    }
    expect(r.receipts).toHaveLength(2);
  });

  it("woken for a workspace, looks in that one; another's deliveries wait for a look at every workspace", async () => {
    const woken = await receiver();
    const elsewhere = await receiver();
    const other = await testWorkspace(store);
    await insertWebhook(store, ws.workspaceId, { url: woken.url });
    await insertWebhook(store, other.workspaceId, { url: elsewhere.url });
    const d = dispatch({ pollMs: 600_000 });
    // Its first claim looks in every workspace (nothing is due yet).
    await waitFor(() => d.stats.claims >= 1);
    await other.write((w) => makePerson(w));
    await createPeople(1);
    d.wake(ws.workspaceId);
    await waitFor(async () => (await statuses()).join() === 'delivered');
    expect(woken.receipts).toHaveLength(1);
    expect(elsewhere.receipts).toHaveLength(0);
    // Woken without a workspace: every workspace whose mark is due.
    d.wake();
    await waitFor(() => elsewhere.receipts.length === 1);
    expect(woken.receipts).toHaveLength(1);
  });

  it('takes turns among more due workspaces than a claim looks in: those looked in longest ago first', async () => {
    const ids = [ws.workspaceId];
    for (let i = 0; i < WORKSPACES_PER_CLAIM; i += 1)
      ids.push((await testWorkspace(store)).workspaceId);
    // Every mark due, the first workspace's the earliest.
    const start = Date.now() - 60_000;
    for (const [i, id] of ids.entries()) {
      await store.db
        .updateTable('workspaces')
        .set({ deliveries_due_at: new Date(start + i * 10).toISOString() })
        .where('id', '=', id)
        .execute();
    }
    const now = new Date().toISOString();
    const claim = (lookedIn: (id: string) => number) =>
      claimHoldingNothing(store, { now, likely: true, lookedIn });
    // The earliest mark was looked in last: the one left for the next claim.
    const first = await claim((id) => (id === ids[0] ? 1 : -1));
    expect(first.more).toBe(true);
    expect(first.looked).toHaveLength(WORKSPACES_PER_CLAIM);
    expect(first.looked).not.toContain(ids[0]);
    // Nothing was due in those: their marks put back, the one left is looked in next.
    const second = await claim(() => -1);
    expect(second.looked).toEqual([ids[0]]);
  });

  it('signs with both secrets during a rotation, and with the new one alone after it', async () => {
    const r = await receiver();
    const old = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    const rotating = await insertWebhook(store, ws.workspaceId, {
      url: `${r.url}?rotating`,
      previousSecret: old,
      previousSecretUntil: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const rotated = await insertWebhook(store, ws.workspaceId, {
      url: `${r.url}?rotated`,
      previousSecret: old,
      previousSecretUntil: new Date(Date.now() - 1_000).toISOString(),
    });
    await createPeople(1);
    dispatch();
    await waitFor(() => r.receipts.length === 2);

    const [during] = await deliveries(rotating.id);
    const receipt = r.receipts.find((x) => x.id === during!.id)!;
    const signatures = receipt.signature.split(' ');
    expect(signatures).toEqual([
      expectedSignature(rotating.secret, receipt),
      expectedSignature(old, receipt),
    ]);
    const [after] = await deliveries(rotated.id);
    const alone = r.receipts.find((x) => x.id === after!.id)!;
    expect(alone.signature).toBe(expectedSignature(rotated.secret, alone));
  });

  it('retries after a 500 and is delivered by the next try, the same webhook-id on both', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(r.receipts.length === 1 ? 500 : 200).end('busy');
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch();
    await waitFor(async () => (await statuses()).join() === 'delivered');

    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ attempt_count: 2, last_status_code: 200, last_error: null });
    expect(r.receipts.map((x) => x.id)).toEqual([delivery!.id, delivery!.id]);
    const tries = await attempts(delivery!.id);
    expect(tries.map((t) => [t.attempt, t.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(tries[0]!.error).toBe('HTTP 500: busy');
  });

  it('sends a replayed delivery again at its next look, the same webhook-id', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch();
    await waitFor(async () => (await statuses()).join() === 'delivered');
    const [sent] = await deliveries();
    await writeWorkspace(store, ws.workspaceId, (w) => replayDelivery(w, hook.id, sent!.id));
    await waitFor(async () => r.receipts.length === 2 && (await statuses()).join() === 'delivered');
    expect(r.receipts.map((x) => x.id)).toEqual([sent!.id, sent!.id]);
    expect((await deliveries())[0]).toMatchObject({ attempt_count: 2, leased_until: null });
  });

  it('sends a replay that came during a try once that try ends, not once its lease would', async () => {
    let answerFirst: (() => void) | undefined;
    const r = await receiver((_req, res) => {
      if (r.receipts.length === 1) answerFirst = () => res.writeHead(200).end();
      else res.writeHead(200).end();
    });
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    const d = dispatch();
    await waitFor(() => answerFirst !== undefined);
    const [sending] = await deliveries();
    await writeWorkspace(store, ws.workspaceId, (w) => replayDelivery(w, hook.id, sending!.id));
    answerFirst!();
    // The lease runs 50 s (twice the fixtures' time limit, and 10 s): the wait is shorter.
    expect(d.leaseMs).toBeGreaterThan(40_000);
    await waitFor(async () => r.receipts.length === 2 && (await statuses()).join() === 'delivered');
    expect(r.receipts.map((x) => x.id)).toEqual([sending!.id, sending!.id]);
    // The first try only counted; the replay's delivered.
    expect((await attempts(sending!.id)).map((t) => t.status_code)).toEqual([200, 200]);
  });

  it('records a refused connection and delivers once the receiver is back', async () => {
    const r = await receiver();
    await r.close();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    // Retries 0.5 s apart, eight of them: pending for seconds, however late this test looks.
    const dispatched = Date.now();
    dispatch({ retryDelays: Array.from({ length: 8 }, () => 0.5) });
    await waitFor(async () => (await deliveries())[0]!.attempt_count >= 1);

    const [failing] = await deliveries();
    expect(failing).toMatchObject({ status: 'pending', last_status_code: null });
    expect(failing!.last_error).toMatch(/ECONNREFUSED/);
    // The next try is due a retry delay after a try, each after the dispatcher started (a
    // lower bound: a loaded machine may have made it by the time this reads it).
    expect(Date.parse(failing!.next_attempt_at!)).toBeGreaterThanOrEqual(dispatched + 500);

    await r.reopen();
    await waitFor(async () => (await statuses()).join() === 'delivered');
    expect(r.receipts).toHaveLength(1);
    const tries = await attempts(failing!.id);
    expect(tries.at(-1)).toMatchObject({ status_code: 200 });
    expect(tries.slice(0, -1).every((t) => t.status_code === null)).toBe(true);
  });

  it('ends a try that gets no answer at the time limit, with the error recorded', async () => {
    // Never answers; sees the dispatcher drop the connection.
    let dropped = false;
    const r = await receiver((req) => {
      if (req.socket.destroyed) dropped = true;
      else
        req.socket.once('close', () => {
          dropped = true;
        });
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch({ timeoutMs: 300, retryDelays: [60] });
    await waitFor(async () => (await deliveries())[0]!.attempt_count === 1);

    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: 'timed out after 300 ms',
    });
    const [first] = await attempts(delivery!.id);
    expect(first!.duration_ms).toBeGreaterThanOrEqual(250);
    // Ended by the dispatcher at its limit, not left open: the receiver saw the connection
    // dropped while it still held the request (how soon after 300 ms is the machine's load).
    await waitFor(
      () => dropped,
      undefined,
      () => 'the receiver still holds the try',
    );
  });

  it('retries after the connection is reset', async () => {
    const r = await receiver((req, res) => {
      if (r.receipts.length === 1) req.socket.destroy();
      else answerOk(req, res, r.receipts.at(-1)!);
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch();
    await waitFor(async () => (await statuses()).join() === 'delivered');

    const [delivery] = await deliveries();
    const tries = await attempts(delivery!.id);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.status_code).toBeNull();
    expect(tries[0]!.error).toMatch(/closed|reset|socket/i);
  });

  it('reads no more than 64 KiB of an answer, then drops the connection', async () => {
    let written = 0;
    let cut = false;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => {
        cut = !res.writableFinished;
      });
      const more = () => {
        while (!res.destroyed && written < 512 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });

    const answer = await postWebhook(
      { url: r.url, body: '{}', headers: {} },
      { timeoutMs: 5_000, allowPrivate: true },
    );
    expect(answer).toMatchObject({ statusCode: 200, error: null, bytesRead: MAX_ANSWER_BYTES });
    await waitFor(
      () => cut,
      undefined,
      () => 'the receiver was never cut off',
    );
    expect(written).toBeLessThan(64 * 1024 * 1024);

    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch();
    await waitFor(async () => (await statuses()).join() === 'delivered');
  });

  it('fails a delivery once the schedule is spent, and counts it against the webhook', async () => {
    const r = await receiver((_req, res) => void res.writeHead(503).end());
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(1);
    dispatch({ retryDelays: [0.05, 0.05] });
    await waitFor(async () => (await statuses()).join() === 'failed');

    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      attempt_count: 3,
      last_status_code: 503,
      last_error: 'HTTP 503',
      next_attempt_at: null,
      leased_until: null,
      delivered_at: null,
    });
    expect((await attempts(delivery!.id)).map((t) => t.status_code)).toEqual([503, 503, 503]);
    expect(r.receipts).toHaveLength(3);
    expect(await webhookRow(hook.id)).toMatchObject({ failure_streak: 1, status: 'active' });
  });

  it('disables a webhook after ten failed deliveries in a row; a delivered one starts the count over', async () => {
    let ok = false;
    const r = await receiver((_req, res) => void res.writeHead(ok ? 200 : 500).end());
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    dispatch({ retryDelays: [] });

    await createPeople(9);
    await waitFor(async () => (await statuses()).filter((s) => s === 'failed').length === 9);
    expect(await webhookRow(hook.id)).toMatchObject({ failure_streak: 9, status: 'active' });

    ok = true;
    await createPeople(1);
    await waitFor(async () => (await statuses()).includes('delivered'));
    expect(await webhookRow(hook.id)).toMatchObject({ failure_streak: 0, status: 'active' });

    ok = false;
    await createPeople(10);
    await waitFor(async () => (await webhookRow(hook.id)).status === 'disabled');
    expect(await webhookRow(hook.id)).toMatchObject({ failure_streak: 10 });
    expect((await statuses()).filter((s) => s === 'failed')).toHaveLength(19);
  });

  it('leaves a disabled webhook’s deliveries pending, and sends them once it is active again', async () => {
    const r = await receiver();
    const off = await insertWebhook(store, ws.workspaceId, { url: `${r.url}?off` });
    const on = await insertWebhook(store, ws.workspaceId, { url: `${r.url}?on` });
    await createPeople(2);
    await setWebhookStatus(off.id, 'disabled');
    dispatch();
    await waitFor(async () => (await statuses(on.id)).join() === 'delivered,delivered');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.receipts).toHaveLength(2);
    expect(await deliveries(off.id)).toMatchObject([
      { status: 'pending', attempt_count: 0, leased_until: null },
      { status: 'pending', attempt_count: 0, leased_until: null },
    ]);

    await setWebhookStatus(off.id, 'active');
    await waitFor(async () => (await statuses(off.id)).join() === 'delivered,delivered');
    expect(r.receipts).toHaveLength(4);
  });

  it('two dispatchers on one database never send a first attempt twice', async () => {
    const r = await receiver();
    const hooks = [];
    for (let i = 0; i < 3; i++) {
      hooks.push(await insertWebhook(store, ws.workspaceId, { url: `${r.url}?${i}` }));
    }
    // SQLite: one connection per process; in one process, the two share it (and the lease
    // lets one of them claim). PostgreSQL: a pool each, claiming side by side.
    const second = TEST_DIALECT === 'postgres' ? openStore(store.url) : store;
    if (second !== store) stores.push(second);
    const a = dispatch({ concurrency: 4, perWebhook: 2 });
    const b = dispatch({ concurrency: 4, perWebhook: 2 }, second);
    for (let i = 0; i < 40; i++) {
      await createPeople(1);
      a.wake();
      b.wake();
    }
    await waitFor(
      async () => (await statuses()).filter((s) => s === 'delivered').length === 120,
      undefined,
      () => `${r.receipts.length} receipts`,
    );
    const counts = new Map<string, number>();
    for (const x of r.receipts) counts.set(x.id, (counts.get(x.id) ?? 0) + 1);
    expect(counts.size).toBe(120);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    if (TEST_DIALECT === 'postgres') {
      // Side by side: both claimed, and together they sent each delivery once. Which one
      // sends what is timing: a dispatcher claims up to 64 deliveries ahead, and a
      // webhook's first attempts go in order, so the first to claim may take them all.
      expect(a.stats.sent + b.stats.sent).toBe(120);
      expect(Math.min(a.stats.claims, b.stats.claims)).toBeGreaterThan(0);
    }
  });

  it('two dispatchers woken at each write send a webhook’s first attempts once each, in event order', async () => {
    // Each write wakes both for its workspace: their claims race for the same webhook's
    // deliveries, each seeing the other's leases (PostgreSQL: side by side; SQLite: the lease
    // lets one claim).
    const r = await receiver((req, res) => {
      setTimeout(() => answerOk(req, res, r.receipts.at(-1)!), Math.random() * 3);
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const second = TEST_DIALECT === 'postgres' ? openStore(store.url) : store;
    if (second !== store) stores.push(second);
    const a = dispatch({ concurrency: 4, perWebhook: 2, pollMs: 600_000 });
    const b = dispatch({ concurrency: 4, perWebhook: 2, pollMs: 600_000 }, second);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(...(await createPeople(1)));
      a.wake(ws.workspaceId);
      b.wake(ws.workspaceId);
    }
    await waitFor(
      async () => (await statuses()).filter((s) => s === 'delivered').length === 30,
      undefined,
      () => `${r.receipts.length} receipts`,
    );
    expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
  });

  it('puts a workspace’s due mark back once its tries are recorded, and never waits for a write holding it', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const due = () => dueMarkOf(store, ws.workspaceId);
    const d = dispatch({ pollMs: 600_000 });
    await createPeople(2);
    expect(await due()).not.toBeNull();
    d.wake(ws.workspaceId);
    // The record of the two tries puts the mark back: nothing is left to look in.
    await waitFor(async () => (await statuses()).join() === 'delivered,delivered');
    await waitFor(async () => (await due()) === null);
    if (TEST_DIALECT !== 'postgres') return;
    // A write in progress holds the workspace's row: the record goes on without it (the mark
    // stays due, for a look to put back), rather than waiting for the write's commit.
    const writer = openStore(store.url);
    stores.push(writer);
    const writing = await holdLock(writer, (trx) =>
      trx
        .selectFrom('workspaces')
        .select('id')
        .where('id', '=', ws.workspaceId)
        .forUpdate()
        .execute(),
    );
    try {
      await store.db
        .insertInto('webhook_deliveries')
        .values({
          workspace_id: ws.workspaceId,
          id: 'held-row-delivery',
          webhook_id: (await store.db.selectFrom('webhooks').select('id').executeTakeFirstOrThrow())
            .id,
          event_seq: 1,
          status: 'pending',
          attempt_count: 0,
          last_status_code: null,
          last_error: null,
          next_attempt_at: new Date().toISOString(),
          leased_until: null,
          delivered_at: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      d.wake(ws.workspaceId);
      await waitFor(async () => (await statuses()).every((s) => s === 'delivered'));
      await waitFor(() => d.stats.delivered === 3 && r.receipts.length === 3);
    } finally {
      await writing.release();
    }
  });

  it('a claim over every due workspace passes over those the dispatcher says it just looked in', async () => {
    const other = await testWorkspace(store);
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/a' });
    await insertWebhook(store, other.workspaceId, { url: 'http://127.0.0.1:9/b' });
    await createPeople(1);
    await other.write((w) => makePerson(w));
    const claim = await claimHoldingNothing(store, { passOver: (id) => id === ws.workspaceId });
    expect(claim.looked).toEqual([other.workspaceId]);
    expect(claim.deliveries.map((x) => x.workspaceId)).toEqual([other.workspaceId]);
  });

  for (const perWebhook of [1, 4]) {
    it(`sends a webhook’s first attempts in event order (per-webhook concurrency ${perWebhook})`, async () => {
      const r = await receiver((_req, res) => {
        setTimeout(() => answerOk(_req, res, r.receipts.at(-1)!), Math.random() * 5);
      });
      await insertWebhook(store, ws.workspaceId, { url: r.url });
      const ids = await createPeople(30);
      dispatch({ perWebhook, concurrency: 8 });
      await waitFor(() => r.receipts.length === 30);
      expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
    });
  }

  it('does not crash when the database cannot be reached: it logs and backs off', async () => {
    const errors: string[] = [];
    /** When each error was logged (`performance.now()`). */
    const at: number[] = [];
    const log: DispatchLog = {
      debug() {},
      info() {},
      warn() {},
      error: (_context, message) => {
        errors.push(message);
        at.push(performance.now());
      },
    };
    const dead = openStore('postgres://postgres@127.0.0.1:1/nowhere');
    stores.push(dead);
    const d = dispatch({ log, pollMs: 10 }, dead);
    await waitFor(() => errors.length >= 3);
    await d.stop();
    expect(errors[0]).toMatch(/cannot be reached/);
    // 100, then 200 ms apart at least (a loaded machine only makes them further apart): a
    // handful, not one per 10 ms poll.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(95);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(195);
  });

  it.skipIf(TEST_DIALECT === 'postgres')(
    'SQLite: a dispatcher takes the dispatch lease over once its holder’s has expired',
    async () => {
      const r = await receiver();
      await insertWebhook(store, ws.workspaceId, { url: r.url });
      await store.db
        .insertInto('dispatch_leases')
        .values({
          name: 'webhooks',
          holder: 'a dead process',
          expires_at: new Date(Date.now() + 400).toISOString(),
        })
        .execute();
      await createPeople(1);
      const started = Date.now();
      const d = dispatch();
      await waitFor(() => r.receipts.length === 1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      const lease = await store.db.selectFrom('dispatch_leases').selectAll().executeTakeFirst();
      expect(lease?.holder).toBe(d.id);
      await d.stop();
      expect(await store.db.selectFrom('dispatch_leases').selectAll().execute()).toEqual([]);
    },
  );
});

describe('one webhook POST', () => {
  it('does not follow a redirect: a 3xx is a failed try, its target named', async () => {
    const target = await startReceiver();
    const r = await startReceiver((_req, res) => {
      res.writeHead(302, { location: target.url }).end();
    });
    try {
      const answer = await postWebhook(
        { url: r.url, body: '{}', headers: {} },
        { timeoutMs: 2_000, allowPrivate: true },
      );
      expect(answer).toMatchObject({
        statusCode: 302,
        error: `HTTP 302 (redirect to ${target.url} not followed)`,
      });
      expect(target.receipts).toHaveLength(0);
    } finally {
      await r.close();
      await target.close();
    }
  });

  it("sends nothing to the Fetch standard's bad ports (SMTP's, say), as when deliveries went through fetch", async () => {
    for (const url of ['http://127.0.0.1:25/hook', 'https://example.com:6667/hook']) {
      const answer = await postWebhook(
        { url, body: '{}', headers: {} },
        { timeoutMs: 2_000, allowPrivate: true },
      );
      expect(answer.statusCode, url).toBeNull();
      expect(answer.error, url).toMatch(/bad port/);
    }
  });

  it('names an address that is not a URL', async () => {
    const answer = await postWebhook(
      { url: 'not a url', body: '{}', headers: {} },
      { timeoutMs: 500, allowPrivate: true },
    );
    expect(answer.statusCode).toBeNull();
    expect(answer.error).toMatch(/url/i);
  });

  it('without WEBHOOK_ALLOW_PRIVATE, sends nothing to a private address, by IP or by a name resolved at the send', async () => {
    const r = await receiver();
    try {
      const port = new URL(r.url).port;
      for (const url of [r.url, `http://localhost:${port}/hook`]) {
        const answer = await postWebhook(
          { url, body: '{}', headers: {} },
          { timeoutMs: 2_000, allowPrivate: false },
        );
        expect(answer.statusCode, url).toBeNull();
        expect(answer.error, url).toMatch(/127\.0\.0\.1|::1/);
        expect(answer.error, url).toMatch(/loopback/);
      }
      expect(r.receipts).toHaveLength(0);
      // The same URL with the setting on is sent.
      const sent = await postWebhook(
        { url: r.url, body: '{}', headers: {} },
        { timeoutMs: 2_000, allowPrivate: true },
      );
      expect(sent.statusCode).toBe(200);
      expect(r.receipts).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('without WEBHOOK_ALLOW_PRIVATE, sends nothing to an IPv6 address that carries a private IPv4', async () => {
    const r = await receiver();
    try {
      const port = new URL(r.url).port;
      const cases: [string, RegExp][] = [
        [`http://[::127.0.0.1]:${port}/hook`, /::7f00:1 is a ipv4Compatible address/],
        ['http://[::a9fe:a9fe]/latest/meta-data', /::a9fe:a9fe is a ipv4Compatible address/],
        [`http://[64:ff9b::7f00:1]:${port}/hook`, /rfc6052/],
        [`http://[2002:7f00:1::1]:${port}/hook`, /6to4/],
      ];
      for (const [url, why] of cases) {
        const answer = await postWebhook(
          { url, body: '{}', headers: {} },
          { timeoutMs: 2_000, allowPrivate: false },
        );
        expect(answer.statusCode, url).toBeNull();
        expect(answer.error, url).toMatch(why);
      }
      expect(r.receipts).toHaveLength(0);
    } finally {
      await r.close();
    }
  });
});

describe('webhook settings', () => {
  it('reads WEBHOOK_RETRY_DELAYS as seconds, fractions allowed, with the default when unset', () => {
    expect(loadConfig({}).webhookRetryDelays).toEqual([
      10, 60, 300, 600, 1800, 3600, 7200, 14400, 28800, 43200,
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: '0.05, 0.1,2' }).webhookRetryDelays).toEqual([
      0.05, 0.1, 2,
    ]);
    for (const bad of ['10,,60', '10s', '-1', 'abc', '1e3', '999999999']) {
      expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: '10,x' })).toThrow(
      "WEBHOOK_RETRY_DELAYS must be seconds, comma separated (e.g. 10,60,300): 'x' is not a number of seconds from 0 to 604800, in '10,x'",
    );
  });

  it('reads the other webhook settings, and refuses bad values', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      webhookDispatch: true,
      webhookTimeoutMs: 10_000,
      webhookConcurrency: 32,
      webhookConcurrencyPerWebhook: 4,
      webhookPollMs: 250,
    });
    expect(loadConfig({ WEBHOOK_DISPATCH: '0' }).webhookDispatch).toBe(false);
    expect(() => loadConfig({ WEBHOOK_DISPATCH: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(config.webhookSendGapMs).toBeUndefined();
    expect(loadConfig({ WEBHOOK_SEND_GAP_MS: '5' }).webhookSendGapMs).toBe(5);
    expect(loadConfig({ WEBHOOK_SEND_GAP_MS: '0' }).webhookSendGapMs).toBe(0);
    expect(() => loadConfig({ WEBHOOK_SEND_GAP_MS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_SEND_GAP_MS: '5000' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_SEND_GAP_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_SEND_GAP_MS: '2.5' })).toThrow(ConfigError);
  });
});

describe(`a delivery committed before a crash (${TEST_DIALECT})`, () => {
  freshStore();
  const ROOT = join(import.meta.dirname, '..');
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function run(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, [...salescrmArgs(), ...args], {
      cwd: ROOT,
      // Load shedding off: a fresh process on a busy machine may read its start-up as
      // overload and answer the test's writes 503 (the other process suites do the same).
      env: {
        ...process.env,
        DATABASE_URL: store.url,
        LOG_LEVEL: 'warn',
        OVERLOAD_DELAY_MS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    return { child, out: () => out, exited };
  }

  // Two processes start, each within START_MS (a loaded machine takes over 10 s); the rest
  // is quick.
  it('is sent by `salescrm dispatch` after `serve` was killed', {
    timeout: 3 * START_MS,
  }, async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });

    const server = run(['serve', '--port', '0'], { WEBHOOK_DISPATCH: '0' });
    await waitFor(
      () => /listening on (\S+)/.test(server.out()) || server.child.exitCode !== null,
      START_MS,
      () => server.out(),
    );
    const url = /listening on (\S+)/.exec(server.out())?.[1];
    expect(url, server.out()).toBeDefined();
    const res = await fetch(`${url}/v2/people`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '재시작 고객' }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    await waitFor(async () => (await statuses()).join() === 'pending');
    server.child.kill('SIGKILL');
    await server.exited;
    expect(r.receipts).toHaveLength(0);

    // The receiver listens on 127.0.0.1: the dispatcher may send there only with the setting.
    // Its metrics on a port of their own, as `serve`'s.
    const dispatcher = run(['dispatch'], {
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_ALLOW_PRIVATE: '1',
      METRICS_PORT: '0',
    });
    await waitFor(
      async () => (await statuses()).join() === 'delivered',
      START_MS,
      () => dispatcher.out(),
    );
    expect(r.receipts).toHaveLength(1);
    expect(JSON.parse(r.receipts[0]!.body)).toMatchObject({ event: '생성', source: 'API' });
    const metricsUrl = /metrics on (\S+)/.exec(dispatcher.out())?.[1];
    expect(metricsUrl, dispatcher.out()).toBeDefined();
    // The try is recorded (the row says so); its place is freed just after.
    let metrics = '';
    await waitFor(
      async () => {
        metrics = await (await fetch(metricsUrl!)).text();
        return /^salescrm_webhook_deliveries_held 0$/m.test(metrics);
      },
      undefined,
      () => metrics,
    );
    expect(metrics).toMatch(/^salescrm_webhook_tries_total\{outcome="delivered"\} 1$/m);
    expect(metrics).toMatch(/^salescrm_webhook_deliveries_due 0$/m);
    dispatcher.child.kill('SIGTERM');
    expect(await dispatcher.exited).toBe(0);
  });

  it.runIf(TEST_DIALECT === 'postgres')(
    'claims at once, on PostgreSQL, where a write of another process left deliveries, with no poll',
    { timeout: 2 * START_MS },
    async () => {
      const r = await receiver();
      await insertWebhook(store, ws.workspaceId, { url: r.url });
      // Due before it starts: sent by its first look, which is over once it is received.
      await ws.write((w) => makePerson(w));
      // Its next look a minute away, past the wait for the second delivery below.
      const dispatcher = run(['dispatch'], {
        WEBHOOK_POLL_MS: '60000',
        WEBHOOK_ALLOW_PRIVATE: '1',
      });
      await waitFor(
        () => r.receipts.length === 1,
        START_MS,
        () => dispatcher.out(),
      );
      await waitFor(
        async () => (await listeningTo(store, DELIVERIES_CHANNEL)).length > 0,
        START_MS,
        () => dispatcher.out(),
      );
      // This process runs no dispatcher: its write leaves the delivery to a claim.
      await ws.write((w) => makePerson(w));
      await waitFor(
        () => r.receipts.length === 2,
        undefined,
        () => dispatcher.out(),
      );
      dispatcher.child.kill('SIGTERM');
      expect(await dispatcher.exited).toBe(0);
    },
  );
});

// The API answers writes while a receiver hangs: the dispatcher holds no transaction.
describe(`a hanging receiver (${TEST_DIALECT})`, () => {
  freshStore();
  /** How long the receiver holds a POST: longer than five writes take on a loaded machine. */
  const HANG_MS = 60_000;

  // The writes end while the receiver still holds the dispatcher's POST: they did not wait
  // for it. (Its time limit is past the writes' guard, so that writes held by it would end
  // after it, and fail here, rather than time the test out.)
  it('does not slow the API’s writes', { timeout: 2 * HANG_MS }, async () => {
    let held = 0;
    let dropped = false;
    const r = await receiver((req) => {
      held += 1;
      req.socket.once('close', () => {
        dropped = true;
      });
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const app = await testApp(store);
    try {
      dispatch({ timeoutMs: HANG_MS, allowPrivate: true });
      await createPeople(3);
      await waitFor(() => held >= 1);
      for (let i = 0; i < 5; i++) {
        const res = await post(app, ws.token, '/v2/people', { name: `고객 ${i}` });
        expect(res.status).toBeLessThan(300);
      }
      expect(dropped, 'the writes waited for the hanging receiver').toBe(false);
    } finally {
      await app.close();
    }
  });
});

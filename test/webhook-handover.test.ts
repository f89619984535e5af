/**
 * A write's deliveries leased to its own process's dispatcher in the write's transaction
 * (docs/deploy.md, Webhook delivery): sent with no claim, in event order behind what
 * the dispatcher holds, left to a claim when the webhook has a first attempt pending that the
 * dispatcher does not hold, let go by a dispatcher that stops, and sent by another dispatcher
 * once the lease of one that died ends.
 */
import { describe, expect, it } from 'vitest';
import { attachToWrites } from '../src/dispatch/attach.ts';
import { changeWebhook, rotateWebhookSecret } from '../src/resources/webhooks/commands.ts';
import { openStore } from '../src/store/database.ts';
import {
  type DeliveryTaker,
  type Handover,
  handDeliveriesTo,
} from '../src/store/outbox/handover.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makeOrganization, makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import {
  answerOk,
  dueMarkOf,
  expectedSignature,
  insertWebhook,
  perTestWebhooks,
  waitFor,
} from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

const { dispatcher, attach, receiver } = perTestWebhooks(cleanups, () => store);

/** Makes this process's writes lease their deliveries to `taker`, until the test ends. */
function handTo(taker: DeliveryTaker): void {
  cleanups.push(handDeliveriesTo(store, taker));
}

async function createPeople(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await ws.write((w) => makePerson(w)));
  return ids;
}

async function rows() {
  return store.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'leased_until', 'event_seq'])
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('event_seq')
    .execute();
}

/**
 * The workspace's delivery log in event order: its delivery rows, and the first attempts a
 * dispatcher streamed and sent with no row (`webhook_sent`), which read as delivered.
 */
async function log(): Promise<{ id: string; status: string; event_seq: number }[]> {
  const sent = await store.db
    .selectFrom('webhook_sent')
    .select(['id', 'event_seq'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  return [
    ...(await rows()),
    ...sent.map((r) => ({ id: r.id, status: 'delivered', event_seq: r.event_seq })),
  ].sort((a, b) => Number(a.event_seq) - Number(b.event_seq));
}

async function statuses(): Promise<string> {
  return (await log()).map((r) => r.status).join();
}

/** A taker that keeps what it is handed and sends nothing: a process that dies after its write. */
function keeper(leaseMs: number): DeliveryTaker & { handed: Handover[] } {
  const handed: Handover[] = [];
  return {
    leaseMs,
    handed,
    heldIdsOf: () => handed.flatMap((h) => h.deliveries.map((d) => d.id)),
    take: (h) => void handed.push(h),
  };
}

describe(`deliveries a write hands to its process's dispatcher (${TEST_DIALECT})`, () => {
  it('are leased in the write and sent with no claim, in event order', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = dispatcher();
    attach(d);
    // Its first look at every due workspace, at its start: nothing due.
    await waitFor(() => d.stats.claims >= 1);
    const claims = d.stats.claims;
    const ids = await createPeople(5);
    // Leased as the write committed, before anything was sent.
    await waitFor(
      async () => (await statuses()) === 'delivered,delivered,delivered,delivered,delivered',
    );
    expect(d.stats.taken).toBe(5);
    expect(d.stats.claims).toBe(claims);
    expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
  });

  it("go where the webhook is now, signed by its secrets now: a new URL and a rotation reach the next write's", async () => {
    const before = await receiver();
    const after = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: before.url });
    const d = dispatcher();
    attach(d);
    await createPeople(1);
    await waitFor(() => before.receipts.length === 1);
    expect(before.receipts[0]!.signature).toBe(expectedSignature(hook.secret, before.receipts[0]!));
    await ws.write((w) => changeWebhook(w, hook.id, { url: after.url }));
    const rotated = await ws.write((w) => rotateWebhookSecret(w, hook.id));
    await createPeople(1);
    await waitFor(() => after.receipts.length === 1);
    const receipt = after.receipts[0]!;
    // The new secret's signature, then the previous one's while it still signs.
    expect(receipt.signature).toBe(
      `${expectedSignature(rotated.secret, receipt)} ${expectedSignature(hook.secret, receipt)}`,
    );
    expect(before.receipts).toHaveLength(1);
    // Both handed over by their writes, neither claimed.
    expect(d.stats.taken).toBe(2);
  });

  it('leave a webhook to a claim while it has a first attempt pending that the dispatcher does not hold', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const early = await createPeople(1);
    // Another process's dispatcher holds it.
    const lease = (until: string | null) =>
      store.db
        .updateTable('webhook_deliveries')
        .set({ leased_until: until })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', first.id)
        .execute();
    const [first] = await rows();
    await lease(new Date(Date.now() + 600_000).toISOString());
    const d = dispatcher();
    attach(d);
    await waitFor(() => d.stats.claims >= 1);
    const later = await createPeople(1);
    expect((await rows())[1]!.leased_until).toBeNull();
    expect(d.stats.taken).toBe(0);
    // The other lets it go: a claim takes both, in event order.
    await lease(null);
    d.wake(ws.workspaceId);
    await waitFor(async () => (await statuses()) === 'delivered,delivered');
    expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual([...early, ...later]);
  });

  it('queue behind the first attempts of the webhook the dispatcher holds, in event order', async () => {
    // The receiver holds each answer a moment, so that writes come while earlier ones are held.
    const r = await receiver((req, res) => {
      setTimeout(() => answerOk(req, res, r.receipts.at(-1)!), 5 + Math.random() * 5);
    });
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = dispatcher({ perWebhook: 2 });
    attach(d);
    await waitFor(() => d.stats.claims >= 1);
    const ids = await Promise.all(Array.from({ length: 4 }, async () => createPeople(5))).then(
      (lists) => lists.flat(),
    );
    await waitFor(async () => (await statuses()) === Array(20).fill('delivered').join());
    expect(d.stats.taken).toBeGreaterThan(0);
    // Event order, whatever order the writes committed in: by the events' numbers.
    const bySeq = (await log()).map((x) => x.id);
    expect(r.receipts.map((x) => x.id)).toEqual(bySeq);
    expect(new Set(r.receipts.map((x) => JSON.parse(x.body).objectId))).toEqual(new Set(ids));
  });

  // Two processes in one: two pools on PostgreSQL (two SQLite connections in one process would
  // wait for one another's locks with the event loop blocked).
  it.skipIf(TEST_DIALECT !== 'postgres')(
    'from two processes writing to one webhook go out once each, in event order',
    async () => {
      // Each process's writes hand over to its own dispatcher; a write that sees the other's
      // first attempts pending leaves its own to a claim.
      const r = await receiver((req, res) => {
        setTimeout(() => answerOk(req, res, r.receipts.at(-1)!), Math.random() * 3);
      });
      await insertWebhook(store, ws.workspaceId, { url: r.url });
      const other = openStore(store.url);
      cleanups.push(() => other.close());
      // A claim held back behind the other's first attempts waits for a poll.
      const a = dispatcher({ perWebhook: 2, pollMs: 50 });
      const b = dispatcher({ perWebhook: 2, pollMs: 50 }, other);
      attach(a);
      cleanups.push(attachToWrites(other, b));
      await waitFor(() => a.stats.claims >= 1 && b.stats.claims >= 1);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        // The first write finds nothing pending, so its process's dispatcher takes it
        // whatever the machine's pace; later ones take turns with the other process.
        const on = i % 3 === 2 ? other : store;
        ids.push(await writeWorkspace(on, ws.workspaceId, (w) => makePerson(w)));
      }
      await waitFor(
        async () => (await rows()).every((x) => x.status === 'delivered'),
        undefined,
        () => `${r.receipts.length} receipts`,
      );
      expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
      expect(a.stats.taken).toBeGreaterThan(0);
    },
  );

  it('do not keep a claim from a retry due in their workspace while writes keep handing them over', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: `${r.url}?people` });
    await insertWebhook(store, ws.workspaceId, {
      url: `${r.url}?organizations`,
      objectTypes: ['organization'],
    });
    // Another webhook's delivery, whose first try failed: its retry is due in 100 ms.
    await ws.write((w) => makeOrganization(w));
    const [retry] = await rows();
    await store.db
      .updateTable('webhook_deliveries')
      .set({ attempt_count: 1, next_attempt_at: new Date(Date.now() + 100).toISOString() })
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', retry!.id)
      .execute();
    const d = dispatcher({ pollMs: 50 });
    attach(d);
    // Writes of people, each handing its delivery over, faster than the dispatcher polls.
    const retried = () => r.receipts.some((x) => x.id === retry!.id);
    const until = Date.now() + 20_000;
    while (!retried() && Date.now() < until) await createPeople(1);
    expect(retried()).toBe(true);
    expect(d.stats.taken).toBeGreaterThan(0);
  });

  it('are sent by another dispatcher once the lease of one that died ends', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const dead = keeper(400);
    handTo(dead);
    await createPeople(2);
    expect(dead.handed.flatMap((h) => h.deliveries)).toHaveLength(2);
    const leased = await rows();
    expect(leased.every((x) => x.leased_until !== null)).toBe(true);
    const taken = Date.now();
    // Another process's dispatcher, polling: the workspace is due again when the lease ends.
    const other = TEST_DIALECT === 'postgres' ? openStore(store.url) : store;
    if (other !== store) cleanups.push(() => other.close());
    dispatcher({ pollMs: 20 }, other);
    await waitFor(async () => (await statuses()) === 'delivered,delivered');
    expect(Date.now() - taken).toBeGreaterThanOrEqual(300);
    expect(r.receipts).toHaveLength(2);
  });

  it('are let go, not sent, by a dispatcher that stopped before it took them', async () => {
    const r = await receiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const writer = keeper(60_000);
    handTo(writer);
    // No mark yet (the webhook's insert marked the workspace due now).
    await store.db
      .updateTable('workspaces')
      .set({ deliveries_due_at: null })
      .where('id', '=', ws.workspaceId)
      .execute();
    await createPeople(1);
    expect((await rows())[0]!.leased_until).not.toBeNull();
    // Every delivery of the write leased: its workspace is due when the lease ends.
    const dueAt = () => dueMarkOf(store, ws.workspaceId);
    expect((await dueAt())! > new Date(Date.now() + 30_000).toISOString()).toBe(true);
    const d = dispatcher();
    await d.stop();
    d.take(writer.handed[0]!);
    await waitFor(async () => (await rows())[0]!.leased_until === null);
    expect(await statuses()).toBe('pending');
    expect(r.receipts).toHaveLength(0);
    // Let go: due now, for another dispatcher's next look rather than at the lease's end.
    expect((await dueAt())! <= new Date().toISOString()).toBe(true);
  });
});

describe(`the due mark a write leaves (${TEST_DIALECT})`, () => {
  const mark = () => dueMarkOf(store, ws.workspaceId);

  async function setMark(at: string | null): Promise<void> {
    await store.db
      .updateTable('workspaces')
      .set({ deliveries_due_at: at })
      .where('id', '=', ws.workspaceId)
      .execute();
  }

  it('is its deliveries’ time when it leases none, and the lease’s end when it leases them all', async () => {
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    await setMark(null);
    await createPeople(1);
    const [unleased] = await rows();
    expect(unleased!.leased_until).toBeNull();
    const created = await store.db
      .selectFrom('webhook_deliveries')
      .select('created_at')
      .where('id', '=', unleased!.id)
      .executeTakeFirstOrThrow();
    expect(await mark()).toBe(created.created_at);

    // Sent (as far as the write can tell), so nothing of the webhook's is pending.
    await store.db.deleteFrom('webhook_deliveries').execute();
    await setMark(null);
    handTo(keeper(60_000));
    await createPeople(1);
    const [leased] = await rows();
    expect(leased!.leased_until).not.toBeNull();
    expect(await mark()).toBe(leased!.leased_until);
  });

  it('is never moved later, and is brought forward to now by a change of the webhooks', async () => {
    const hook = await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    const earlier = '2001-01-01T00:00:00.000Z';
    await setMark(earlier);
    await createPeople(1);
    expect(await mark()).toBe(earlier);

    await setMark(null);
    const before = new Date().toISOString();
    await ws.write((w) => changeWebhook(w, hook.id, { url: 'http://127.0.0.1:9/other' }));
    const now = await mark();
    expect(now).not.toBeNull();
    expect(now! >= before && now! <= new Date().toISOString()).toBe(true);

    // A write with no webhook that wants its events leaves the mark as it is.
    await store.db.deleteFrom('webhooks').execute();
    await setMark(null);
    await createPeople(1);
    expect(await mark()).toBeNull();
  });
});

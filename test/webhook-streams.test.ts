/**
 * Streamed first attempts (docs/webhooks.md, Streamed first attempts): once a dispatcher
 * holds a webhook's stream, its process's writes hand it their first attempts with no
 * delivery row; a try answered 2xx leaves one sent row, the delivery log and replay read it,
 * any other answer makes a delivery row that is retried; a stream whose holder died is
 * recovered by a claim once its lease ends; a dispatcher that stops lets its streams go;
 * pruning keeps the events past a held stream's mark.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { attachToWrites } from '../src/dispatch/attach.ts';
import { replayDelivery } from '../src/resources/webhooks/commands.ts';
import { deliveryPage } from '../src/resources/webhooks/queries.ts';
import type { DeliveryTaker, Handover } from '../src/store/outbox/handover.ts';
import { handDeliveriesTo } from '../src/store/outbox/handover.ts';
import { pruneEvents } from '../src/store/outbox/prune.ts';
import { recoverStream } from '../src/store/outbox/streams.ts';
import { makeOrganization, makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import {
  answerOk,
  insertWebhook,
  perTestWebhooks,
  type Receiver,
  waitFor,
} from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

const { dispatcher, receiver } = perTestWebhooks(cleanups, () => store);

async function createPeople(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await ws.write((w) => makePerson(w)));
  return ids;
}

async function deliveryRows() {
  return store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('event_seq')
    .execute();
}

/**
 * A webhook to `r`, and a polling dispatcher joined to the writes that holds its stream
 * (after a first write, whose delivery has a row).
 */
async function streaming(r: Receiver) {
  const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
  // Polling: rows made later (retries, replays) are due at once or soon.
  const d = dispatcher({ pollMs: 20 });
  cleanups.push(attachToWrites(store, d));
  await createPeople(1);
  await waitFor(async () => (await stream(hook.id))?.holder === d.id);
  return { hook, d };
}

/** Waits until the workspace has `count` delivery rows, the last delivered. */
async function untilDelivered(count: number, r: Receiver): Promise<void> {
  let seen = '';
  await waitFor(
    async () => {
      const rows = await deliveryRows();
      seen = JSON.stringify(rows);
      return rows.length === count && rows[count - 1]!.status === 'delivered';
    },
    undefined,
    () => `${seen}, ${r.receipts.length} receipts`,
  );
}

async function stream(webhookId: string) {
  return store.db
    .selectFrom('webhook_streams')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

async function lastEvent(): Promise<number> {
  const row = await store.db
    .selectFrom('workspaces')
    .select('event_seq')
    .where('id', '=', ws.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.event_seq);
}

/** Makes `holder` hold the webhook's stream until `leaseEndsMs`, its mark `seq`. */
async function holdStream(webhookId: string, holder: string, seq: number, leaseEndsMs: number) {
  await store.db
    .insertInto('webhook_streams')
    .values({
      workspace_id: ws.workspaceId,
      webhook_id: webhookId,
      seq,
      holder,
      leased_until: new Date(leaseEndsMs).toISOString(),
    })
    .execute();
}

/** Makes the database refuse every `webhook_sent` row (a record that fails, not for a lost connection). */
async function refuseSentRows(): Promise<void> {
  if (TEST_DIALECT === 'sqlite') {
    await sql`create trigger refuse_sent before insert on webhook_sent
      begin select raise(abort, 'refused by the test'); end`.execute(store.db);
    return;
  }
  await sql`create function refuse_sent() returns trigger language plpgsql
    as $$ begin raise exception 'refused by the test'; end $$`.execute(store.db);
  await sql`create trigger refuse_sent before insert on webhook_sent
    for each row execute function refuse_sent()`.execute(store.db);
}

/** A dispatcher that writes stream to and that sends nothing: a process that dies after them. */
function deadStreamer(id: string, leaseEndsMs: number): DeliveryTaker & { handed: Handover[] } {
  const handed: Handover[] = [];
  return {
    id,
    leaseMs: 60_000,
    handed,
    heldIdsOf: () => undefined,
    streamsIn: () => true,
    streams: () => leaseEndsMs,
    take: (h) => void handed.push(h),
  };
}

describe(`streamed first attempts (${TEST_DIALECT})`, () => {
  it('go with no delivery row once the dispatcher holds the stream, in event order, and read as delivered', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = dispatcher();
    cleanups.push(attachToWrites(store, d));
    const ids = await createPeople(1);
    // The first write's delivery has a row, leased to the dispatcher, which then takes the stream.
    await waitFor(async () => (await stream(hook.id))?.holder === d.id);
    ids.push(...(await createPeople(5)));
    await waitFor(() => r.receipts.length === 6);
    expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
    expect(d.stats.streamed).toBe(5);
    expect(await deliveryRows()).toHaveLength(1);
    // The mark follows the sent ones.
    const last = await lastEvent();
    await waitFor(async () => Number((await stream(hook.id))?.seq) === last);
    const page = await deliveryPage(store.reader, ws.workspaceId, hook.id, {}, undefined, 10);
    expect(page.more).toBe(false);
    expect(page.rows.map((x) => x.object_id)).toEqual([...ids].reverse());
    for (const row of page.rows) {
      expect(row.status).toBe('delivered');
      expect(Number(row.attempt_count)).toBe(1);
      expect(Number(row.last_status_code)).toBe(200);
      expect(row.delivered_at).not.toBeNull();
    }
    // Two pages of three, in the same order.
    const first = await deliveryPage(store.reader, ws.workspaceId, hook.id, {}, undefined, 3);
    const at = first.rows.at(-1)!;
    const next = await deliveryPage(
      store.reader,
      ws.workspaceId,
      hook.id,
      {},
      { sortKey: String(at.event_seq), id: at.id },
      3,
    );
    expect([...first.rows, ...next.rows].map((x) => x.id)).toEqual(page.rows.map((x) => x.id));
    expect(first.more).toBe(true);
    expect(next.more).toBe(false);
    // Sent receipts carry the ids the log lists.
    expect(new Set(r.receipts.map((x) => x.id))).toEqual(new Set(page.rows.map((x) => x.id)));
    const pending = await deliveryPage(
      store.reader,
      ws.workspaceId,
      hook.id,
      { status: 'pending' },
      undefined,
      10,
    );
    expect(pending.rows).toEqual([]);
  });

  it('that are not answered 2xx get a delivery row, and are retried', async () => {
    let refuse = true;
    const r = await receiver((req, res, receipt) => {
      if (refuse && JSON.parse(receipt.body).objectId === target) {
        refuse = false;
        res.writeHead(503).end();
        return;
      }
      answerOk(req, res, receipt);
    });
    let target = '';
    const { d } = await streaming(r);
    target = (await createPeople(1))[0]!;
    await untilDelivered(2, r);
    const retried = (await deliveryRows())[1]!;
    expect(Number(retried.attempt_count)).toBe(2);
    expect(r.receipts.filter((x) => JSON.parse(x.body).objectId === target)).toHaveLength(2);
    expect(d.stats.streamed).toBe(1);
    const attempts = await store.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'status_code'])
      .where('delivery_id', '=', retried.id)
      .orderBy('attempt')
      .execute();
    expect(attempts.map((a) => a.status_code)).toEqual([503, 200]);
  });

  it('whose try the database refuses to record get a delivery row, and go again', async () => {
    const r = await receiver();
    const { d } = await streaming(r);
    // Every sent row refused from now on (not a lost connection: the try is not kept).
    await refuseSentRows();
    const [target] = await createPeople(1);
    const ofTarget = () => r.receipts.filter((x) => JSON.parse(x.body).objectId === target);
    await untilDelivered(2, r);
    expect(d.stats.streamed).toBe(1);
    // Sent twice under one id (at least once): the streamed try, then the row's.
    expect(ofTarget()).toHaveLength(2);
    expect(new Set(ofTarget().map((x) => x.id)).size).toBe(1);
    expect((await deliveryRows())[1]!.id).toBe(ofTarget()[0]!.id);
  });

  it('that a dead dispatcher held are recovered by a claim once its lease ends, in event order', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const leaseEnds = Date.now() + 400;
    await holdStream(hook.id, 'dead', await lastEvent(), leaseEnds);
    const dead = deadStreamer('dead', leaseEnds);
    cleanups.push(handDeliveriesTo(store, dead));
    const ids = await createPeople(3);
    expect(await deliveryRows()).toEqual([]);
    expect(dead.handed.flatMap((h) => h.deliveries.map((x) => x.streamedAt !== undefined))).toEqual(
      [true, true, true],
    );
    // Polling: the due mark is the stream's lease end.
    const d = dispatcher({ pollMs: 20 });
    await waitFor(() => r.receipts.length === 3);
    expect(Date.now()).toBeGreaterThanOrEqual(leaseEnds);
    expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
    const freed = await stream(hook.id);
    expect(freed?.holder).toBeNull();
    expect(Number(freed?.seq)).toBe(await lastEvent());
    await waitFor(async () => (await deliveryRows()).every((x) => x.status === 'delivered'));
    expect(await deliveryRows()).toHaveLength(3);
    expect(d.stats.streamed).toBe(0);
  });

  it('of a webhook another dispatcher streams are left to it by a claim, until its lease ends', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const leaseMs = 400;
    const leaseEnds = performance.now() + leaseMs;
    await holdStream(hook.id, 'other', await lastEvent(), Date.now() + leaseMs);
    // No dispatcher of this process takes it: the write gives the delivery a row, for a claim.
    await createPeople(1);
    expect(await deliveryRows()).toHaveLength(1);
    const d = dispatcher({ pollMs: 20 });
    await waitFor(() => r.receipts.length === 1);
    expect(r.receipts[0]!.at).toBeGreaterThanOrEqual(leaseEnds);
    expect(d.stats.claims).toBeGreaterThan(1);
    expect((await stream(hook.id))?.holder).toBeNull();
  });

  it('sent are replayed: the delivery gets a row and goes again', async () => {
    const r = await receiver();
    const { hook } = await streaming(r);
    await createPeople(1);
    await waitFor(() => r.receipts.length === 2);
    const sent = await waitFor(async () => {
      const rows = await store.db.selectFrom('webhook_sent').selectAll().execute();
      return rows.length === 1;
    }).then(() => store.db.selectFrom('webhook_sent').selectAll().executeTakeFirstOrThrow());
    await ws.write((w) => replayDelivery(w, hook.id, sent.id));
    expect(await store.db.selectFrom('webhook_sent').selectAll().execute()).toEqual([]);
    await waitFor(() => r.receipts.length === 3);
    expect(r.receipts[2]!.id).toBe(sent.id);
    await waitFor(async () => {
      const row = (await deliveryRows()).find((x) => x.id === sent.id);
      return row?.status === 'delivered' && Number(row.attempt_count) === 2;
    });
  });

  it('are let go, and not taken again for a while, once a write of another process comes between', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    // No polls (the fixture's): a claim of the unheard write's delivery before the next write
    // would hold every first attempt again, and that write would rightly keep the stream
    // whole. Writes heard of wake the dispatcher for their claims.
    const d = dispatcher();
    let detach = attachToWrites(store, d);
    cleanups.push(() => detach());
    await createPeople(1);
    await waitFor(async () => (await stream(hook.id))?.holder === d.id);
    // A write this dispatcher does not hear of, as another process's would be.
    detach();
    await createPeople(1);
    detach = attachToWrites(store, d);
    await createPeople(2);
    await waitFor(async () => (await stream(hook.id))?.holder === null);
    await waitFor(() => r.receipts.length === 4);
    // Writes go by handover and claims meanwhile: rows, none streamed.
    const streamed = d.stats.streamed;
    await createPeople(2);
    await waitFor(() => r.receipts.length === 6);
    expect(d.stats.streamed).toBe(streamed);
    expect((await stream(hook.id))?.holder).toBeNull();
  });

  it('are let go by a dispatcher that stops', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = dispatcher();
    cleanups.push(attachToWrites(store, d));
    await createPeople(1);
    await waitFor(async () => (await stream(hook.id))?.holder === d.id);
    await createPeople(2);
    await d.stop();
    expect((await stream(hook.id))?.holder).toBeNull();
    // Each sent, or given a row for the next dispatcher.
    const sent = await store.db.selectFrom('webhook_sent').selectAll().execute();
    expect(sent.length + (await deliveryRows()).length).toBe(3);
  });

  it('recovered give a row to each wanted event past the mark that has none, and to no other', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const mark = await lastEvent();
    // Events past the mark: one with a delivery row (a write's), one sent while streamed, one
    // in the dead holder's memory alone, and one the webhook does not want (an organization).
    await createPeople(1);
    const [withRow] = await deliveryRows();
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db
      .insertInto('webhook_deliveries')
      .values({ ...withRow!, status: 'delivered', next_attempt_at: null })
      .execute();
    await holdStream(hook.id, 'dead', mark, Date.now() - 1);
    cleanups.push(handDeliveriesTo(store, deadStreamer('dead', Date.now() + 60_000)));
    await createPeople(2);
    const [sentSeq, memorySeq] = [mark + 2, mark + 3];
    await store.db
      .insertInto('webhook_sent')
      .values({
        workspace_id: ws.workspaceId,
        webhook_id: hook.id,
        event_seq: sentSeq,
        id: 'sent-one',
        status_code: 200,
        delivered_at: new Date().toISOString(),
      })
      .execute();
    await ws.write((w) => makeOrganization(w));
    const made = await store.transaction((trx) =>
      recoverStream(trx, ws.workspaceId, hook.id, new Date().toISOString()),
    );
    expect(made).toBe(1);
    const rows = await deliveryRows();
    expect(rows.map((x) => [Number(x.event_seq), x.status])).toEqual([
      [mark + 1, 'delivered'],
      [memorySeq, 'pending'],
    ]);
    const freed = await stream(hook.id);
    expect(freed?.holder).toBeNull();
    expect(Number(freed?.seq)).toBe(await lastEvent());
  });

  it('keep pruning from the events past a held stream’s mark', async () => {
    const r = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    await createPeople(2);
    const mark = (await lastEvent()) - 1;
    await holdStream(hook.id, 'elsewhere', mark, Date.now() + 60_000);
    await store.db.deleteFrom('webhook_deliveries').execute();
    await pruneEvents(store, 30, Date.now() + 40 * 86_400_000);
    const kept = await store.db
      .selectFrom('events')
      .select('seq')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(kept.map((e) => Number(e.seq))).toEqual([mark + 1]);
  });
});

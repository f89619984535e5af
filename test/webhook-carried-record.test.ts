/**
 * Tries that a write records (docs/deploy.md, Webhook delivery): on PostgreSQL, the tries of a
 * workspace's deliveries that were answered 2xx wait for the next write of that workspace in
 * the dispatcher's process, whose last statement records them (no round trip of their own);
 * a write that does not commit gives them back to the dispatcher, which records them itself,
 * as it does those no write came for. On SQLite the dispatcher records every try.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Dispatcher, DispatcherOptions } from '../src/dispatch/dispatcher.ts';
import { replayDelivery } from '../src/resources/webhooks/commands.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import { type Answer, insertWebhook, perTestWebhooks, waitFor } from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

const webhooks = perTestWebhooks(cleanups, () => store);

/** A dispatcher joined to this process's writes, as `serve` runs it; no poll in a test's time. */
function attached(options: Partial<DispatcherOptions> = {}): Dispatcher {
  const d = webhooks.dispatcher(options);
  webhooks.attach(d);
  return d;
}

/**
 * A receiver (answering `answer`), a webhook of the workspace to it, and a dispatcher joined
 * to the writes (`options`).
 */
async function hooked(options: Partial<DispatcherOptions>, answer?: Answer) {
  const r = await webhooks.receiver(answer);
  const webhook = await insertWebhook(store, ws.workspaceId, { url: r.url });
  return { r, webhook, d: attached(options) };
}

/** Each delivery's status, attempts and logged tries (`status_code`s), in event order. */
async function deliveries() {
  const rows = await store.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempt_count'])
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('event_seq')
    .execute();
  const tries = await store.db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'status_code'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  return rows.map((r) => ({
    status: r.status,
    attempts: Number(r.attempt_count),
    logged: tries
      .filter((t) => t.delivery_id === r.id)
      .map((t) => `${t.attempt}:${t.status_code}`)
      .join(),
  }));
}

/** The streamed first attempts' sent rows (docs/deploy.md, Streamed first attempts). */
function sent() {
  return store.db
    .selectFrom('webhook_sent')
    .select(['id', 'status_code'])
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('event_seq')
    .execute();
}

const DELIVERED = { status: 'delivered', attempts: 1, logged: '1:200' };
const UNRECORDED = { status: 'pending', attempts: 0, logged: '' };

describe.runIf(TEST_DIALECT === 'postgres')('tries a write records (postgres)', () => {
  it("are those of the write's workspace answered 2xx, recorded by its last statement", async () => {
    // Tries wait for a write as long as the test runs.
    const { r, d } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    await waitFor(() => r.receipts.length === 1);
    // Received, and not recorded: it waits for the next write.
    await waitFor(() => d.stats.delivered === 1);
    expect(await deliveries()).toEqual([UNRECORDED]);
    await ws.write((w) => makePerson(w));
    // The write's commit recorded the first, and handed the second over.
    expect((await deliveries())[0]).toEqual(DELIVERED);
    expect(d.stats.carried).toBe(1);
    await waitFor(() => r.receipts.length === 2);
    // A dispatcher that stops records what no write carried (the second as a row, or as a
    // sent row when it went streamed: docs/deploy.md, Streamed first attempts).
    await d.stop();
    expect([...(await deliveries()), ...(await sent()).map(() => DELIVERED)]).toEqual([
      DELIVERED,
      DELIVERED,
    ]);
    expect(d.stats.carried).toBe(1);
  });

  it('are those of streamed first attempts too: sent rows, and the stream’s mark moved', async () => {
    const { r, d, webhook } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    const stream = () =>
      store.db
        .selectFrom('webhook_streams')
        .selectAll()
        .where('workspace_id', '=', ws.workspaceId)
        .where('webhook_id', '=', webhook.id)
        .executeTakeFirst();
    await waitFor(async () => (await stream())?.holder === d.id);
    await ws.write((w) => makePerson(w));
    expect(d.stats.streamed).toBe(1);
    await waitFor(() => d.stats.delivered === 2 && r.receipts.length === 2);
    const carried = d.stats.carried;
    // The next write records the streamed one's try.
    await ws.write((w) => makePerson(w));
    expect(d.stats.carried).toBeGreaterThan(carried);
    expect(await sent()).toHaveLength(1);
    expect(Number((await stream())?.seq)).toBeGreaterThanOrEqual(2);
    // Sent (it may wait for its burst: `send-pacer.ts`), then recorded by the stop.
    await waitFor(() => d.stats.delivered === 3);
    await d.stop();
    expect(await sent()).toHaveLength(2);
  });

  it('are given back by a write that does not commit, and recorded by the dispatcher', async () => {
    const { r, d } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    await waitFor(() => d.stats.delivered === 1 && r.receipts.length === 1);
    expect(await deliveries()).toEqual([UNRECORDED]);
    // Its last statement fails: the transaction cannot write.
    await expect(
      writeWorkspace(store, ws.workspaceId, async (w) => {
        await sql`set transaction read only`.execute(w.trx);
      }),
    ).rejects.toThrow(/read-only/);
    // Given back, it waits for no write: the dispatcher records it.
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered');
    expect(await deliveries()).toEqual([DELIVERED]);
    expect(d.stats.carried).toBe(0);
  });

  it("never fail a user's write: one whose record the database refuses is written without it", async () => {
    const { r, d } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    await waitFor(() => d.stats.delivered === 1 && r.receipts.length === 1);
    expect(await deliveries()).toEqual([UNRECORDED]);
    // The try's log row is refused (a trigger, standing for a row changed by hand).
    await sql`create function refuse_try() returns trigger language plpgsql
      as $$ begin raise exception 'refused by the test'; end $$`.execute(store.db);
    await sql`create trigger refuse_try before insert on webhook_attempts
      for each row execute function refuse_try()`.execute(store.db);
    let runs = 0;
    const id = await ws.write((w) => {
      runs += 1;
      return makePerson(w, { name: 'written anyway' });
    });
    // Run twice: with the try, refused, then without it.
    expect(runs).toBe(2);
    const person = await store.db
      .selectFrom('people')
      .select('name')
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    expect(person?.name).toBe('written anyway');
    // The try stays the dispatcher's: not carried, not recorded.
    expect(d.stats.carried).toBe(0);
    expect((await deliveries())[0]).toEqual(UNRECORDED);
  });

  it('leave a delivery replayed since its try began pending, so that the replay goes out', async () => {
    const { r, d, webhook } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    await waitFor(() => d.stats.delivered === 1 && r.receipts.length === 1);
    const [row] = await store.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    // The replay's own write records the try that began before it: the try counts, and the
    // delivery waits to be sent again.
    await writeWorkspace(store, ws.workspaceId, (w) => replayDelivery(w, webhook.id, row!.id));
    expect(d.stats.carried).toBe(1);
    expect(await deliveries()).toEqual([{ status: 'pending', attempts: 1, logged: '1:200' }]);
  });

  it('wait for a write only so long, then the dispatcher records them', async () => {
    const { r, d } = await hooked({ carryMs: 50 });
    await ws.write((w) => makePerson(w));
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered');
    expect(await deliveries()).toEqual([DELIVERED]);
    expect(d.stats.carried).toBe(0);
    expect(r.receipts).toHaveLength(1);
  });

  it('are only those answered 2xx: a failed try is recorded by the dispatcher at once', async () => {
    const { d } = await hooked({ carryMs: 600_000, retryDelays: [600] }, (_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    await ws.write((w) => makePerson(w));
    await waitFor(async () => (await deliveries())[0]?.attempts === 1);
    expect(await deliveries()).toEqual([{ status: 'pending', attempts: 1, logged: '1:500' }]);
    expect(d.stats.carried).toBe(0);
  });
});

describe.runIf(TEST_DIALECT === 'sqlite')('tries a write records (sqlite)', () => {
  it('are none: the dispatcher records each try, as the writes cost no round trip there', async () => {
    const { r, d } = await hooked({ carryMs: 600_000 });
    await ws.write((w) => makePerson(w));
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered');
    await ws.write((w) => makePerson(w));
    // The second has a row, or went streamed with none and left a sent row
    // (docs/deploy.md, Streamed first attempts): either way the dispatcher recorded it.
    await waitFor(
      async () => (await deliveries())[1]?.status === 'delivered' || (await sent()).length === 1,
    );
    expect([...(await deliveries()), ...(await sent()).map(() => DELIVERED)]).toEqual([
      DELIVERED,
      DELIVERED,
    ]);
    expect(d.stats.carried).toBe(0);
    expect(r.receipts).toHaveLength(2);
  });
});

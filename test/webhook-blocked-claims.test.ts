/**
 * Claims that leave deliveries to another dispatcher (docs/webhooks.md, Delivery and
 * signatures): a claim says where another's leased first attempt held a webhook's later ones
 * back, or (PostgreSQL) another's claim had the webhook locked; the dispatcher looks there
 * again soon by itself, since no write may wake it, rather than at its next poll. And a claim
 * that left a backlog behind is not passed over by the next look at every due workspace.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/database.ts';
import type { ClaimRequest } from '../src/store/outbox/deliveries.ts';
import { makePerson } from './factories.ts';
import {
  storePerTest,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import {
  claimHoldingNothing,
  holdLock,
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
const webhooks = perTestWebhooks(cleanups, () => store);

/** `n` writes, each creating a person (a delivery row each: no dispatcher is joined to them). */
async function createPeople(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await ws.write((w) => makePerson(w)));
  return ids;
}

/** A claim in the test's workspace by dispatcher `holder`, holding nothing. */
function claim(holder: string, request: Partial<ClaimRequest> = {}) {
  return claimHoldingNothing(store, {
    likely: true,
    workspaces: [ws.workspaceId],
    holder,
    ...request,
  });
}

/** A receiver whose answers wait until the test sends them (`held`, in arrival order). */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  let holding = true;
  const r = await webhooks.receiver((_req, res) => {
    if (holding) held.push(res);
    else res.writeHead(200).end();
  });
  return {
    r,
    answerNext: () => held.shift()!.writeHead(200).end(),
    /**
     * Answers every POST held, and each one after at once: a dispatcher's stop waits for its
     * POSTs in flight (up to its time limit, 20 s).
     */
    answerAll: () => {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(200).end();
    },
  };
}

/** A second pool on the same database (PostgreSQL), as another process's dispatcher has. */
function anotherPool(): Store {
  const other = openStore(store.url);
  cleanups.push(() => other.close());
  return other;
}

describe(`claims that leave deliveries to another dispatcher (${TEST_DIALECT})`, () => {
  it('say where another’s leased first attempt held the later ones back, and take them once it is gone', async () => {
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    await createPeople(2);
    const first = await claim('a', { perWebhook: 1 });
    expect(first.deliveries.map((d) => d.eventSeq)).toHaveLength(1);
    expect(first.blocked).toEqual([]);
    const second = await claim('b');
    expect(second.deliveries).toEqual([]);
    expect(second.blocked).toEqual([ws.workspaceId]);
    // The first attempt's try ended (here: its lease let go): nothing holds the next back.
    await store.db
      .updateTable('webhook_deliveries')
      .set({ leased_until: null, status: 'delivered' })
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', first.deliveries[0]!.id)
      .execute();
    const third = await claim('b');
    expect(third.deliveries).toHaveLength(1);
    expect(third.blocked).toEqual([]);
  });

  it.runIf(TEST_DIALECT === 'postgres')(
    'say where another’s claim had the webhook locked (PostgreSQL)',
    async () => {
      const hook = await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
      await createPeople(1);
      const other = anotherPool();
      const holding = await holdLock(other, (trx) =>
        trx
          .selectFrom('webhooks')
          .select('id')
          .where('workspace_id', '=', ws.workspaceId)
          .where('id', '=', hook.id)
          .forNoKeyUpdate()
          .execute(),
      );
      const blocked = await claim('a');
      await holding.release();
      expect(blocked.deliveries).toEqual([]);
      expect(blocked.blocked).toEqual([ws.workspaceId]);
      const after = await claim('a');
      expect(after.deliveries).toHaveLength(1);
      expect(after.blocked).toEqual([]);
    },
  );

  it.runIf(TEST_DIALECT === 'postgres')(
    'hold the later first attempts back behind one whose row another has locked, as while it renews or lets go of its lease (PostgreSQL)',
    async () => {
      await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
      await createPeople(2);
      const [first] = (await claim('a', { perWebhook: 1 })).deliveries;
      const other = anotherPool();
      // Dispatcher a renews its lease of the first (or lets it go, unsent) as the claim runs.
      const holding = await holdLock(other, (trx) =>
        trx
          .updateTable('webhook_deliveries')
          .set({ leased_until: new Date(Date.now() + 600_000).toISOString() })
          .where('workspace_id', '=', ws.workspaceId)
          .where('id', '=', first!.id)
          .execute(),
      );
      const during = await claim('b');
      await holding.release();
      expect(during.deliveries).toEqual([]);
      expect(during.blocked).toEqual([ws.workspaceId]);
    },
  );

  it.runIf(TEST_DIALECT === 'postgres')(
    'a dispatcher held back by another’s first attempt sends the next once it ends, with no write to wake it and no poll',
    async () => {
      const { r, answerNext } = await holdingReceiver();
      await insertWebhook(store, ws.workspaceId, { url: r.url });
      const a = webhooks.dispatcher();
      const b = webhooks.dispatcher({}, anotherPool());
      // Each one's first look at every due workspace done, before there is anything to take.
      await waitFor(() => a.stats.claims > 0 && b.stats.claims > 0);
      const ids = await createPeople(1);
      a.wake(ws.workspaceId);
      await waitFor(() => r.receipts.length === 1);
      // The next write wakes only the other dispatcher (as when the first's claim found the
      // webhook locked by the other's): held back behind the first attempt in flight.
      ids.push(...(await createPeople(1)));
      const claims = b.stats.claims;
      b.wake(ws.workspaceId);
      await waitFor(() => b.stats.claims > claims);
      expect(r.receipts).toHaveLength(1);
      answerNext();
      await waitFor(
        () => r.receipts.length === 2,
        undefined,
        () => `${r.receipts.length} receipts`,
      );
      answerNext();
      expect(r.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual(ids);
      expect(b.stats.sent).toBe(1);
    },
  );

  it('a look at every due workspace after a claim that left a backlog behind takes the rest, with no poll', async () => {
    // A webhook's deliveries held at most: 64 (a claim takes that many, and says there is more).
    const { r, answerNext } = await holdingReceiver();
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = webhooks.dispatcher({ concurrency: 4 });
    await waitFor(() => d.stats.claims > 0);
    await createPeople(1);
    d.wake(ws.workspaceId);
    await waitFor(() => r.receipts.length === 1);
    await createPeople(70);
    const claims = d.stats.claims;
    d.wake(ws.workspaceId);
    await waitFor(() => d.stats.claims > claims);
    r.answer = (_req, res) => res.writeHead(200).end();
    answerNext();
    await waitFor(
      () => r.receipts.length === 71,
      undefined,
      () => `${r.receipts.length} receipts`,
    );
    expect(new Set(r.receipts.map((x) => x.id)).size).toBe(71);
  });

  it('say in which workspaces they left deliveries behind', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    await insertWebhook(store, other.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    await createPeople(3);
    await other.write((w) => makePerson(w));
    const taken = await claim('a', {
      perWebhook: 2,
      workspaces: [ws.workspaceId, other.workspaceId],
    });
    expect(taken.deliveries).toHaveLength(3);
    expect(taken.more).toBe(true);
    expect(taken.left).toEqual([ws.workspaceId]);
    expect(taken.looked.sort()).toEqual([ws.workspaceId, other.workspaceId].sort());
  });

  it('a woken workspace a claim had no room to look in is looked in once a place is free, with no poll', async () => {
    // A dispatcher of four POSTs at once holds 64 deliveries at most: a webhook's 64 fill it
    // (its first attempts go one at a time, leaving places to send others).
    const { r, answerNext, answerAll } = await holdingReceiver();
    const otherReceiver = await webhooks.receiver();
    const other = await testWorkspace(store, '다른 워크스페이스');
    await insertWebhook(store, ws.workspaceId, { url: r.url });
    await insertWebhook(store, other.workspaceId, { url: otherReceiver.url });
    const d = webhooks.dispatcher({ concurrency: 4 });
    await waitFor(() => d.stats.claims > 0);
    await createPeople(64);
    await other.write((w) => makePerson(w));
    // Woken in both at once: on SQLite the claim fills its room in the first (PostgreSQL
    // shares the room among the workspaces it looks in together).
    d.wake(ws.workspaceId);
    d.wake(other.workspaceId);
    await waitFor(() => r.receipts.length === 1);
    // One place freed: far fewer than a look at every due workspace waits for.
    answerNext();
    await waitFor(
      () => otherReceiver.receipts.length === 1,
      undefined,
      () => `${otherReceiver.receipts.length} receipts elsewhere, ${d.stats.claims} claims`,
    );
    answerAll();
  });
});

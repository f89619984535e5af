/**
 * POSTs in bursts (docs/webhooks.md, Delivery and signatures; `src/dispatch/send-pacer.ts`):
 * a lone write's delivery goes at once; deliveries writes hand over within the gap after a
 * burst wait for the next; a webhook's next first attempt goes at its last one's answer, not
 * at the next burst; a stop lets the waiting ones go, pending.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { makeOrganization, makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import { answerOk, insertWebhook, perTestWebhooks, waitFor } from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

const webhooks = perTestWebhooks(cleanups, () => store);
const receiver = webhooks.receiver;

/** A dispatcher joined to this process's writes, its bursts `sendGapMs` apart. */
function dispatcher(sendGapMs: number): Dispatcher {
  const d = webhooks.dispatcher({ sendGapMs });
  webhooks.attach(d);
  return d;
}

describe(`webhook POSTs in bursts (${TEST_DIALECT})`, () => {
  it('send a lone write’s delivery at once, and a webhook’s next first attempt at its last one’s answer', async () => {
    // A gap no test waits out: whatever arrives went at once or by the webhook's own turn.
    const held: ServerResponse[] = [];
    const people = await receiver((_req, res) => void held.push(res));
    const orgs = await receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: people.url });
    const orgHook = await insertWebhook(store, ws.workspaceId, {
      url: orgs.url,
      objectTypes: ['organization'],
    });
    const d = dispatcher(600_000);
    const first = await ws.write((w) => makePerson(w));
    await waitFor(() => people.receipts.length === 1);
    // Handed over while the first is in flight: it waits for the first's answer, not a burst.
    const second = await ws.write((w) => makePerson(w));
    // Another webhook's delivery, handed over within the gap: it waits for the next burst.
    await ws.write((w) => makeOrganization(w));
    held.shift()!.writeHead(200).end();
    await waitFor(() => people.receipts.length === 2);
    held.shift()!.writeHead(200).end();
    expect(people.receipts.map((x) => JSON.parse(x.body).objectId)).toEqual([first, second]);
    await waitFor(() => d.stats.delivered === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(orgs.receipts).toHaveLength(0);
    // A stop lets it go, pending: sent by the next dispatcher.
    await d.stop();
    const rows = await store.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_count', 'leased_until'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('webhook_id', '=', orgHook.id)
      .execute();
    expect(rows).toEqual([{ status: 'pending', attempt_count: 0, leased_until: null }]);
    expect(hook.id).not.toBe(orgHook.id);
  });

  it('send the deliveries handed over within the gap after a burst together at its end', async () => {
    const people = await receiver(answerOk);
    const orgs = await receiver(answerOk);
    await insertWebhook(store, ws.workspaceId, { url: people.url });
    await insertWebhook(store, ws.workspaceId, { url: orgs.url, objectTypes: ['organization'] });
    const GAP_MS = 1_500;
    dispatcher(GAP_MS);
    const before = performance.now();
    await ws.write((w) => makePerson(w));
    await ws.write((w) => makeOrganization(w));
    await waitFor(() => people.receipts.length === 1 && orgs.receipts.length === 1);
    // The first burst began after `before`; the next, a gap after it at least.
    expect(orgs.receipts[0]!.at - before).toBeGreaterThanOrEqual(GAP_MS);
  });
});

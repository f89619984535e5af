/**
 * A try recorded after its delivery was replayed (docs/webhooks.md, The delivery log and
 * replay): the try began before the replay, so it only counts, whatever its receiver
 * answered; the delivery stays pending, its lease let go, for the replay to go out at the next
 * look. Every record path: a record
 * of 2xx tries alone (PostgreSQL's one statement), of failed ones, and SQLite's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayDelivery } from '../src/resources/webhooks/commands.ts';
import { type AttemptOutcome, recordAttempts } from '../src/store/outbox/attempts.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makePerson } from './factories.ts';
import { TEST_DIALECT, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { insertWebhook, type TestWebhook } from './webhook-fixtures.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

let store: TestStore;
let ws: TestWorkspace;
let webhook: TestWebhook;

beforeEach(async () => {
  store = await testStore();
  ws = await testWorkspace(store);
  webhook = await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
});
afterEach(async () => {
  await store.dispose();
});

/** The one delivery of the workspace: its status, attempts, next attempt and logged tries. */
async function delivery() {
  const row = await store.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempt_count', 'next_attempt_at'])
    .where('workspace_id', '=', ws.workspaceId)
    .executeTakeFirstOrThrow();
  const tries = await store.db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'status_code'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  return {
    id: row.id,
    status: row.status,
    attempts: Number(row.attempt_count),
    nextAttemptAt: row.next_attempt_at,
    logged: tries.map((t) => `${t.attempt}:${t.status_code}`).join(),
  };
}

/** A try of the delivery that began at `startedAt`, answered `statusCode`. */
function tried(id: string, startedAt: string, statusCode: number): AttemptOutcome {
  return {
    workspaceId: ws.workspaceId,
    id,
    webhookId: webhook.id,
    startedAt,
    durationMs: 3,
    statusCode,
    error: statusCode >= 500 ? 'the receiver failed' : null,
  };
}

const POLICY = { retryDelays: [60], jitter: 0 };

describe(`a try recorded after its delivery was replayed (${TEST_DIALECT})`, () => {
  for (const statusCode of [200, 500]) {
    it(`only counts, answered ${statusCode}: the replay still goes out`, async () => {
      await ws.write((w) => makePerson(w));
      const { id } = await delivery();
      // The try begins; before it is recorded, the delivery is replayed.
      const startedAt = new Date(Date.now() - 1_000).toISOString();
      await writeWorkspace(store, ws.workspaceId, (w) => replayDelivery(w, webhook.id, id));
      const replayed = await delivery();
      expect(replayed.nextAttemptAt! > startedAt).toBe(true);
      await recordAttempts(store, [tried(id, startedAt, statusCode)], POLICY);
      expect(await delivery()).toEqual({
        id,
        status: 'pending',
        attempts: 1,
        nextAttemptAt: replayed.nextAttemptAt,
        logged: `1:${statusCode}`,
      });
    });
  }

  for (const statusCode of [200, 500]) {
    it(`lets go of the try's lease, answered ${statusCode}, so that the replay is claimed at once`, async () => {
      await ws.write((w) => makePerson(w));
      const { id } = await delivery();
      // Leased to the dispatcher whose try is under way.
      const leasedUntil = new Date(Date.now() + 60_000).toISOString();
      await store.db
        .updateTable('webhook_deliveries')
        .set({ leased_until: leasedUntil })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', id)
        .execute();
      const startedAt = new Date(Date.now() - 1_000).toISOString();
      await writeWorkspace(store, ws.workspaceId, (w) => replayDelivery(w, webhook.id, id));
      await recordAttempts(store, [tried(id, startedAt, statusCode)], POLICY);
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'leased_until'])
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'pending', leased_until: null });
    });
  }

  it('settles the delivery as before when it was not replayed', async () => {
    await ws.write((w) => makePerson(w));
    const { id } = await delivery();
    await recordAttempts(store, [tried(id, new Date().toISOString(), 200)], POLICY);
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 1, logged: '1:200' });
  });
});

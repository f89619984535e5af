/**
 * PostgreSQL: the dispatcher's records and a write of the same workspace lock their rows in
 * one order (`lockWorkspaceRow`, src/store/outbox/bookkeeping.ts). A write locks its
 * workspace's row in its `begin`, and in its last statement the rows of the tries it carries
 * (a webhook's stream, its failure streak); a record that changes the workspace's row too (a
 * streamed try refused: its retry brings the due mark forward) locked the stream's row first,
 * and each then waited for the other until PostgreSQL ended one of them as a deadlock: a
 * user's write answered 503 now and then while a receiver failed.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/domain/ids.ts';
import { recordAttempts } from '../src/store/outbox/attempts.ts';
import { makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import { waitingForLocks } from './postgres.ts';
import { insertWebhook, waitFor } from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

const POLICY = { retryDelays: [60], jitter: 0 };

describe.runIf(TEST_DIALECT === 'postgres')(
  'a record and a write of one workspace (postgres)',
  () => {
    it("lock the workspace's row first, so that neither waits for the other in turn", async () => {
      // An event (the write's), then a webhook whose stream a dispatcher holds from it on.
      await ws.write((w) => makePerson(w));
      const hook = await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
      await store.db
        .insertInto('webhook_streams')
        .values({
          workspace_id: ws.workspaceId,
          webhook_id: hook.id,
          seq: 0,
          holder: 'a dispatcher',
          leased_until: new Date(Date.now() + 60_000).toISOString(),
        })
        .execute();
      const write = new pg.Client({ connectionString: store.url });
      await write.connect();
      cleanups.push(() => write.end());
      const watch = new pg.Client({ connectionString: store.url });
      await watch.connect();
      cleanups.push(() => watch.end());

      // A write begins: its workspace's row locked.
      await write.query('begin');
      await write.query('select id from workspaces where id = $1 for update', [ws.workspaceId]);
      // Meanwhile the dispatcher records the stream's first attempt, refused: it waits.
      const at = new Date().toISOString();
      const id = newId();
      const recorded = recordAttempts(
        store,
        [
          {
            workspaceId: ws.workspaceId,
            id,
            webhookId: hook.id,
            startedAt: at,
            durationMs: 3,
            statusCode: 503,
            error: 'HTTP 503',
            streamed: { eventSeq: 1, at },
          },
        ],
        POLICY,
      );
      await waitFor(async () => (await waitingForLocks(watch)) > 0);
      // The write's last statement: the stream's mark and the streak, as when it carries a try.
      await write.query(
        'update webhook_streams set seq = greatest(seq, 1) where workspace_id = $1 and webhook_id = $2',
        [ws.workspaceId, hook.id],
      );
      await write.query(
        'update webhooks set failure_streak = 0 where workspace_id = $1 and id = $2 and failure_streak <> 0',
        [ws.workspaceId, hook.id],
      );
      await write.query('commit');
      // The record then goes through: the refused try has its row, due for a retry.
      await recorded;
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempt_count', 'last_status_code'])
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row).toEqual({ status: 'pending', attempt_count: 1, last_status_code: 503 });
    });
  },
);

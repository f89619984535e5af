/**
 * PostgreSQL: a write in a workspace whose due mark it leaves at about now (or a change that
 * brings the mark forward to it) notifies `salescrm_deliveries` (migration 032, docs/deploy.md,
 * Webhook delivery): a write whose deliveries no dispatcher of its process took. A write where
 * nothing is due, or that hands its deliveries to its own process's dispatcher, does not; a
 * replay does. A store's change listener passes the
 * notifications on to whoever asks (`onDeliveriesDue`), as `salescrm dispatch` asks, and
 * stops listening when no one does.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { replayDelivery } from '../src/resources/webhooks/commands.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { DELIVERIES_CHANNEL } from '../src/store/postgres-listener.ts';
import { makePerson } from './factories.ts';
import {
  storePerTest,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { insertWebhook, listeningTo, perTestWebhooks, waitFor } from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});
const webhooks = perTestWebhooks(cleanups, () => store);

/** The backends (their pids) listening to `DELIVERIES_CHANNEL`. */
function listening(): Promise<number[]> {
  return listeningTo(store, DELIVERIES_CHANNEL);
}

/**
 * The workspaces another process hears of on `DELIVERIES_CHANNEL`, in the order notified,
 * once its connection listens there.
 */
async function hearing(): Promise<string[]> {
  const other: Store = openStore(store.url);
  cleanups.push(() => other.close());
  const heard: string[] = [];
  cleanups.push(other.changes!().onDeliveriesDue((workspaceId) => heard.push(workspaceId)));
  await waitFor(async () => (await listening()).length > 0);
  return heard;
}

/** A notification of the test's own, after those of every commit before it. */
async function mark(heard: string[], payload: string): Promise<void> {
  await sql`select pg_notify(${DELIVERIES_CHANNEL}, ${payload})`.execute(store.db);
  await waitFor(() => heard.includes(payload));
}

describe.runIf(TEST_DIALECT === 'postgres')('deliveries due, notified (postgres)', () => {
  it('tells of a write whose deliveries wait for a claim, and of none that makes no delivery', async () => {
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    const quiet = await testWorkspace(store, '웹훅 없는 워크스페이스');
    // Nothing due in either, as a dispatcher's look leaves a workspace with nothing to send (a
    // new workspace, its catalog made, is due until then).
    await store.db.updateTable('workspaces').set({ deliveries_due_at: null }).execute();
    const heard = await hearing();
    await quiet.write((w) => makePerson(w));
    await ws.write((w) => makePerson(w));
    await mark(heard, 'after the writes');
    expect(heard).toEqual([ws.workspaceId, 'after the writes']);
    // Its mark due already (no claim came): the next write tells of it again; one where
    // nothing is due, again of nothing.
    await ws.write((w) => makePerson(w));
    await quiet.write((w) => makePerson(w));
    await mark(heard, 'after the next');
    expect(heard).toEqual([ws.workspaceId, 'after the writes', ws.workspaceId, 'after the next']);
  });

  it('is heard again once the listening connection, lost, is back', async () => {
    await insertWebhook(store, ws.workspaceId, { url: 'http://127.0.0.1:9/hook' });
    await store.db.updateTable('workspaces').set({ deliveries_due_at: null }).execute();
    const heard = await hearing();
    const [lost] = await listening();
    await sql`select pg_terminate_backend(${lost})`.execute(store.db);
    // A connection of its own again (a second later), listening there as before.
    await waitFor(async () => (await listening()).some((pid) => pid !== lost));
    await ws.write((w) => makePerson(w));
    await mark(heard, 'after the write');
    expect(heard).toEqual([ws.workspaceId, 'after the write']);
  });

  it('stops listening once the last who asked stops, and listens again at the next', async () => {
    const other: Store = openStore(store.url);
    cleanups.push(() => other.close());
    const heard: string[] = [];
    const stop = other.changes!().onDeliveriesDue((workspaceId) => heard.push(workspaceId));
    await waitFor(async () => (await listening()).length > 0);
    const [pid] = await listening();
    stop();
    // Its connection's last statement: the UNLISTEN.
    await waitFor(async () => {
      const { rows } = await sql<{ query: string }>`select query from pg_stat_activity
        where pid = ${pid}`.execute(store.db);
      return rows[0]?.query === `unlisten ${DELIVERIES_CHANNEL}`;
    });
    cleanups.push(other.changes!().onDeliveriesDue((workspaceId) => heard.push(workspaceId)));
    await waitFor(async () => (await listening()).includes(pid!));
    await mark(heard, 'heard again');
    expect(heard).toEqual(['heard again']);
  });

  it('tells of none for deliveries a write hands to its own process’s dispatcher, and of a replay', async () => {
    const r = await webhooks.receiver();
    const hook = await insertWebhook(store, ws.workspaceId, { url: r.url });
    const d = webhooks.dispatcher();
    await waitFor(() => d.stats.claims > 0);
    webhooks.attach(d);
    const heard = await hearing();
    await ws.write((w) => makePerson(w));
    await waitFor(() => r.receipts.length === 1);
    await mark(heard, 'after the write');
    expect(d.stats.taken).toBe(1);
    expect(heard).toEqual(['after the write']);
    // Its try recorded, a replay makes it due again: told of.
    const [sent] = r.receipts;
    await waitFor(async () => {
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('id', '=', sent!.id)
        .executeTakeFirst();
      return row?.status === 'delivered';
    });
    await ws.write((w) => replayDelivery(w, hook.id, sent!.id));
    await mark(heard, 'after the replay');
    expect(heard).toEqual(['after the write', ws.workspaceId, 'after the replay']);
  });
});

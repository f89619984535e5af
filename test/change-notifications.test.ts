/**
 * PostgreSQL: which changes to a workspace's row notify the servers that listen
 * (`salescrm_changes`, migrations 026, 028, 029 and 030): a write does, naming the versions it
 * left; a workspace deleted, or another change of its row, names the workspace alone; a
 * dispatcher's record of tries, which only moves the workspace's due mark, does not notify
 * (nobody keeps anything the mark changes, and each notification made every server drop its
 * token lookups of that workspace). Notifications come in commit order, so a marker sent
 * after a change, once heard, says whether the change notified.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAttempts } from '../src/store/outbox/attempts.ts';
import { settleDueWorkspaceAlone } from '../src/store/outbox/due-workspaces.ts';
import { CHANGES_CHANNEL } from '../src/store/postgres-listener.ts';
import { makePerson } from './factories.ts';
import {
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { insertWebhook } from './webhook-fixtures.ts';

describe.skipIf(TEST_DIALECT !== 'postgres')('PostgreSQL change notifications', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let listener: pg.Client;
  const heard: string[] = [];
  let markers = 0;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    listener = new pg.Client({ connectionString: store.url });
    await listener.connect();
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${CHANGES_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await store?.dispose();
  });

  /** Sends a marker after every commit so far, and waits until it is heard. */
  async function marked(): Promise<string> {
    const marker = `~marker-${++markers}`;
    await sql`select pg_notify(${CHANGES_CHANNEL}, ${marker})`.execute(store.db);
    const until = Date.now() + 30_000;
    while (!heard.includes(marker)) {
      if (Date.now() > until) throw new Error('the marker never came back');
      await new Promise((r) => setTimeout(r, 10));
    }
    return marker;
  }

  /** What `change` notified: the payloads heard after the commits before it, until a marker sent after it. */
  async function notifiedBy(change: () => Promise<unknown>): Promise<string[]> {
    // The notifications of what the test did before are heard first, then forgotten.
    await marked();
    heard.length = 0;
    await change();
    const marker = await marked();
    return heard.slice(0, heard.indexOf(marker));
  }

  /** The workspace's versions now. */
  async function versions(): Promise<string> {
    const row = await store.db
      .selectFrom('workspaces')
      .select(['data_version', 'catalog_version'])
      .where('id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow();
    return `${row.data_version} ${row.catalog_version}`;
  }

  it('a write notifies its workspace with the versions it left', async () => {
    const heard = await notifiedBy(() => ws.write((w) => makePerson(w)));
    expect(heard).toEqual([`${ws.workspaceId} ${await versions()}`]);
  });

  it("another change of the workspace's row names the workspace alone", async () => {
    const rotated = () =>
      store.db
        .updateTable('workspaces')
        .set({ cursor_secret: 'another secret' })
        .where('id', '=', ws.workspaceId)
        .execute();
    expect(await notifiedBy(rotated)).toEqual([ws.workspaceId]);
  });

  it('a change of another column with the versions names the workspace alone', async () => {
    const renamedAndBumped = () =>
      store.db
        .updateTable('workspaces')
        .set((eb) => ({ name: 'renamed', data_version: eb('data_version', '+', 1) }))
        .where('id', '=', ws.workspaceId)
        .execute();
    expect(await notifiedBy(renamedAndBumped)).toEqual([ws.workspaceId]);
  });

  it('a due mark put back notifies nobody', async () => {
    await store.db
      .updateTable('workspaces')
      .set({ deliveries_due_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', ws.workspaceId)
      .execute();
    expect(await notifiedBy(() => settleDueWorkspaceAlone(store, ws.workspaceId))).toEqual([]);
    const row = await store.db
      .selectFrom('workspaces')
      .select('deliveries_due_at')
      .where('id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow();
    // It did change: no pending delivery is left, so no mark.
    expect(row.deliveries_due_at).toBeNull();
  });

  it('a record of tries notifies nobody, though it moves the due mark', async () => {
    const { id: webhookId } = await insertWebhook(store, ws.workspaceId, {
      url: 'http://127.0.0.1:9/',
    });
    await ws.write((w) => makePerson(w));
    const delivery = await store.db
      .selectFrom('webhook_deliveries')
      .select(['id'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('webhook_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    const record = () =>
      recordAttempts(
        store,
        [
          {
            workspaceId: ws.workspaceId,
            id: delivery.id,
            webhookId,
            startedAt: new Date().toISOString(),
            durationMs: 3,
            statusCode: 200,
            error: null,
          },
        ],
        { retryDelays: [60] },
      );
    expect(await notifiedBy(record)).toEqual([]);
    const [after] = await store.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', delivery.id)
      .execute();
    expect(after?.status).toBe('delivered');
  });

  it('a workspace deleted notifies it', async () => {
    const other = await testWorkspace(store);
    const deleted = () =>
      store.db.transaction().execute(async (trx) => {
        // Its rows first: other tables refer to it.
        for (const table of ['team_members', 'access_tokens', 'users', 'teams'] as const)
          await trx.deleteFrom(table).where('workspace_id', '=', other.workspaceId).execute();
        await trx.deleteFrom('workspaces').where('id', '=', other.workspaceId).execute();
      });
    expect(await notifiedBy(deleted)).toContain(other.workspaceId);
  });
});

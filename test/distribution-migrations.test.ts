/**
 * A database made before migrations 023 to 025 (docs/deploy.md, Distributing by workspace)
 * keeps working after them: a token issued before is found through `token_workspaces` and
 * can be revoked, the catalog's version no longer moves by triggers but by the writes, and
 * a delivery pending before is marked due, and sent.
 */
import { Migrator } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashToken } from '../src/domain/tokens.ts';
import { revokeToken } from '../src/resources/workspaces/writes.ts';
import { schemaMigrations } from '../src/store/migrate.ts';
import { listDueWorkspaces } from '../src/store/outbox/due-workspaces.ts';
import { get, TEST_DIALECT, type TestStore, testApp, testStore, testWorkspace } from './helpers.ts';
import { testPartitions } from './postgres.ts';

let store: TestStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(async () => {
  await store?.dispose();
});

const dialect = TEST_DIALECT;
/**
 * Partitioned tables (`SALESCRM_TEST_PG_PARTITIONS`) were never made before 023: rolling
 * back to a unique index of the token hash alone is what they refuse.
 */
const partitioned = TEST_DIALECT === 'postgres' && testPartitions() > 0;

/**
 * The schema as it was before 023: those migrations and every later one rolled back (by their
 * own `down`, the latest first) and forgotten.
 */
async function before023(): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => schemaMigrations(dialect) },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateTo('022-list-filter-indexes');
  if (error) throw error;
}

it.skipIf(partitioned)(
  'keeps tokens, the catalog and pending deliveries of a database made before 023',
  async () => {
    const ws = await testWorkspace(store);
    const other = await testWorkspace(store);
    const due = '2026-01-01T00:00:00.000Z';
    await before023();
    // Made the old way: the token in access_tokens alone, a pending delivery with no mark.
    const token = 'scrm_issued_before_the_migration';
    await store.db
      .insertInto('access_tokens')
      .values({
        workspace_id: ws.workspaceId,
        id: 'old-token',
        token_hash: hashToken(token),
        user_id: ws.userId,
        name: null,
        created_at: due,
        revoked_at: null,
        read_only: 0,
      })
      .execute();
    await store.db
      .insertInto('webhook_deliveries')
      .values({
        workspace_id: other.workspaceId,
        id: 'old-delivery',
        webhook_id: 'some-webhook',
        event_seq: 1,
        status: 'pending',
        attempt_count: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: due,
        leased_until: null,
        delivered_at: null,
        created_at: due,
      })
      .execute();
    // Before 024 the triggers bumped the version on any change of a user.
    const version = async () =>
      Number(
        (
          await store.db
            .selectFrom('workspaces')
            .select('catalog_version')
            .where('id', '=', ws.workspaceId)
            .executeTakeFirstOrThrow()
        ).catalog_version,
      );
    const rename = (name: string) =>
      store.db
        .updateTable('users')
        .set({ name })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', ws.userId)
        .execute();
    const start = await version();
    await rename('트리거 시절');
    expect(await version()).toBe(start + 1);

    await store.migrate();

    const app = await testApp(store);
    try {
      expect((await get(app, token, '/v2/user/me')).status).toBe(200);
      expect((await get(app, ws.token, '/v2/user/me')).status).toBe(200);
      expect(await revokeToken(store, 'old-token')).toBe(true);
      expect((await get(app, token, '/v2/user/me')).status).toBe(401);
    } finally {
      await app.close();
    }
    // No trigger any more: a change behind the writes' back moves nothing.
    const after = await version();
    await rename('트리거 없음');
    expect(await version()).toBe(after);
    // The pending delivery's workspace is due from its time on; the other one is not.
    expect(await listDueWorkspaces(store.db, due, 10)).toEqual([other.workspaceId]);
    expect(await listDueWorkspaces(store.db, '2025-12-31T23:59:59.999Z', 10)).toEqual([]);
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/domain/ids.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { insertMany } from '../src/store/insert.ts';
import { withPlugin } from '../src/store/sqlite-executors.ts';
import { WriteWatch, watched } from '../src/store/write-watch.ts';
import { TEST_DIALECT, testWorkspace } from './helpers.ts';

/** A plugin that changes nothing: an executor derived from a watched one. */
const NOTHING = {
  transformQuery: ({ node }: { node: never }) => node,
  transformResult: async ({ result }: { result: never }) => result,
};

/**
 * What a write's WriteWatch learns: the tables written, through Kysely or through the SQLite
 * writer's cached insert statements (which Kysely does not compile), and whether a catalog
 * table changed. The refresh trusts it to know which tables hold nothing of a new record.
 */
describe.skipIf(TEST_DIALECT !== 'sqlite')('WriteWatch', () => {
  let store: Store;
  let workspaceId: string;

  beforeAll(async () => {
    store = openStore(':memory:');
    await store.migrate();
    workspaceId = (await testWorkspace(store, '감시')).workspaceId;
  });
  afterAll(async () => store?.close());

  const team = () => ({
    workspace_id: workspaceId,
    id: newId(),
    name: `팀 ${newId()}`,
    description: null,
    created_at: '2026-11-27T00:00:00.000Z',
  });

  it('sees plain inserts run as cached statements, on the watched executor and on executors made from it', async () => {
    const seen = await store.transaction(async (conn) => {
      const watch = new WriteWatch();
      const trx = watched(conn, watch);
      await insertMany(trx, 'teams', [team(), team()]);
      const derived = withPlugin(trx, NOTHING as never);
      await insertMany(derived, 'team_members', [
        { workspace_id: workspaceId, team_id: newId(), user_id: newId(), position: 0 },
      ]);
      return watch;
    });
    expect([...seen.written].sort()).toEqual(['team_members', 'teams']);
    expect(seen.changed.size).toBe(0);
    expect(seen.catalogChanged).toBe(true);
  });

  it('sees updates as changes of rows already there, and leaves an unwatched executor alone', async () => {
    const watch = new WriteWatch();
    await store.transaction(async (conn) => {
      await insertMany(conn, 'teams', [team()]);
      const trx = watched(conn, watch);
      await trx
        .updateTable('people')
        .set({ name: '새 이름' })
        .where('workspace_id', '=', workspaceId)
        .execute();
    });
    expect([...watch.written]).toEqual(['people']);
    expect([...watch.changed]).toEqual(['people']);
    expect(watch.catalogChanged).toBe(false);
  });
});

/**
 * `PG_PARTITIONS` (src/store/partitions.ts): every workspace table becomes hash-partitioned by
 * workspace, with its rows, keys, indexes and triggers kept under their names; a unique index
 * without the workspace is refused, as a database distributed by workspace refuses it; a
 * second run changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TABLES } from '../src/model/tables.ts';
import { partitionByWorkspace } from '../src/store/partitions.ts';
import { get, TEST_DIALECT, type TestStore, testApp, testStore, testWorkspace } from './helpers.ts';

describe.runIf(TEST_DIALECT === 'postgres')('PG_PARTITIONS', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  /** Partitions of each partitioned table. */
  async function partitioned(): Promise<Map<string, number>> {
    const { rows } = await sql<{ name: string; n: number }>`
      select c.relname as name, count(i.inhrelid)::int as n from pg_class c
      left join pg_inherits i on i.inhparent = c.oid
      where c.relkind = 'p' and c.relnamespace = 'public'::regnamespace group by c.relname`.execute(
      store.db,
    );
    return new Map(rows.map((r) => [r.name, r.n]));
  }

  it('partitions every workspace table and keeps what was there, once', async () => {
    const ws = await testWorkspace(store);
    // Made by the run's template when SALESCRM_TEST_PG_PARTITIONS is set: 3 partitions otherwise.
    await partitionByWorkspace(store.db, 3);
    const counts = await partitioned();
    const n = counts.get('people')!;
    expect(n).toBeGreaterThan(0);
    for (const table of ['workspaces', ...WORKSPACE_TABLES]) expect(counts.get(table)).toBe(n);
    // Keys, indexes and triggers kept under their names.
    const { rows: indexes } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename in ('access_tokens', 'people')`.execute(
      store.db,
    );
    expect(indexes.map((i) => i.name)).toEqual(
      expect.arrayContaining(['access_tokens_pkey', 'access_tokens_token_hash', 'people_pkey']),
    );
    const { rows: triggers } = await sql<{ name: string }>`
      select tgname as name from pg_trigger where tgrelid = 'people'::regclass and not tgisinternal`.execute(
      store.db,
    );
    expect(triggers.map((t) => t.name)).toContain('people_search_values_delete');
    // The rows are there, and the service works on them.
    const app = await testApp(store);
    try {
      const made = await app.inject({
        method: 'POST',
        url: '/v2/people',
        headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: '분할된 고객' }),
      });
      expect(made.statusCode, made.body).toBe(201);
      const list = await get(app, ws.token, '/v2/people');
      expect(list.json.data.peopleList.map((p: { 이름: string }) => p.이름)).toEqual([
        '분할된 고객',
      ]);
    } finally {
      await app.close();
    }
    // Again: nothing to do.
    await partitionByWorkspace(store.db, 5);
    expect(await partitioned()).toEqual(counts);
  });

  it('refuses a unique index without the workspace, as a distributed database does', async () => {
    await partitionByWorkspace(store.db, 3);
    await expect(
      sql`create unique index people_id_alone on people (id)`.execute(store.db),
    ).rejects.toThrow(/partition/);
  });
});

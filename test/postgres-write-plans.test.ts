/**
 * PostgreSQL: a write's statements run on generic plans (`plan_cache_mode =
 * force_generic_plan` for its transaction alone): its statements are prepared once a
 * connection, but with `auto` PostgreSQL planned a write's last statement again at every
 * write (a custom plan each time, 0.3–0.6 ms of PostgreSQL's CPU, measured with
 * pg_stat_statements), where every statement of a write finds its rows by workspace and key.
 * Reads keep PostgreSQL's choice: a search's pattern, say, plans better with its value.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import {
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testStore,
  testWorkspace,
} from './helpers.ts';

describe.skipIf(TEST_DIALECT !== 'postgres')('PostgreSQL plans of a write', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const mode = async (db: Executor) =>
    (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows[0]
      ?.plan_cache_mode;

  it('are generic within the write, and PostgreSQL’s choice again on its connection after it', async () => {
    const inside = await writeWorkspace(store, ws.workspaceId, async (w) => mode(w.trx));
    expect(inside).toBe('force_generic_plan');
    // Every connection of the pool (the write's among them) is back to PostgreSQL's default.
    const after = await Promise.all(Array.from({ length: 12 }, () => mode(store.db)));
    expect(new Set(after)).toEqual(new Set(['auto']));
  });
});

/**
 * The PostgreSQL store's timeouts: the service's requests get `DATABASE_STATEMENT_TIMEOUT_MS`
 * (and an idle-in-transaction bound of twice it), while the CLI's long commands (import,
 * demo, migrate) open the store without them, since an import's transaction idles on the
 * database while the file is read and checked. (The PostgreSQL project runs this file.)
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/database.ts';
import { TEST_DIALECT, type TestStore, testStore } from './helpers.ts';

describe.runIf(TEST_DIALECT === 'postgres')('PostgreSQL timeouts', () => {
  let base: TestStore;
  const opened: Store[] = [];
  const saved = process.env.DATABASE_STATEMENT_TIMEOUT_MS;

  beforeAll(async () => {
    base = await testStore();
    process.env.DATABASE_STATEMENT_TIMEOUT_MS = '300';
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DATABASE_STATEMENT_TIMEOUT_MS;
    else process.env.DATABASE_STATEMENT_TIMEOUT_MS = saved;
    for (const store of opened) await store.close();
    await base?.dispose();
  });

  const open = (longRunning: boolean) => {
    const store = openStore(base.url, { longRunning });
    opened.push(store);
    return store;
  };
  /** A transaction that waits `ms` between two statements, as an import reading its file. */
  const idleTransaction = (store: Store, ms: number) =>
    store.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise((r) => setTimeout(r, ms));
      return (await sql<{ n: number }>`select 2 as n`.execute(trx)).rows[0]!.n;
    });

  it("ends a request's statement and idle transaction at the configured bounds", async () => {
    const store = open(false);
    const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(
      store.db,
    );
    expect(shown.rows[0]!.statement_timeout).toBe('300ms');
    await expect(sql`select pg_sleep(1)`.execute(store.db)).rejects.toThrow(/statement timeout/);
    await expect(idleTransaction(store, 1_000)).rejects.toThrow();
  });

  it('lets a long-running command hold its transaction and run long statements', async () => {
    const store = open(true);
    const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(
      store.db,
    );
    expect(shown.rows[0]!.statement_timeout).toBe('0');
    await sql`select pg_sleep(1)`.execute(store.db);
    expect(await idleTransaction(store, 1_000)).toBe(2);
  });
});

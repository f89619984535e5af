/**
 * PostgreSQL: which statements count as this process's own commits (`src/store/own-commits.ts`),
 * on which the store stales its kept lookups at once: an insert, update or delete that commits
 * on its own does; a read does not; the statements of a transaction's body, run on the
 * executor `inTransaction` gives it, do not (its runner says what it changed once it commits),
 * and neither do those of a transaction that rolls back.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, OwnCommits } from '../src/store/own-commits.ts';
import { TEST_DIALECT, type TestStore, testStore } from './helpers.ts';

interface Scratch {
  own_commits_scratch: { id: number; note: string };
}

describe.skipIf(TEST_DIALECT !== 'postgres')('own commits (PostgreSQL)', () => {
  let store: TestStore;
  let pool: pg.Pool;
  let db: Kysely<Scratch>;
  let commits = 0;

  beforeAll(async () => {
    store = await testStore();
    pool = new pg.Pool({ connectionString: store.url, max: 2 });
    db = new Kysely<Scratch>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new OwnCommits(() => commits++)],
    });
    await sql`create table own_commits_scratch (id int primary key, note text not null)`.execute(
      db,
    );
  });
  afterAll(async () => {
    await db?.destroy();
    await store?.dispose();
  });

  /** How many own commits `work` counted. */
  async function counted(work: () => Promise<unknown>): Promise<number> {
    const before = commits;
    await work();
    return commits - before;
  }

  it('counts an insert, an update and a delete that commit on their own, not a read', async () => {
    expect(
      await counted(() =>
        db.insertInto('own_commits_scratch').values({ id: 1, note: 'a' }).execute(),
      ),
    ).toBe(1);
    expect(
      await counted(() =>
        db.updateTable('own_commits_scratch').set({ note: 'b' }).where('id', '=', 1).execute(),
      ),
    ).toBe(1);
    expect(await counted(() => db.selectFrom('own_commits_scratch').selectAll().execute())).toBe(0);
    expect(
      await counted(() => db.deleteFrom('own_commits_scratch').where('id', '=', 1).execute()),
    ).toBe(1);
  });

  it('does not count the statements of a transaction run on its `inTransaction` executor', async () => {
    expect(
      await counted(() =>
        db.transaction().execute(async (trx) => {
          const body = inTransaction(trx);
          await body.insertInto('own_commits_scratch').values({ id: 2, note: 'a' }).execute();
          await body
            .updateTable('own_commits_scratch')
            .set({ note: 'c' })
            .where('id', '=', 2)
            .execute();
        }),
      ),
    ).toBe(0);
    // The transaction's statements ran on its connection: they committed with it.
    const row = await db
      .selectFrom('own_commits_scratch')
      .select('note')
      .where('id', '=', 2)
      .executeTakeFirst();
    expect(row?.note).toBe('c');
  });

  it('keeps the transaction: a body that fails rolls back what it wrote on its executor', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await inTransaction(trx)
          .insertInto('own_commits_scratch')
          .values({ id: 3, note: 'a' })
          .execute();
        throw new Error('fails');
      }),
    ).rejects.toThrow('fails');
    const rows = await db
      .selectFrom('own_commits_scratch')
      .select('id')
      .where('id', '=', 3)
      .execute();
    expect(rows).toEqual([]);
  });

  it('counts each statement of a transaction run on the plugin executor (why bodies get `inTransaction`)', async () => {
    expect(
      await counted(() =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('own_commits_scratch').values({ id: 4, note: 'a' }).execute();
        }),
      ),
    ).toBe(1);
  });
});

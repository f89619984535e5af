/**
 * A database that ran a later migration before an earlier one existed (017 merged before
 * 015 and 016) still migrates: the missing ones run after it, and the service works.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestStore, testStore } from './helpers.ts';

let store: TestStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(async () => {
  await store?.dispose();
});

it('runs 015 and 016 on a database that has 017 already', async () => {
  // The database as it was before 015 and 016: their tables and records gone.
  await store.db.schema.dropTable('file_chunks').execute();
  await store.db.schema.dropTable('files').execute();
  await store.db.schema.dropTable('emails').execute();
  await sql`delete from kysely_migration where name in ('015-files', '016-emails')`.execute(
    store.db,
  );
  await store.migrate();
  const names = await sql<{ name: string }>`select name from kysely_migration order by name`
    .execute(store.db)
    .then((r) => r.rows.map((x) => x.name));
  expect(names).toContain('015-files');
  expect(names).toContain('016-emails');
  expect(names).toContain('017-todos-stages');
  const files = await store.db.selectFrom('files').select('id').execute();
  const emails = await store.db.selectFrom('emails').select('id').execute();
  expect([files, emails]).toEqual([[], []]);
});

/**
 * Migration 005 on data that imports wrote without unique keys: the keys are filled in, and
 * rows that have theirs keep them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importedUniqueKeys } from '../src/store/migrations/005-imported-unique-keys.ts';
import { makeOrganization, makePerson } from './factories.ts';
import { type TestWorkspace, testStore, testWorkspace } from './helpers.ts';

let store: Awaited<ReturnType<typeof testStore>>;
let ws: TestWorkspace;

beforeAll(async () => {
  store = await testStore();
  ws = await testWorkspace(store);
});
afterAll(async () => {
  await store?.dispose();
});

it('fills the unique keys that rows lack, from their e-mail or name', async () => {
  const { keyless, kept, noEmail, org } = await ws.write(async (w) => ({
    keyless: await makePerson(w, { email: 'Ｌｅｅ@Example.com' }),
    kept: await makePerson(w, { email: 'park@example.com' }),
    noEmail: await makePerson(w, { email: null }),
    org: await makeOrganization(w, { name: '  한빛   테크 ' }),
  }));
  // As an import before this migration left them.
  await store.db
    .updateTable('people')
    .set({ email_key: null })
    .where('id', 'in', [keyless])
    .execute();
  await store.db
    .updateTable('people')
    .set({ email_key: 'kept as it was' })
    .where('id', '=', kept)
    .execute();
  await store.db
    .updateTable('organizations')
    .set({ name_key: null })
    .where('id', '=', org)
    .execute();

  await importedUniqueKeys.up(store.db as never);

  const people = await store.db
    .selectFrom('people')
    .select(['id', 'email_key'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  const keyOf = new Map(people.map((p) => [p.id, p.email_key]));
  expect(keyOf.get(keyless)).toBe('lee@example.com');
  expect(keyOf.get(kept)).toBe('kept as it was');
  expect(keyOf.get(noEmail)).toBeNull();
  const orgs = await store.db
    .selectFrom('organizations')
    .select('name_key')
    .where('id', '=', org)
    .executeTakeFirstOrThrow();
  expect(orgs.name_key).toBe('한빛 테크');
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../src/resources/workspaces/writes.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makePerson } from './factories.ts';
import { get, TEST_DIALECT, testApp, testStore, testWorkspace } from './helpers.ts';

/**
 * The server remembers token lookups and rendered pages while the database is unchanged.
 * Changes committed through another connection (as the CLI or another server process
 * makes them) must be seen on the very next request. A request from a client reaches the
 * server in a later turn of its event loop than any commit the client saw complete, and the
 * server reads the database's change stamp once a turn: `nextRequest` waits for that turn.
 * On PostgreSQL the server learns of commits from the notifications they send, which reach
 * it before any request sent after the commit; in one process the two race, so
 * `nextRequest` first waits until the app's store has every notification sent so far.
 */
const nextRequest = async (appStore?: Store) => {
  await appStore?.changes?.().sync();
  await new Promise((resolve) => setImmediate(resolve));
};
describe('changes made by another process', () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let other: Store;
  beforeAll(async () => {
    store = await testStore();
    other = openStore(store.url);
  });
  afterAll(async () => {
    await other.close();
    await store.dispose();
  });

  it('a token revoked elsewhere fails on the next request', async () => {
    const ws = await testWorkspace(store);
    const app = await testApp(store);
    expect((await get(app, ws.token, '/v2/people')).status).toBe(200);
    expect((await get(app, ws.token, '/v2/people')).status).toBe(200);
    expect(await revokeToken(other, ws.tokenId)).toBe(true);
    await nextRequest(store);
    const res = await get(app, ws.token, '/v2/people');
    expect(res.status).toBe(401);
    await app.close();
  });

  it('a record written elsewhere shows on the next request of a cached page', async () => {
    const ws = await testWorkspace(store);
    const app = await testApp(store);
    const before = await get(app, ws.token, '/v2/people');
    expect(before.json.data.peopleList).toHaveLength(0);
    expect((await get(app, ws.token, '/v2/people')).text).toBe(before.text);
    await writeWorkspace(other, ws.workspaceId, (w) => makePerson(w, { name: '다른 프로세스' }));
    await nextRequest(store);
    const after = await get(app, ws.token, '/v2/people');
    expect(after.json.data.peopleList.map((p: { 이름: string }) => p['이름'])).toEqual([
      '다른 프로세스',
    ]);
    await app.close();
  });

  it('the change stamp: read once a turn, moved at once by writes of this store', async () => {
    const before = store.changeStamp();
    await store.db.updateTable('workspaces').set({ name: '이름 바꿈' }).execute();
    const afterOwn = store.changeStamp();
    expect(afterOwn).not.toEqual(before);
    await other.db.updateTable('workspaces').set({ name: '다시 바꿈' }).execute();
    // SQLite reads its stamp once a turn; PostgreSQL's is a query each time.
    if (TEST_DIALECT === 'sqlite') expect(store.changeStamp()).toEqual(afterOwn);
    await nextRequest(store);
    expect(store.changeStamp()).not.toEqual(afterOwn);
  });
});

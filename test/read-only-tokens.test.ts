import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { createToken, listTokens } from '../src/resources/workspaces/writes.ts';
import { isWriteRoute } from '../src/server/read-only.ts';
import { get, post, type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';

/** A path of the document with its parameters filled with an id no record has. */
function concrete(path: string): string {
  return path.replace('{targetType}', 'people').replace(/\{[^}]+\}/g, 'no-such-id');
}

describe('read-only tokens', () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let app: Awaited<ReturnType<typeof testApp>>;
  let ws: TestWorkspace;
  let readOnly: string;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    readOnly = (await createToken(store, ws.workspaceId, ws.userId, 'ro', { readOnly: true }))
      .token;
    app = await testApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.dispose();
  });

  it('are stored as such; other tokens, old ones included, may write', async () => {
    const tokens = await listTokens(store, ws.workspaceId);
    expect(tokens.map((t) => [t.name, Number(t.read_only)])).toEqual([
      [null, 0],
      ['ro', 1],
    ]);
  });

  it('get 403 in shape A on every write route, and only there', async () => {
    const posts = OPERATIONS.filter((o) => o.api && o.method === 'POST');
    expect(posts.length).toBeGreaterThan(15);
    for (const op of posts) {
      const url = concrete(op.path);
      const refused = await post(app, readOnly, url, {});
      if (op.readsOnly) {
        expect(refused.status, url).not.toBe(403);
      } else {
        expect([url, refused.status]).toEqual([url, 403]);
        expect(Object.keys(refused.json)).toEqual(['success', 'message', 'reason']);
        expect(refused.json.message).toContain('읽기 전용');
        // The same call with a read-write token is not refused for that.
        expect((await post(app, ws.token, url, {})).status, url).not.toBe(403);
      }
    }
  });

  it('the server and the document agree on which POSTs only read', () => {
    for (const op of OPERATIONS.filter((o) => o.api && o.method === 'POST')) {
      const route = op.path.replace(/\{([^}]+)\}/g, ':$1');
      expect([op.path, isWriteRoute('POST', route)]).toEqual([op.path, !op.readsOnly]);
    }
    expect(isWriteRoute('GET', '/v2/people')).toBe(false);
    expect(isWriteRoute('DELETE', '/v2/anything')).toBe(true);
  });

  it('read every GET list, and search, and read in batches', async () => {
    // A list that needs parameters (the files of a record) is read with them elsewhere.
    for (const op of OPERATIONS.filter(
      (o) =>
        o.api && o.method === 'GET' && !o.path.includes('{') && !o.query.some((q) => q.required),
    )) {
      expect([op.path, (await get(app, readOnly, op.path)).status]).toEqual([op.path, 200]);
    }
    const search = await post(app, readOnly, '/v2/object/deal/search', {
      filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }],
    });
    expect(search.status).toBe(200);
    const batch = await post(app, readOnly, '/v3/object/read', {
      objectType: 'people',
      idList: ['x'],
    });
    expect(batch.status).toBe(200);
  });
});

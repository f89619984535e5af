/**
 * `GET /v2/memo/type-list` (docs/decisions.md, Other resources): the note types
 * `{_id, value, color}`, the same fixed set in every workspace, color names rather than hex; the
 * static path is not read as a note id.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeNote, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

describe('GET /v2/memo/type-list', () => {
  it('lists the note types with _id, value and a color name', async () => {
    const res = await get(app, ws.token, '/v2/memo/type-list');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['typeList']);
    const types = res.json.data.typeList as Record<string, unknown>[];
    expect(types.map((t) => t.value)).toEqual(['일반', '통화', '미팅', '이메일']);
    for (const type of types) {
      expect(Object.keys(type)).toEqual(['_id', 'value', 'color']);
      expect(type.color).toMatch(/^[a-z]+$/);
    }
    expect(new Set(types.map((t) => t._id)).size).toBe(types.length);
  });

  it('is the same for every workspace, and notes are still read by id beside it', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const mine = await get(app, ws.token, '/v2/memo/type-list');
    const theirs = await get(app, other.token, '/v2/memo/type-list');
    expect(theirs.text).toBe(mine.text);
    const memoId = await ws.write(async (w) =>
      makeNote(w, { subjectType: 'people', subjectId: await makePerson(w), text: '노트' }),
    );
    const memo = await get(app, ws.token, `/v2/memo/${memoId}`);
    expect(memo.status, memo.text).toBe(200);
    expect(memo.json.data.memo.text).toBe('노트');
  });

  it('needs a token, and names unknown parameters', async () => {
    expect((await get(app, null, '/v2/memo/type-list')).status).toBe(401);
    const res = await get(app, ws.token, '/v2/memo/type-list?typeId=x');
    expect(res.status).toBe(200);
    expect(res.headers['x-ignored-parameters']).toBe('typeId');
  });
});

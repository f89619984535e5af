/**
 * Text holding U+0000 (which PostgreSQL cannot store) is refused with a 400 in shape A
 * naming where it is, on both stores alike, in any write body, search and query value,
 * and nothing is written.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { appWithWorkspace, get, post, type TestStore, type TestWorkspace } from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made), { workspace: 'file' });

const NUL = 'a\u0000b';

describe('U+0000 in text', () => {
  it.each([
    ['/v2/people', { name: NUL }, "'name'"],
    ['/v2/people', { name: '고객', memo: NUL }, "'memo'"],
    [
      '/v2/people',
      { name: '고객', fieldList: [{ name: '포지션', stringValue: NUL }] },
      "'fieldList[0].stringValue'",
    ],
    [
      '/v2/organization',
      { name: '회사', fieldList: [{ name: NUL, stringValue: 'x' }] },
      "'fieldList[0].name'",
    ],
    ['/v2/product', { name: NUL, price: 1 }, "'name'"],
    [
      '/v2/object/people/search',
      { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EQ', value: NUL }] }] },
      "'filterGroupList[0].filters[0].value'",
    ],
  ])('POST %s %j is a 400 naming %s, and writes nothing', async (url, body, where) => {
    const before = await tableSnapshot(store);
    const res = await post(app, ws.token, url, body);
    expect(res.status, res.text).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toContain(where);
    expect(res.json.message).toContain('U+0000');
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('in a query value is a 400 naming the parameter', async () => {
    for (const url of [
      '/v2/deal?pipelineName=a%00b',
      '/v2/memo?ownerId=%00',
      '/v2/people?cursor=%00',
    ]) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.json.message).toContain('U+0000');
    }
  });
});

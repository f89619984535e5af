/**
 * Text holding U+0000 (which PostgreSQL cannot store) or a UTF-16 surrogate without its
 * pair (`"\ud800"` in JSON: no UTF-8 encodes it, so each store kept something else) is
 * refused with a 400 in shape A naming where it is, on both stores alike, in any write
 * body, search and query value, and nothing is written.
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

describe('a surrogate without its pair in text', () => {
  it.each([
    ['/v2/people', '{"name":"x\\ud800y"}', "'name'", 'U+D800'],
    ['/v2/people', '{"name":"고객","memo":"\\udc00"}', "'memo'", 'U+DC00'],
    ['/v2/people', '{"name":"고객","memo":"ab\\ude00\\ud83d"}', "'memo'", 'U+DE00'],
    [
      '/v2/people',
      '{"name":"고객","fieldList":[{"name":"포지션","stringValue":"\\udbff"}]}',
      "'fieldList[0].stringValue'",
      'U+DBFF',
    ],
    [
      '/v2/organization',
      '{"name":"회사","fieldList":[{"name":"\\ud800","stringValue":"x"}]}',
      "'fieldList[0].name'",
      'U+D800',
    ],
    ['/v2/people', '{"name":"고객","\\ud800":1}', "'\ud800'", 'U+D800'],
    [
      '/v2/object/people/search',
      '{"filterGroupList":[{"filters":[{"fieldName":"이름","operator":"EQ","value":"\\ud800"}]}]}',
      "'filterGroupList[0].filters[0].value'",
      'U+D800',
    ],
  ])('POST %s %s is a 400 naming %s, and writes nothing', async (url, body, where, char) => {
    const before = await tableSnapshot(store);
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json();
    expect(json.success).toBe(false);
    expect(json.message).toContain(where);
    expect(json.message).toContain(char);
    expect(json.reason).toBe(json.message);
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('keeps a pair (an emoji, escaped or not) as it is', async () => {
    const res = await post(app, ws.token, '/v2/people', { name: '\ud83d\ude00 고객', memo: '😀' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.people.name).toBe('😀 고객');
    const read = await get(app, ws.token, `/v2/people/${res.json.data.people.id}`);
    expect(read.json.data.people[0]['이름']).toBe('😀 고객');
  });

  it('in a query value is a 400 naming the parameter, before it is read as anything', async () => {
    // Percent-encoded, a surrogate is invalid UTF-8 (`%ED%A0%80`): Fastify leaves such a
    // value as it was sent, so only a value decoded by other means could hold one.
    const res = await get(app, ws.token, '/v2/people?cursor=%ED%A0%80');
    expect(res.status, res.text).toBe(400);
    expect(res.json.success).toBe(false);
  });
});

/**
 * `?fieldList=` on the record lists and single reads: `id` and the chosen fields, in the
 * record's own key order; without it, the answer is what it always was; unknown names 400.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCustomField, makeDeal, makeLead, makePipeline, makeProduct } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  walk,
} from './helpers.ts';

let app: FastifyInstance;
let ws: TestWorkspace;
let store: TestStore;
appWithWorkspace((made) => ({ store, app, ws } = made), { workspace: 'file' });
beforeAll(async () => {
  await ws.write(async (w) => {
    await makeCustomField(w, 'people', '등급');
    const pipeline = await makePipeline(w);
    await makeDeal(w, {
      pipelineId: pipeline.id,
      stageId: pipeline.stageIds[0]!,
      name: '딜 하나',
    });
    await makeLead(w, { name: '리드 하나' });
    await makeProduct(w, { name: '상품 하나' });
  });
  for (let i = 0; i < 7; i++) {
    const res = await post(app, ws.token, '/v2/people', {
      name: `고객${i}`,
      fieldList: [
        { name: '이메일', stringValue: `c${i}@example.com` },
        { name: '등급', stringValue: `G${i}` },
      ],
    });
    expect(res.status, res.text).toBe(201);
  }
  expect((await post(app, ws.token, '/v2/organization', { name: '회사 하나' })).status).toBe(201);
});

const pick = (record: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => k === 'id' || names.includes(k)));

describe('?fieldList= on record reads', () => {
  it.each([
    ['/v2/people', 'peopleList', ['등급', '이름', '이메일']],
    ['/v2/organization', 'organizationList', ['이름']],
    ['/v2/deal', 'dealList', ['금액', '이름']],
    ['/v2/lead', 'leadList', ['이름', '담당자']],
    ['/v2/product', 'productList', ['금액']],
  ] as const)(
    '%s keeps id and the chosen fields, in record key order, on every page',
    async (path, key, names) => {
      const full = await walk(app, ws.token, `${path}?limit=3`, key);
      const chosen = await walk(
        app,
        ws.token,
        `${path}?limit=3&fieldList=${encodeURIComponent(names.join(','))}`,
        key,
      );
      expect(chosen.records.length).toBeGreaterThan(0);
      expect(chosen.records).toEqual(full.records.map((r) => pick(r, [...names])));
      for (const record of chosen.records) {
        const order = Object.keys(full.records.find((r) => r.id === record.id)!).filter(
          (k) => k in record,
        );
        expect(Object.keys(record)).toEqual(order);
      }
    },
  );

  it('on single reads too, and the answer without it is unchanged, byte for byte', async () => {
    const people = (await get(app, ws.token, '/v2/people?limit=1')).json.data.peopleList;
    const id = people[0].id;
    const plain = await get(app, ws.token, `/v2/people/${id}`);
    const chosen = await get(
      app,
      ws.token,
      `/v2/people/${id}?fieldList=${encodeURIComponent('이메일, 등급')}`,
    );
    expect(chosen.status).toBe(200);
    expect(chosen.json.data.people).toEqual([pick(plain.json.data.people[0], ['이메일', '등급'])]);
    // Asked again without: the page cache holds each answer under its own URL.
    const again = await get(app, ws.token, `/v2/people/${id}`);
    expect(again.text).toBe(plain.text);
    const lead = (await get(app, ws.token, '/v2/lead')).json.data.leadList[0];
    const one = await get(
      app,
      ws.token,
      `/v2/lead/${lead.id}?fieldList=${encodeURIComponent('이름')}`,
    );
    expect(one.json.data.lead).toEqual([{ id: lead.id, 이름: lead['이름'] }]);
    const list = await get(app, ws.token, '/v2/people?limit=2');
    await get(app, ws.token, `/v2/people?limit=2&fieldList=${encodeURIComponent('이름')}`);
    expect((await get(app, ws.token, '/v2/people?limit=2')).text).toBe(list.text);
  });

  it.each([
    ['/v2/people?fieldList=', /fieldList/],
    [`/v2/people?fieldList=${encodeURIComponent('없는 필드')}`, /알 수 없는 필드 '없는 필드'/],
    [`/v2/deal?fieldList=${encodeURIComponent('이름,이멜')}`, /'이멜'/],
    [`/v2/organization?fieldList=${encodeURIComponent(',,')}`, /fieldList/],
  ])('%s is a 400 in shape A', async (url, message) => {
    const res = await get(app, ws.token, url);
    expect(res.status, res.text).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toMatch(message);
  });
});

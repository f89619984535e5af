/**
 * `POST /v2/product/{productId}` and `POST /v2/product/{productId}/delete`: changes read back
 * through the product list and the deals and leads whose main quote shows the product's
 * name; `유형` fixed while quotes use the product and deletes refused then (409); bad input
 * that writes nothing; isolation between workspaces.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeCustomField, makeNote, makePerson, makePipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let personId: string;
let pipeline: { id: string; stageIds: string[] };
appWithWorkspace((made) => ({ store, app, ws } = made));
beforeEach(async () => {
  ({ personId, pipeline } = await ws.write(async (w) => ({
    personId: await makePerson(w, { name: '고객' }),
    pipeline: await makePipeline(w),
  })));
});

async function ok(url: string, body: unknown, status = 200, token = ws.token): Promise<Rec> {
  const res = await post(app, token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  return res.json.data;
}

async function newProduct(name = '상품', price = 1000): Promise<string> {
  return ((await ok('/v2/product', { name, price }, 201)).product as Rec).id as string;
}

async function products(token = ws.token): Promise<Rec[]> {
  return (await get(app, token, '/v2/product?limit=100')).json.data.productList;
}

/** A deal and a lead, each with a main quote of one line of the product. */
async function mainQuotesOf(productId: string): Promise<{ dealId: string; leadId: string }> {
  const deal = await ok(
    '/v2/deal',
    {
      name: '딜',
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.stageIds[0],
      status: 'In progress',
      peopleId: personId,
    },
    201,
  );
  const lead = await ok('/v2/lead', { name: '리드', peopleId: personId }, 201);
  const dealId = (deal.deal as Rec).id as string;
  const leadId = (lead.lead as Rec).id as string;
  for (const key of ['dealId', 'leadId'] as const)
    await ok(
      '/v2/quote',
      {
        name: '견적',
        [key]: key === 'dealId' ? dealId : leadId,
        isMainQuote: true,
        quoteProductList: [{ productId, amount: 1 }],
      },
      201,
    );
  return { dealId, leadId };
}

describe('POST /v2/product/{productId}', () => {
  it('changes name, price and fields; the list shows them', async () => {
    await ws.write((w) => makeCustomField(w, 'product', '제조사'));
    const id = await newProduct('옛 상품', 1000);
    const [before] = await products();
    const data = await ok(`/v2/product/${id}`, {
      name: '새 상품',
      price: 2500,
      fieldList: [
        { name: '코드', stringValue: 'P-1' },
        { name: '유형', stringValue: '구독 (월간)' },
        { name: '단위', stringValue: '개' },
        { name: '제조사', stringValue: '한빛' },
      ],
      memo: '가격 인상',
    });
    expect(Object.keys(data.product as Rec)).toEqual(['id', 'name', 'updatedAt']);
    expect(data.product).toMatchObject({ id, name: '새 상품' });
    const [after] = await products();
    expect(Object.keys(after!)).toEqual(Object.keys(before!));
    expect(after).toMatchObject({
      id,
      이름: '새 상품',
      코드: 'P-1',
      유형: '구독 (월간)',
      금액: 2500,
      단위: '개',
      제조사: '한빛',
    });
    expect(after!['수정 날짜']).toBe((data.product as Rec).updatedAt);
    const memos = (await get(app, ws.token, '/v2/memo')).json.data.memoList as Rec[];
    expect(memos.map((m) => m.text)).toContain('가격 인상');
  });

  it('a new name shows in the main quote product lists of deals and leads, in the same write', async () => {
    const id = await newProduct('옛 이름');
    const { dealId, leadId } = await mainQuotesOf(id);
    await ok(`/v2/product/${id}`, { name: '새 이름' });
    const [deal] = (await get(app, ws.token, `/v2/deal/${dealId}`)).json.data.deal;
    expect(deal['메인 견적 상품 리스트']).toEqual([{ id, name: '새 이름' }]);
    const [listed] = (await get(app, ws.token, '/v2/deal')).json.data.dealList;
    expect(listed['메인 견적 상품 리스트']).toEqual([{ id, name: '새 이름' }]);
    const [lead] = (await get(app, ws.token, `/v2/lead/${leadId}`)).json.data.lead;
    expect(lead['메인 견적 상품 리스트']).toEqual([{ id, name: '새 이름' }]);
    // The deal's change is an event of the system.
    const events = (await get(app, ws.token, '/v2/event?objectType=deal&limit=100')).json.data
      .eventList as Rec[];
    const change = events
      .filter((e) => e.fieldName === '메인 견적 상품 리스트' && e.objectId === dealId)
      .at(-1);
    expect(change).toMatchObject({
      source: '시스템',
      beforeField: [{ id, name: '옛 이름' }],
      afterField: [{ id, name: '새 이름' }],
    });
  });

  it('refuses to change 유형 while quotes use the product (409), but the name and price change', async () => {
    const id = await newProduct();
    await mainQuotesOf(id);
    const snap = await tableSnapshot(store);
    const res = await post(app, ws.token, `/v2/product/${id}`, {
      fieldList: [{ name: '유형', stringValue: '구독 (연간)' }],
    });
    expect(res.status, res.text).toBe(409);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toContain('유형');
    expect(await tableSnapshot(store)).toEqual(snap);
    await ok(`/v2/product/${id}`, { price: 1 });
  });

  const BAD: [string, unknown, string][] = [
    ['a negative price', { price: -1 }, 'price'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an unknown field', { fieldList: [{ name: '없는 필드', stringValue: 'x' }] }, '없는 필드'],
    ['an unknown kind', { fieldList: [{ name: '유형', stringValue: '렌탈' }] }, '유형'],
    ['a cleared kind', { fieldList: [{ name: '유형', stringValue: null }] }, '유형'],
    ['금액 in fieldList', { fieldList: [{ name: '금액', numberValue: 3 }] }, 'price'],
    ['not an object', [1], '객체'],
  ];
  for (const [label, body, part] of BAD) {
    it(`refuses ${label} (400, shape A, nothing written)`, async () => {
      const id = await newProduct();
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, `/v2/product/${id}`, body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(part);
      expect(await tableSnapshot(store)).toEqual(snap);
    });
  }

  it("is 404 for an unknown product or another workspace's", async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const id = await newProduct('내 상품');
    for (const [token, url] of [
      [ws.token, '/v2/product/no-such-product'],
      [other.token, `/v2/product/${id}`],
      [other.token, `/v2/product/${id}/delete`],
    ] as const) {
      const snap = await tableSnapshot(store);
      const res = await post(app, token, url, { name: 'x' });
      expect(res.status, res.text).toBe(404);
      expect(res.json.success).toBe(false);
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    expect((await products())[0]).toMatchObject({ id, 이름: '내 상품' });
  });
});

describe('POST /v2/product/{productId}/delete', () => {
  it('deletes the product with its notes', async () => {
    const keep = await newProduct('남길 상품');
    const id = await newProduct('지울 상품');
    await ws.write((w) => makeNote(w, { subjectType: 'product', subjectId: id, text: '메모' }));
    const res = await post(app, ws.token, `/v2/product/${id}/delete`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await products()).map((p) => p.id)).toEqual([keep]);
    const memos = (await get(app, ws.token, '/v2/memo')).json.data.memoList as Rec[];
    expect(memos.map((m) => m.text)).not.toContain('메모');
    // Gone: a second delete is 404.
    expect((await post(app, ws.token, `/v2/product/${id}/delete`)).status).toBe(404);
  });

  it('refuses while quotes use the product (409), writing nothing', async () => {
    const id = await newProduct();
    await mainQuotesOf(id);
    const snap = await tableSnapshot(store);
    const res = await post(app, ws.token, `/v2/product/${id}/delete`);
    expect(res.status, res.text).toBe(409);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toContain('견적서 2개');
    expect(await tableSnapshot(store)).toEqual(snap);
  });

  it('a malformed id is 400', async () => {
    const res = await post(app, ws.token, '/v2/product/bad%20id/delete');
    expect(res.status, res.text).toBe(400);
    expect(res.json.message).toContain('productId');
  });
});

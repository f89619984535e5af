/**
 * The live API's selects that read as codes and are written by their Korean labels: a
 * product's `상태`, a deal's `구독 시작 유형` and `구독 종료 유형`, a quote's `할인 유형`. Where a
 * workspace has them (select fields of those names whose options are the codes), writes take
 * the label or the code, and the record reads the code; a quote product's `할인 유형` takes
 * the code only, as the live API's.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { makePerson, makePipeline } from './factories.ts';
import { appWithWorkspace, get, post, type TestStore, type TestWorkspace } from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

const SUBSCRIPTION = ['newBusiness', 'upgrade', 'downgrade', 'renewal', 'churned'];
const DISCOUNT = ['percentage', 'fixed'];

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let personId: string;
let pipeline: { id: string; stageIds: string[] };
appWithWorkspace((made) => ({ store, app, ws } = made), { workspace: 'file' });
beforeAll(async () => {
  ({ personId, pipeline } = await ws.write(async (w) => {
    const select = (
      recordType: 'product' | 'deal' | 'quote' | 'quoteProduct',
      name: string,
      options: string[],
    ) => defineCustomField(w, { recordType, name, type: 'singleSelect', options });
    await select('product', '상태', ['active', 'inactive']);
    await select('deal', '구독 시작 유형', SUBSCRIPTION);
    await select('deal', '구독 종료 유형', SUBSCRIPTION);
    await select('quote', '할인 유형', DISCOUNT);
    await select('quoteProduct', '할인 유형', DISCOUNT);
    return { personId: await makePerson(w), pipeline: await makePipeline(w) };
  }));
});

async function ok(url: string, body: unknown, status = 200): Promise<Rec> {
  const res = await post(app, ws.token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  return res.json.data;
}

const text = (name: string, value: string) => ({ name, stringValue: value });

it('a product’s 상태 is written as 활성 or 비활성 (or its code) and reads as the code', async () => {
  const made: string[] = [];
  for (const value of ['활성', '비활성', 'active', 'inactive']) {
    const data = await ok(
      '/v2/product',
      { name: `상품 ${value}`, price: 1, fieldList: [text('상태', value)] },
      201,
    );
    made.push((data.product as Rec).id as string);
  }
  const list = (await get(app, ws.token, '/v2/product?limit=100')).json.data.productList as Rec[];
  expect(made.map((id) => list.find((p) => p.id === id)!['상태'])).toEqual([
    'active',
    'inactive',
    'active',
    'inactive',
  ]);
  await ok(`/v2/product/${made[0]}`, { fieldList: [text('상태', '비활성')] });
  const after = (await get(app, ws.token, '/v2/product?limit=100')).json.data.productList as Rec[];
  expect(after.find((p) => p.id === made[0])!['상태']).toBe('inactive');
});

it('a deal’s 구독 시작 유형 and 구독 종료 유형 take 신규, 업그레이드, 다운그레이드, 갱신, 이탈, also in a batch', async () => {
  const labels = ['신규', '업그레이드', '다운그레이드', '갱신', '이탈'];
  const deal = (fieldList: unknown[]) => ({
    name: '구독 딜',
    pipelineId: pipeline.id,
    pipelineStageId: pipeline.stageIds[0],
    status: 'In progress',
    peopleId: personId,
    fieldList,
  });
  for (const [i, label] of labels.entries()) {
    const id = ((await ok('/v2/deal', deal([text('구독 시작 유형', label)]), 201)).deal as Rec)
      .id as string;
    await ok(`/v2/deal/${id}`, { fieldList: [text('구독 종료 유형', labels[4 - i]!)] });
    const read = (await get(app, ws.token, `/v2/deal/${id}`)).json.data.deal[0] as Rec;
    expect([read['구독 시작 유형'], read['구독 종료 유형']]).toEqual([
      SUBSCRIPTION[i],
      SUBSCRIPTION[4 - i],
    ]);
  }
  const batch = await ok(
    '/v3/object/create',
    {
      objectType: '딜',
      inputList: [
        {
          data: {
            이름: '배치 구독 딜',
            파이프라인: pipeline.id,
            '파이프라인 단계': pipeline.stageIds[0],
            상태: 'In progress',
            '구독 시작 유형': '갱신',
            '구독 종료 유형': 'churned',
          },
          association: { people: personId },
        },
      ],
    },
    201,
  );
  const id = (batch.objectList as Rec[])[0]!.id as string;
  const read = (await get(app, ws.token, `/v2/deal/${id}`)).json.data.deal[0] as Rec;
  expect([read['구독 시작 유형'], read['구독 종료 유형']]).toEqual(['renewal', 'churned']);
});

it('a quote’s 할인 유형 takes % and 원; its products’ 할인 유형 takes the code only', async () => {
  const dealId = (
    (
      await ok(
        '/v2/deal',
        {
          name: '견적 딜',
          pipelineId: pipeline.id,
          pipelineStageId: pipeline.stageIds[0],
          status: 'In progress',
          peopleId: personId,
        },
        201,
      )
    ).deal as Rec
  ).id as string;
  const productId = (
    (await ok('/v2/product', { name: '할인 상품', price: 100 }, 201)).product as Rec
  ).id as string;
  const quote = (value: string, lineValue: string) => ({
    name: `견적 ${value}`,
    dealId,
    fieldList: [text('할인 유형', value)],
    quoteProductList: [{ productId, fieldList: [text('할인 유형', lineValue)] }],
  });
  await ok('/v2/quote', quote('%', 'percentage'), 201);
  await ok('/v2/quote', quote('원', 'fixed'), 201);
  await ok('/v2/quote', quote('fixed', 'fixed'), 201);
  const quotes = (await get(app, ws.token, `/v2/deal/${dealId}/quote`)).json.data
    .quoteList as Rec[];
  expect(quotes.map((q) => q['할인 유형'])).toEqual(['percentage', 'fixed', 'fixed']);
  expect(quotes.map((q) => (q['견적 구성 상품'] as Rec[])[0]!['할인 유형'])).toEqual([
    'percentage',
    'fixed',
    'fixed',
  ]);
  const before = await tableSnapshot(store);
  const refused = await post(app, ws.token, '/v2/quote', quote('%', '%'));
  expect(refused.status, refused.text).toBe(400);
  expect(refused.json.message).toContain('할인 유형');
  expect(await tableSnapshot(store)).toEqual(before);
});

it('a label that is no option of a select the workspace made with other values stays refused', async () => {
  const res = await post(app, ws.token, '/v2/product', {
    name: '엉뚱한 상품',
    price: 1,
    fieldList: [text('상태', '보류')],
  });
  expect(res.status, res.text).toBe(400);
  expect(res.json.message).toContain("'보류'");
});

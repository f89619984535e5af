/**
 * Notes as the live API's note record has them: `GET /v2/memo` gives each note its
 * `cursorId` (the cursor that continues after it), its `htmlBody`, and the `productId`,
 * `quoteId`, `todoId` and `parentId` it is on or answers; `GET /v2/memo/{id}` the same but
 * the cursor. Notes are written on products, quotes and todos, as replies and as HTML, and
 * `POST /v2/{type}/{id}/memo` takes the text as `memo` too.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeDeal, makePerson, makeProduct, makeQuote, makeTodo } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  walk,
} from './helpers.ts';
import { MEMO_KEYS } from './shapes.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let ids: { person: string; deal: string; product: string; quote: string; todo: string };
appWithWorkspace((made) => ({ store, app, ws } = made));

beforeEach(async () => {
  ids = await ws.write(async (w) => {
    const person = await makePerson(w, { name: '김노트' });
    const deal = await makeDeal(w, { peopleId: person });
    const product = await makeProduct(w, { name: 'CRM 프로' });
    const quote = await makeQuote(w, { dealId: deal, lines: [{ productId: product }] });
    const todo = await makeTodo(w, { subjectType: 'deal', subjectId: deal, title: '견적 후속' });
    return { person, deal, product, quote, todo };
  });
});

const KEYS = MEMO_KEYS;

async function write(path: string, body: unknown): Promise<Rec> {
  const res = await post(app, ws.token, path, body);
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.json.data.memo as Rec;
}

async function one(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/memo/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.memo as Rec;
}

describe('GET /v2/memo', () => {
  it('has the live keys in order, with cursorId first in the list, which continues after it', async () => {
    const first = await write(`/v2/deal/${ids.deal}/memo`, { text: '첫 노트' });
    const second = await write(`/v2/deal/${ids.deal}/memo`, { text: '둘째 노트' });
    const third = await write(`/v2/deal/${ids.deal}/memo`, { text: '셋째 노트' });
    const res = await get(app, ws.token, `/v2/memo?dealId=${ids.deal}`);
    expect(res.status, res.text).toBe(200);
    const list = res.json.data.memoList as Rec[];
    expect(list.map((m) => m.id)).toEqual([first.id, second.id, third.id]);
    for (const m of list) {
      expect(Object.keys(m)).toEqual(['id', 'cursorId', ...KEYS.slice(1)]);
      const { cursorId, ...rest } = m;
      expect(rest).toEqual(await one(m.id as string));
      expect(Object.keys(await one(m.id as string))).toEqual(KEYS);
    }
    // A note's cursorId, sent as the cursor, lists the notes after it.
    const after = await get(
      app,
      ws.token,
      `/v2/memo?dealId=${ids.deal}&cursor=${list[0]!.cursorId}`,
    );
    expect(after.status, after.text).toBe(200);
    expect(after.json.data.memoList.map((m: Rec) => m.id)).toEqual([second.id, third.id]);
    // It is the list's own cursor: the page of one ends on the cursor of its note.
    const page = await get(app, ws.token, `/v2/memo?dealId=${ids.deal}&limit=1`);
    expect(page.json.data.nextCursor).toBe(page.json.data.memoList[0].cursorId);
  });

  it('walks every note of the workspace through cursorIds as through nextCursor', async () => {
    for (let i = 0; i < 5; i++) await write(`/v2/people/${ids.person}/memo`, { text: `노트 ${i}` });
    const { records } = await walk(app, ws.token, '/v2/memo?limit=2', 'memoList');
    expect(records).toHaveLength(5);
    expect(new Set(records.map((r) => r.cursorId)).size).toBe(5);
  });
});

describe('notes on products, quotes and todos', () => {
  it('names the product and the quote a note is on', async () => {
    const onProduct = await write(`/v2/product/${ids.product}/memo`, { text: '가격 인상 예정' });
    expect(onProduct).toMatchObject({ productId: ids.product, quoteId: null, dealId: null });
    const onQuote = await write(`/v2/quote/${ids.quote}/memo`, { text: '할인 승인' });
    expect(onQuote).toMatchObject({ quoteId: ids.quote, productId: null, dealId: null });
    // A product created with a memo has its note, named so too.
    const created = await post(app, ws.token, '/v2/product', {
      name: '애드온',
      price: 1000,
      memo: '신규 상품',
    });
    expect(created.status, created.text).toBe(201);
    const productId = created.json.data.product.id;
    const listed = (await walk(app, ws.token, '/v2/memo', 'memoList')).records;
    expect(listed.find((m) => m.text === '신규 상품')).toMatchObject({ productId });
  });

  it('writes a note on a todo on the todo’s record, and deletes it with the todo', async () => {
    const memo = await write(`/v2/todo/${ids.todo}/memo`, { text: '통화 전 견적 확인' });
    expect(memo).toMatchObject({ todoId: ids.todo, dealId: ids.deal, parentId: null });
    expect(await one(memo.id as string)).toEqual(memo);
    // The deal's NOTE group follows, a change by the API as a note on the deal would be.
    const deal = await get(app, ws.token, `/v2/deal/${ids.deal}`);
    expect(deal.json.data.deal[0]['최근 작성된 노트']).toBe('통화 전 견적 확인');
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    expect(
      events.find((e) => e.objectId === ids.deal && e.fieldName === '최근 작성된 노트'),
    ).toMatchObject({ event: '수정', source: 'API', sourceId: ws.userId });
    const deleted = await post(app, ws.token, `/v2/todo/${ids.todo}/delete`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await get(app, ws.token, `/v2/memo/${memo.id}`)).status).toBe(404);
    const activities = await get(app, ws.token, `/v2/deal/activity?dealId=${ids.deal}`);
    expect(activities.json.data.dealActivityList.map((a: Rec) => a.memoId)).not.toContain(memo.id);
  });

  it('answers 404 for a todo, product or quote the workspace does not have', async () => {
    for (const type of ['todo', 'product', 'quote']) {
      const res = await post(app, ws.token, `/v2/${type}/nope/memo`, { text: 'x' });
      expect(res.status, type).toBe(404);
      expect(res.json.success).toBe(false);
    }
  });
});

describe('replies and HTML', () => {
  it('writes a reply to a note of the same record', async () => {
    const parent = await write(`/v2/deal/${ids.deal}/memo`, { text: '예산 확인 필요' });
    const reply = await write(`/v2/deal/${ids.deal}/memo`, {
      text: '예산 승인됨',
      parentId: parent.id,
    });
    expect(reply).toMatchObject({ parentId: parent.id, dealId: ids.deal });
    expect((await one(reply.id as string)).parentId).toBe(parent.id);
  });

  it('keeps the HTML of a note written so, its text the HTML’s', async () => {
    const html = '<p>할인율 <b>10%</b> 승인</p>';
    const fromHtml = await write(`/v2/quote/${ids.quote}/memo`, { htmlBody: html });
    expect(fromHtml).toMatchObject({ htmlBody: html, text: '할인율 10% 승인' });
    const both = await write(`/v2/deal/${ids.deal}/memo`, { text: '요약', htmlBody: html });
    expect(both).toMatchObject({ htmlBody: html, text: '요약' });
    const plain = await write(`/v2/deal/${ids.deal}/memo`, { text: '평문' });
    expect(plain.htmlBody).toBeNull();
  });

  it('takes the text as memo, the name programs send', async () => {
    const memo = await write(`/v2/people/${ids.person}/memo`, { memo: '메모 키로 보낸 노트' });
    expect(memo.text).toBe('메모 키로 보낸 노트');
    const res = await get(app, ws.token, `/v2/people/${ids.person}`);
    expect(res.json.data.people[0]['최근 작성된 노트']).toBe('메모 키로 보낸 노트');
  });

  it('refuses a note without text, with two texts, or replying across records; writes nothing', async () => {
    const other = await write(`/v2/people/${ids.person}/memo`, { text: '다른 레코드' });
    const before = await tableSnapshot(store);
    const cases: [unknown, RegExp][] = [
      [{}, /text|memo|htmlBody/],
      [{ text: '하나', memo: '둘' }, /text.*memo/],
      [{ htmlBody: '<p> </p>' }, /htmlBody/],
      [{ text: '답글', parentId: other.id }, /parentId/],
      [{ text: '답글', parentId: 'nope' }, /parentId/],
      // The HTML may be longer than a text, what it holds may not.
      [{ htmlBody: `<p>${'가'.repeat(150_000)}</p>` }, /htmlBody/],
    ];
    for (const [body, message] of cases) {
      const res = await post(app, ws.token, `/v2/deal/${ids.deal}/memo`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ success: false });
      expect(res.json.message).toMatch(message);
    }
    expect(await tableSnapshot(store)).toEqual(before);
  });
});

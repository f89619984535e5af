/**
 * Formula fields (`POST /v2/field/{type}` with `formula`): the answer and the field list
 * show the formula; values are computed from the record's own fields and follow every change
 * of them in the same write (list and single reads, derived fields, formulas over formulas);
 * a missing value or a division by zero is null; renaming a field it reads rewrites the
 * formula; every refusal is a 400 naming `formula` (or the key) that writes nothing; a
 * write of the value is refused; other workspaces see nothing; `verify` finds no difference.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import {
  makeCustomField,
  makeDeal,
  makePerson,
  makePipeline,
  makeProduct,
  makeQuote,
} from './factories.ts';
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
appWithWorkspace((made) => ({ store, app, ws } = made));

async function formulaField(type: string, name: string, resultType: string, formula: string) {
  const res = await post(app, ws.token, `/v2/field/${type}`, { name, type: resultType, formula });
  expect(res.status, res.text).toBe(201);
  return res.json.data.field as Rec;
}

async function deal(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/deal/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.deal[0];
}

async function listed(id: string): Promise<Rec> {
  const list = (await get(app, ws.token, '/v2/deal?limit=100')).json.data.dealList as Rec[];
  return list.find((d) => d.id === id)!;
}

async function newDeal(price: number | null): Promise<string> {
  const { personId, pipeline } = await ws.write(async (w) => ({
    personId: await makePerson(w),
    pipeline: await makePipeline(w),
  }));
  const res = await post(app, ws.token, '/v2/deal', {
    name: '큰 딜',
    peopleId: personId,
    pipelineId: pipeline.id,
    pipelineStageId: pipeline.stageIds[0],
    status: 'In progress',
    price,
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data.deal.id;
}

async function expectVerified(workspaceId = ws.workspaceId): Promise<void> {
  const report = await verifyWorkspace(store, workspaceId);
  expect(report.differences).toBe(0);
  expect(report.indexDifferences).toBe(0);
}

describe('formula fields', () => {
  it('answer the formula after type, list it, and compute it on the records at once', async () => {
    const dealId = await newDeal(1000);
    const field = await formulaField('deal', '부가세 포함', 'number', '{{딜.금액}} * 1.1');
    expect(Object.keys(field)).toEqual([
      'id',
      'name',
      'type',
      'formula',
      'description',
      'showInCreateForm',
      'required',
      'isSensitive',
      'preventDuplicates',
      'options',
      'createdAt',
    ]);
    expect(field).toMatchObject({ type: 'number', formula: '{{딜.금액}} * 1.1', options: [] });
    const list = (await get(app, ws.token, '/v2/field/deal')).json.data.fieldList as Rec[];
    expect(list.at(-1)).toEqual({
      id: field.id,
      name: '부가세 포함',
      type: 'number',
      formula: '{{딜.금액}} * 1.1',
      required: false,
    });
    expect((await deal(dealId))['부가세 포함']).toBe(1100);
    expect((await listed(dealId))['부가세 포함']).toBe(1100);
    // A plain field's answer has no formula key.
    const plain = await post(app, ws.token, '/v2/field/deal', { name: '메모', type: 'string' });
    expect(plain.json.data.field).not.toHaveProperty('formula');
    await expectVerified();
  });

  it('follow every change of the fields they read, in the same write', async () => {
    const dealId = await newDeal(1000);
    await ws.write((w) => makeCustomField(w, 'deal', '할인율', 'number'));
    await formulaField('deal', '할인 금액', 'number', '{{딜.금액}} * (1 - {{딜.할인율}} / 100)');
    await formulaField('deal', '표시', 'string', '{{딜.이름}} & ": " & {{딜.할인 금액}} & "원"');
    await formulaField('deal', '배수', 'number', '{{딜.금액}} / {{딜.할인율}}');
    // 할인율 unset: missing values give null, and so does what reads them.
    let d = await deal(dealId);
    expect([d['할인 금액'], d['표시'], d['배수']]).toEqual([null, null, null]);
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '할인율', numberValue: 10 }],
    });
    d = await deal(dealId);
    expect([d['할인 금액'], d['표시'], d['배수']]).toEqual([900, '큰 딜: 900원', 100]);
    await post(app, ws.token, `/v2/deal/${dealId}`, { price: 2000, name: '더 큰 딜' });
    d = await listed(dealId);
    expect([d['할인 금액'], d['표시'], d['배수']]).toEqual([1800, '더 큰 딜: 1800원', 200]);
    // The formula's change is a 수정 event of its own, in the write that changed 금액.
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    const of = (name: string) => events.filter((e) => e.fieldName === name).at(-1)!;
    expect([of('할인 금액').beforeField, of('할인 금액').afterField]).toEqual([900, 1800]);
    expect(of('할인 금액').eventId).toBe(of('금액').eventId);
    // A division by zero is null.
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '할인율', numberValue: 0 }],
    });
    d = await deal(dealId);
    expect([d['할인 금액'], d['배수']]).toEqual([2000, null]);
    await expectVerified();
  });

  it('compare, combine conditions and take min and max, as the live API’s calculated fields do', async () => {
    const dealId = await newDeal(1000);
    await ws.write((w) => makeCustomField(w, 'deal', '할인율', 'number'));
    await formulaField(
      'deal',
      '큰 딜인가',
      'boolean',
      '{{딜.금액}} >= 1000 && {{딜.이름}} != "작은 딜"',
    );
    await formulaField(
      'deal',
      '할인 상한',
      'number',
      'min({{딜.금액}} * 0.1, 150, max({{딜.할인율}}, 0) * 10)',
    );
    await formulaField('deal', '할인 여부', 'boolean', '{{딜.할인율}} > 0 || {{딜.상태}} == "Won"');
    let d = await deal(dealId);
    // 할인율 unset: what reads it is null.
    expect([d['큰 딜인가'], d['할인 상한'], d['할인 여부']]).toEqual([true, null, null]);
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      price: 2000,
      fieldList: [{ name: '할인율', numberValue: 12 }],
    });
    d = await listed(dealId);
    expect([d['큰 딜인가'], d['할인 상한'], d['할인 여부']]).toEqual([true, 120, true]);
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      price: 500,
      fieldList: [{ name: '할인율', numberValue: 0 }],
    });
    d = await deal(dealId);
    expect([d['큰 딜인가'], d['할인 상한'], d['할인 여부']]).toEqual([false, 0, false]);
    // On a custom object too, by its definition's name.
    const contract = await ws.write((w) =>
      defineCustomObject(w, { name: '계약서', fields: [{ name: '금액', type: 'number' }] }),
    );
    const field = await post(app, ws.token, '/v2/field/custom-object', {
      customObjectDefinitionId: contract.id,
      name: '고액',
      type: 'boolean',
      formula: 'max({{계약서.금액}}, 0) > 1000000',
    });
    expect(field.status, field.text).toBe(201);
    const made = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionId: contract.id,
      name: '공급 계약',
      fieldList: [{ name: '금액', numberValue: 2_000_000 }],
    });
    expect(made.status, made.text).toBe(201);
    const record = await get(app, ws.token, `/v2/custom-object/${made.json.data.customObject.id}`);
    expect(record.json.data.customObject.고액).toBe(true);
    await expectVerified();
  });

  it('follow a merge of records: the kept one with the values and deals it took', async () => {
    await ws.write((w) => makeCustomField(w, 'people', '등급', 'string'));
    await formulaField('people', '요약', 'string', '{{고객.등급}} & "/" & {{고객.딜 개수}}');
    const { kept, merged } = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      const kept = await makePerson(w, { name: '남는 고객' });
      const merged = await makePerson(w, { name: '합쳐질 고객' });
      for (const peopleId of [kept, merged]) {
        await makeDeal(w, { peopleId, pipelineId: pipeline.id, stageId: pipeline.stageIds[0]! });
      }
      return { kept, merged };
    });
    const set = await post(app, ws.token, `/v2/people/${merged}`, {
      fieldList: [{ name: '등급', stringValue: 'VIP' }],
    });
    expect(set.status, set.text).toBe(200);
    const read = async (id: string) => {
      const data = (await get(app, ws.token, `/v2/people/${id}`)).json.data.people;
      return (Array.isArray(data) ? data[0] : data) as Rec;
    };
    expect((await read(kept))['요약']).toBeNull();
    const res = await post(app, ws.token, `/v2/people/${kept}/merge`, { mergedId: merged });
    expect(res.status, res.text).toBe(200);
    expect((await read(kept))['요약']).toBe('VIP/2');
    await expectVerified();
  });

  it('follow a rename of the record a Ref field names, and of the owner', async () => {
    const dealId = await newDeal(100);
    await ws.write((w) => makeCustomField(w, 'deal', '담당 고객', 'people'));
    await formulaField('deal', '인사', 'string', '{{딜.담당 고객}} & " 님, " & {{딜.담당자}}');
    const personId = await ws.write((w) => makePerson(w, { name: '김철수' }));
    const set = await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '담당 고객', peopleValueId: personId }],
    });
    expect(set.status, set.text).toBe(200);
    const owner = (await deal(dealId))['담당자'] as Rec;
    expect((await deal(dealId))['인사']).toBe(`김철수 님, ${owner.name}`);
    const renamed = await post(app, ws.token, `/v2/people/${personId}`, { name: '김영희' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await deal(dealId))['인사']).toBe(`김영희 님, ${owner.name}`);
    expect((await listed(dealId))['인사']).toBe(`김영희 님, ${owner.name}`);
    await expectVerified();
  });

  it('compute again when a field is renamed to the name a formula read in vain', async () => {
    const dealId = await newDeal(100);
    const plus = await formulaField('deal', '더하기', 'number', '{{딜.금액}} + 1');
    // A formula naming a field the workspace has not, as an import may bring one.
    await ws.write((w) =>
      defineCustomField(w, {
        recordType: 'deal',
        name: '두 배',
        type: 'number',
        formula: '{{딜.없던 필드}} * 2',
      }),
    );
    expect((await deal(dealId))['두 배']).toBeNull();
    const renamed = await post(app, ws.token, `/v2/field/deal/${plus.id}`, { name: '없던 필드' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await deal(dealId))['두 배']).toBe(202);
    expect((await listed(dealId))['두 배']).toBe(202);
    await expectVerified();
  });

  it('check a formula over a long chain of formula fields at once, not once per reference', async () => {
    /** A formula of as many references to `field` as 2,000 characters hold, added up. */
    const sumOf = (field: string) => {
      const ref = `{{딜.${field}}}`;
      return Array.from({ length: Math.floor(2_000 / (ref.length + 1)) }, () => ref).join('+');
    };
    await ws.write(async (w) => {
      await makeCustomField(w, 'deal', 'f0', 'number');
      for (let i = 1; i < 150; i++) {
        const formula = sumOf(`f${i - 1}`);
        await defineCustomField(w, { recordType: 'deal', name: `f${i}`, type: 'number', formula });
      }
    });
    const started = performance.now();
    await formulaField('deal', '마지막', 'number', sumOf('f149'));
    // Parsing the chain again for each of the 166 references took seconds.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('read derived fields, dates and booleans, and custom objects by their definition name', async () => {
    const personId = await ws.write((w) => makePerson(w, { name: '고객' }));
    await formulaField('people', '딜 두 배', 'number', '{{고객.딜 개수}} * 2');
    await formulaField('people', '다음 주', 'date', '{{고객.생성 날짜}} + 7');
    await formulaField('people', '거부', 'boolean', '{{고객.수신 거부 여부}}');
    const read = async () => {
      const res = await get(app, ws.token, `/v2/people/${personId}`);
      const data = res.json.data.people;
      return (Array.isArray(data) ? data[0] : data) as Rec;
    };
    let p = await read();
    expect(p['딜 두 배']).toBe(0);
    const created = Date.parse(p['생성 날짜'] as string);
    const day = Math.floor(created / 86_400_000) * 86_400_000;
    expect(p['다음 주']).toBe(new Date(day + 7 * 86_400_000).toISOString());
    expect(p['거부']).toBe(false);
    // A deal of the person changes its 딜 개수, so the formula, in the deal's write.
    await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      await makeDeal(w, {
        peopleId: personId,
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[0]!,
      });
    });
    await post(app, ws.token, `/v2/people/${personId}`, {
      fieldList: [{ name: '수신 거부 여부', booleanValue: true }],
    });
    p = await read();
    expect([p['딜 두 배'], p['거부']]).toEqual([2, true]);

    const definition = await ws.write((w) =>
      defineCustomObject(w, { name: '계약서', fields: [{ name: '계약 금액', type: 'number' }] }),
    );
    const res = await post(app, ws.token, '/v2/field/custom-object', {
      name: '월 금액',
      type: 'number',
      formula: '{{계약서.계약 금액}} / 12',
      customObjectDefinitionId: definition.id,
    });
    expect(res.status, res.text).toBe(201);
    const object = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionId: definition.id,
      fieldList: [
        { name: '이름', stringValue: '계약 1' },
        { name: '계약 금액', numberValue: 1200 },
      ],
    });
    expect(object.status, object.text).toBe(201);
    const got = await get(app, ws.token, `/v2/custom-object/${object.json.data.customObject.id}`);
    expect((got.json.data.customObject as Rec)['월 금액']).toBe(100);
    await expectVerified();
  });

  it('compute on quote lines and todos, which have object names of their own', async () => {
    const dealId = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      const dealId = await makeDeal(w, {
        peopleId: await makePerson(w),
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[0]!,
      });
      const productId = await makeProduct(w, { name: '상품', price: 300 });
      await makeQuote(w, { dealId, lines: [{ productId, quantity: 4 }] });
      return dealId;
    });
    await formulaField(
      'quote-product',
      '단가 곱',
      'number',
      '{{견적 상품.금액}} * {{견적 상품.수량}}',
    );
    const quotes = (await get(app, ws.token, `/v2/deal/${dealId}/quote`)).json.data
      .quoteList as Rec[];
    expect((quotes[0]!['견적 구성 상품'] as Rec[])[0]!['단가 곱']).toBe(1200);
    await formulaField('todo', '제목', 'string', '"[" & {{TODO.유형}} & "] " & {{TODO.내용}}');
    const todo = await post(app, ws.token, '/v2/todo', {
      dealId,
      fieldList: [
        { name: '내용', stringValue: '전화하기' },
        { name: '유형', stringValue: '전화' },
      ],
    });
    expect(todo.status, todo.text).toBe(201);
    const todos = (await get(app, ws.token, `/v2/todo?dealId=${dealId}`)).json.data
      .todoList as Rec[];
    expect(todos.map((t) => t['제목'])).toEqual(['[전화] 전화하기']);
    await expectVerified();
  });

  it('keep reading a field that is renamed: the formula names it anew, values stay', async () => {
    const dealId = await newDeal(500);
    const rate = await ws.write((w) => makeCustomField(w, 'deal', '비율', 'number'));
    const field = await formulaField(
      'deal',
      '결과',
      'number',
      '{{딜.비율}}+{{딜.비율}} * {{딜.금액}}',
    );
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '비율', numberValue: 2 }],
    });
    const renamed = await post(app, ws.token, `/v2/field/deal/${rate}`, { name: '새 비율' });
    expect(renamed.status, renamed.text).toBe(200);
    const list = (await get(app, ws.token, '/v2/field/deal')).json.data.fieldList as Rec[];
    expect(list.find((f) => f.id === field.id)!.formula).toBe(
      '{{딜.새 비율}}+{{딜.새 비율}} * {{딜.금액}}',
    );
    expect((await deal(dealId))['결과']).toBe(1002);
    await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '새 비율', numberValue: 3 }],
    });
    expect((await deal(dealId))['결과']).toBe(1503);
    // A name a reference cannot hold would make the formula read another field, or none.
    for (const name of ['새 비율}}', '비율}', ' 비율', '비율 ']) {
      const snap = await tableSnapshot(store);
      const refused = await post(app, ws.token, `/v2/field/deal/${rate}`, { name });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.success).toBe(false);
      expect(refused.json.message).toContain('수식');
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    expect((await deal(dealId))['결과']).toBe(1503);
    await expectVerified();
  });

  const BAD: [string, Rec, string[]][] = [
    ['a syntax error', { type: 'number', formula: '{{딜.금액}} * ' }, ['formula', '12번째']],
    ['an unclosed reference', { type: 'number', formula: '1 + {{딜.금액' }, ['formula', '5번째']],
    ['an unknown object', { type: 'number', formula: '{{주문.금액}}' }, ['formula', '주문']],
    [
      "another record's field",
      { type: 'string', formula: '{{회사.이름}}' },
      ['formula', '회사', '1번째'],
    ],
    ['an unknown field', { type: 'number', formula: '{{딜.없는 필드}}' }, ['formula', '없는 필드']],
    [
      'a list field',
      { type: 'string', formula: '{{딜.등록된 시퀀스 목록}}' },
      ['formula', '등록된 시퀀스 목록'],
    ],
    ['a read-time key', { type: 'number', formula: '{{딜.상담 일수}}' }, ['formula', '상담 일수']],
    ['a type mismatch', { type: 'number', formula: '{{딜.이름}} * 2' }, ['formula', "'*'"]],
    ['the wrong result type', { type: 'string', formula: '{{딜.금액}} + 1' }, ['formula', 'type']],
    ['a reference to itself', { type: 'number', formula: '{{딜.f}} + 1' }, ['formula', '순환']],
    ['a select type', { type: 'singleSelect', formula: '"a"' }, ['type']],
    ['options', { type: 'string', formula: '"a"', options: [{ value: 'a' }] }, ['options']],
    [
      'required',
      { type: 'string', formula: '"a"', required: true, showInCreateForm: true },
      ['required'],
    ],
    [
      'preventDuplicates',
      { type: 'string', formula: '"a"', preventDuplicates: true },
      ['preventDuplicates'],
    ],
    ['an empty formula', { type: 'string', formula: ' ' }, ['formula']],
    ['an unclosed string', { type: 'string', formula: '"abc' }, ['formula', '1번째']],
    ['2,000 nested parentheses', { type: 'number', formula: '('.repeat(2_000) }, ['formula']],
    ['nested negations', { type: 'number', formula: `${'-('.repeat(1_000)}` }, ['formula']],
    [
      'a formula over 2,000 characters',
      { type: 'number', formula: '1'.repeat(2_001) },
      ['formula'],
    ],
    ['a lone {{', { type: 'string', formula: '"a" & {{' }, ['formula', '7번째']],
    ['a comparison of text', { type: 'boolean', formula: '{{딜.이름}} > 3' }, ['formula', "'>'"]],
    [
      'a comparison of another kind',
      { type: 'boolean', formula: '{{딜.금액}} == "1"' },
      ['formula', "'=='"],
    ],
    ['a chain of comparisons', { type: 'boolean', formula: '1 < 2 < 3' }, ['formula', '하나만']],
    ['&& of numbers', { type: 'boolean', formula: '{{딜.금액}} && true' }, ['formula', "'&&'"]],
    ['an unknown function', { type: 'number', formula: 'sum(1, 2)' }, ['formula', 'sum']],
    ['max of one number', { type: 'number', formula: 'max({{딜.금액}})' }, ['formula', '둘 이상']],
    ['min of text', { type: 'number', formula: 'min(1, {{딜.이름}})' }, ['formula', 'min']],
    [
      'a comparison as a number',
      { type: 'number', formula: '{{딜.금액}} > 1' },
      ['formula', 'type'],
    ],
  ];
  for (const [label, body, named] of BAD) {
    it(`refuses ${label} (400, shape A, nothing written)`, async () => {
      await newDeal(100);
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, '/v2/field/deal', { name: 'f', ...body });
      expect(res.status, res.text).toBe(400);
      expect(res.json.success).toBe(false);
      for (const n of named) expect(res.json.message).toContain(n);
      expect(await tableSnapshot(store)).toEqual(snap);
    });
  }

  it('refuses a write of the value (400 naming the field, nothing written), on create and update', async () => {
    const dealId = await newDeal(100);
    await formulaField('deal', '계산값', 'number', '{{딜.금액}} + 1');
    const { personId, pipeline } = await ws.write(async (w) => ({
      personId: await makePerson(w),
      pipeline: await makePipeline(w),
    }));
    const bodies: [string, Rec][] = [
      [`/v2/deal/${dealId}`, {}],
      [
        '/v2/deal',
        {
          name: '새 딜',
          peopleId: personId,
          pipelineId: pipeline.id,
          pipelineStageId: pipeline.stageIds[0],
          status: 'In progress',
        },
      ],
    ];
    for (const [path, body] of bodies) {
      for (const value of [5, null]) {
        const snap = await tableSnapshot(store);
        const res = await post(app, ws.token, path, {
          ...body,
          fieldList: [{ name: '계산값', numberValue: value }],
        });
        expect(res.status, res.text).toBe(400);
        expect(res.json.message).toContain('계산값');
        expect(res.json.message).toContain('수식');
        expect(await tableSnapshot(store)).toEqual(snap);
      }
    }
    expect((await deal(dealId))['계산값']).toBe(101);
  });

  it("never shows on another workspace's records or field list", async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    await other.write((w) => makePerson(w, { name: '다른 고객' }));
    await formulaField('people', '이름 두 번', 'string', '{{고객.이름}} & {{고객.이름}}');
    const res = await get(app, other.token, '/v2/people');
    expect(res.json.data.peopleList[0]).not.toHaveProperty('이름 두 번');
    const fields = (await get(app, other.token, '/v2/field/people')).json.data.fieldList as Rec[];
    expect(fields.map((f) => f.name)).not.toContain('이름 두 번');
    await expectVerified(other.workspaceId);
  });
});

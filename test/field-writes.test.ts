/**
 * `POST /v2/field/{type}` and `POST /v2/field/{type}/{fieldId}` (docs/decisions.md, Custom fields):
 * the answer's keys in order, the field read back through `GET /v2/field/{type}` and on every
 * record of its type (null until set, after the fields before it; renamed keys), events, 409 on
 * taken names, bad input that writes nothing, and isolation between workspaces.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TABLE_OF } from '../src/store/read-model/rendered-types.ts';
import {
  makeCustomField,
  makeDeal,
  makeLead,
  makeOrganization,
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

const FIELD_KEYS = [
  'id',
  'name',
  'type',
  'description',
  'showInCreateForm',
  'required',
  'isSensitive',
  'preventDuplicates',
  'options',
  'createdAt',
];

async function createField(type: string, body: Rec, token = ws.token) {
  return post(app, token, `/v2/field/${type}`, body);
}

async function records(path: string, key: string, token = ws.token): Promise<Rec[]> {
  const res = await get(app, token, `${path}?limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.data[key];
}

describe('POST /v2/field/{type}', () => {
  it('answers 201 with the field in the live API keys, and the field list shows it', async () => {
    const res = await createField('people', {
      name: '고객 등급',
      type: 'singleSelect',
      description: '영업팀이 정하는 등급',
      showInCreateForm: true,
      required: true,
      options: [{ value: 'VIP' }, { value: '일반' }],
    });
    expect(res.status, res.text).toBe(201);
    const field = res.json.data.field;
    expect(Object.keys(field)).toEqual(FIELD_KEYS);
    expect(field).toMatchObject({
      name: '고객 등급',
      type: 'singleSelect',
      description: '영업팀이 정하는 등급',
      showInCreateForm: true,
      required: true,
      isSensitive: false,
      preventDuplicates: false,
    });
    expect(field.options.map((o: Rec) => o.value)).toEqual(['VIP', '일반']);
    expect(field.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = (await get(app, ws.token, '/v2/field/people')).json.data.fieldList as Rec[];
    expect(list.at(-1)).toEqual({
      id: field.id,
      name: '고객 등급',
      type: 'singleSelect',
      required: true,
      optionList: field.options,
    });
  });

  it('makes each of the nine types; plain fields answer options []', async () => {
    for (const type of ['string', 'number', 'date', 'dateTime', 'boolean', 'user', 'multiUser']) {
      const res = await createField('deal', { name: `필드 ${type}`, type });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data.field).toMatchObject({ type, options: [], description: null });
    }
    const multi = await createField('deal', {
      name: '관심 분야',
      type: 'multiSelect',
      options: [{ value: 'A' }, { value: 'B' }],
    });
    expect(multi.status, multi.text).toBe(201);
    const unique = await createField('deal', {
      name: '계약 번호',
      type: 'string',
      preventDuplicates: true,
    });
    expect(unique.json.data.field.preventDuplicates).toBe(true);
    const types = ((await get(app, ws.token, '/v2/field/deal')).json.data.fieldList as Rec[])
      .slice(-9)
      .map((f) => f.type);
    expect(types).toEqual([
      'string',
      'number',
      'date',
      'dateTime',
      'boolean',
      'user',
      'multiUser',
      'multiSelect',
      'string',
    ]);
  });

  it('puts the new key, null, last on every record of the type, in the same write', async () => {
    await ws.write(async (w) => {
      await makeCustomField(w, 'people', '앞 필드');
      for (let i = 0; i < 3; i++) await makePerson(w, { name: `고객${i}` });
      await makeOrganization(w, { name: '회사' });
    });
    const before = await records('/v2/people', 'peopleList');
    const res = await createField('people', { name: '새 필드', type: 'number' });
    expect(res.status, res.text).toBe(201);
    const after = await records('/v2/people', 'peopleList');
    expect(after).toHaveLength(3);
    for (const [i, person] of after.entries()) {
      expect(Object.keys(person)).toEqual([...Object.keys(before[i]!), '새 필드']);
      expect(person['새 필드']).toBeNull();
      expect(person['앞 필드']).toBeNull();
    }
    // Other record types do not show it.
    const [org] = await records('/v2/organization', 'organizationList');
    expect(org).not.toHaveProperty('새 필드');
    // A null key is no change: no 수정 event.
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    expect(events.filter((e) => e.fieldName === '새 필드')).toEqual([]);
    // And the new field can be written at once.
    const id = after[0]!.id as string;
    const upd = await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '새 필드', numberValue: 7 }],
    });
    expect(upd.status, upd.text).toBe(200);
    const [person] = await records('/v2/people', 'peopleList');
    expect(person!['새 필드']).toBe(7);
  });

  it('stores for every record type exactly the JSON a full re-render gives', async () => {
    await ws.write(async (w) => {
      const { id: pipelineId, stageIds } = await makePipeline(w);
      const organizationId = await makeOrganization(w, { name: '회사' });
      const peopleId = await makePerson(w, { name: '고객', organizationId });
      const dealId = await makeDeal(w, { peopleId, pipelineId, stageId: stageIds[0]! });
      await makeLead(w, { peopleId });
      const productId = await makeProduct(w, { name: '상품' });
      await makeQuote(w, { dealId, isMain: true, lines: [{ productId }] });
      await makeCustomField(w, 'deal', '앞 필드');
    });
    // A name that JSON escapes.
    const name = '따옴표 "필드" \\ 탭\t';
    const types = ['people', 'organization', 'deal', 'lead', 'product', 'quote'] as const;
    for (const type of types) {
      const res = await createField(type, { name, type: 'string' });
      expect(res.status, res.text).toBe(201);
    }
    const bodies = async (key = name, gone?: string) => {
      const out: Record<string, string[]> = {};
      for (const type of types) {
        const rows = await store.db
          .selectFrom(TABLE_OF[type])
          .select(['id', 'body'])
          .where('workspace_id', '=', ws.workspaceId)
          .orderBy('id')
          .execute();
        out[type] = rows.map((r) => `${r.id} ${Buffer.from(r.body as string).toString()}`);
        for (const r of rows) {
          const record = JSON.parse(String(Buffer.from(r.body as string)));
          expect(Object.keys(record)).toContain(key);
          if (gone) expect(Object.keys(record)).not.toContain(gone);
        }
      }
      return out;
    };
    const rerender = () =>
      ws.write(async (w) => {
        for (const type of types) w.touched.markAll(type);
      });
    const spliced = await bodies();
    await rerender();
    expect(await bodies()).toEqual(spliced);
    const deal = (await records('/v2/deal', 'dealList'))[0]!;
    const single = (await get(app, ws.token, `/v2/deal/${deal.id}`)).json.data.deal[0];
    expect(Object.keys(single).slice(-2)).toEqual(['앞 필드', name]);

    // Renamed: one person holds a value (re-rendered), the others do not (the key replaced).
    const second = await post(app, ws.token, '/v2/people', { name: '둘째' });
    await post(app, ws.token, `/v2/people/${second.json.data.people.id}`, {
      fieldList: [{ name, stringValue: ',"값":' }],
    });
    const renamedTo = '새 "이름"';
    for (const type of types) {
      const fields = (await get(app, ws.token, `/v2/field/${type}`)).json.data.fieldList as Rec[];
      const id = fields.find((f) => f.name === name)!.id;
      const res = await post(app, ws.token, `/v2/field/${type}/${id}`, { name: renamedTo });
      expect(res.status, res.text).toBe(200);
    }
    const renamed = await bodies(renamedTo, name);
    await rerender();
    expect(await bodies(renamedTo, name)).toEqual(renamed);
    const people = await records('/v2/people', 'peopleList');
    expect(people.map((p) => p[renamedTo])).toEqual([null, ',"값":']);
  });

  it('a quote-product field shows on the lines of every quote', async () => {
    const quoteId = await ws.write(async (w) => {
      const { id: pipelineId, stageIds } = await makePipeline(w);
      const productId = await makeProduct(w, { name: '상품' });
      const personId = await makePerson(w);
      const dealId = await makeDeal(w, {
        peopleId: personId,
        pipelineId,
        stageId: stageIds[0]!,
      });
      return makeQuote(w, { dealId, lines: [{ productId }] });
    });
    const res = await createField('quote-product', { name: '할인 사유', type: 'string' });
    expect(res.status, res.text).toBe(201);
    const deal = (await records('/v2/deal', 'dealList'))[0]!;
    const quotes = (await get(app, ws.token, `/v2/deal/${deal.id}/quote`)).json.data
      .quoteList as Rec[];
    expect(quotes[0]!.id).toBe(quoteId);
    const line = (quotes[0]!['견적 구성 상품'] as Rec[])[0]!;
    expect(Object.keys(line).at(-1)).toBe('할인 사유');
    expect(line['할인 사유']).toBeNull();
  });

  it('a name a custom or built-in field has is 409, and writes nothing', async () => {
    const taken = await ws.write((w) => makeCustomField(w, 'people', '등급'));
    for (const name of ['등급', '이름', '이메일', '담당자']) {
      const snap = await tableSnapshot(store);
      const res = await createField('people', { name, type: 'string' });
      expect(res.status, `${name}: ${res.text}`).toBe(409);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(name);
      expect(res.json.message).toMatch(/^이미 존재하는 이름입니다/);
      // The custom field's `reason` names the field in the way; a built-in's is the message.
      expect(res.json.reason).toBe(
        name === '등급' ? `${res.json.message} (기존 필드 id '${taken}')` : res.json.message,
      );
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    // The same name on another record type is another field.
    expect((await createField('organization', { name: '등급', type: 'string' })).status).toBe(201);
  });

  const BAD: [string, string, unknown, string[]][] = [
    ['no name', 'people', { type: 'string' }, ['name']],
    ['blank name', 'people', { name: '  ', type: 'string' }, ['name']],
    ['no type', 'people', { name: 'f' }, ['type']],
    ['unknown type', 'people', { name: 'f', type: 'text' }, ['type', 'singleSelect']],
    [
      'multiAttachment on a todo',
      'todo',
      { name: 'f', type: 'multiAttachment' },
      ['multiAttachment', 'todo'],
    ],
    ['unknown record type', 'recording', { name: 'f', type: 'string' }, ['type', 'people']],
    [
      'required without the create form',
      'people',
      { name: 'f', type: 'string', required: true },
      ['required', 'showInCreateForm'],
    ],
    ['single select without options', 'people', { name: 'f', type: 'singleSelect' }, ['options']],
    [
      'multi select with one option',
      'people',
      { name: 'f', type: 'multiSelect', options: [{ value: 'a' }] },
      ['options', '2'],
    ],
    [
      'options twice',
      'people',
      { name: 'f', type: 'singleSelect', options: [{ value: 'a' }, { value: 'a' }] },
      ['options', 'a'],
    ],
    [
      'options on a number',
      'people',
      { name: 'f', type: 'number', options: [{ value: 'a' }] },
      ['options'],
    ],
    [
      'preventDuplicates on a date',
      'people',
      { name: 'f', type: 'date', preventDuplicates: true },
      ['preventDuplicates'],
    ],
    [
      'preventDuplicates with isSensitive',
      'people',
      { name: 'f', type: 'string', preventDuplicates: true, isSensitive: true },
      ['preventDuplicates', 'isSensitive'],
    ],
    [
      "a formula reading another record's field",
      'people',
      { name: 'f', type: 'number', formula: '{{딜.금액}}' },
      ['formula', '딜'],
    ],
    [
      'categoryName',
      'people',
      { name: 'f', type: 'string', categoryName: '기본' },
      ['categoryName'],
    ],
    [
      'customObjectDefinitionId',
      'people',
      { name: 'f', type: 'string', customObjectDefinitionId: 'x' },
      ['customObjectDefinitionId'],
    ],
    [
      'a boolean as text',
      'people',
      { name: 'f', type: 'string', isSensitive: 'yes' },
      ['isSensitive'],
    ],
    ['U+0000 in the name', 'people', { name: 'a\u0000b', type: 'string' }, ['name']],
    ['not an object', 'people', [1], []],
  ];
  for (const [label, type, body, names] of BAD) {
    it(`refuses ${label} (400, shape A, nothing written)`, async () => {
      const snap = await tableSnapshot(store);
      const res = await createField(type, body as Rec);
      expect(res.status, res.text).toBe(400);
      expect(res.json.success).toBe(false);
      for (const name of names) expect(res.json.message).toContain(name);
      expect(await tableSnapshot(store)).toEqual(snap);
    });
  }

  it("never shows on another workspace's records or field list", async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    await other.write((w) => makePerson(w, { name: '다른 고객' }));
    expect((await createField('people', { name: '비밀 필드', type: 'string' })).status).toBe(201);
    const [person] = await records('/v2/people', 'peopleList', other.token);
    expect(person).not.toHaveProperty('비밀 필드');
    const fields = (await get(app, other.token, '/v2/field/people')).json.data.fieldList as Rec[];
    expect(fields.map((f) => f.name)).not.toContain('비밀 필드');
    // The other workspace may take the same name.
    expect(
      (await createField('people', { name: '비밀 필드', type: 'string' }, other.token)).status,
    ).toBe(201);
  });
});

describe('isSensitive', () => {
  it('events show a sensitive value as 암호화된 데이터 (empty stays null); reads show it', async () => {
    const field = await createField('people', {
      name: '주민번호',
      type: 'string',
      isSensitive: true,
    });
    expect(field.json.data.field.isSensitive).toBe(true);
    const id = await ws.write((w) => makePerson(w, { name: '고객' }));
    for (const value of ['900101-1234567', null])
      expect(
        (
          await post(app, ws.token, `/v2/people/${id}`, {
            fieldList: [{ name: '주민번호', stringValue: value }],
          })
        ).status,
      ).toBe(200);
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    const changes = events.filter((e) => e.fieldName === '주민번호');
    expect(changes.map((e) => [e.beforeField, e.afterField])).toEqual([
      [null, '암호화된 데이터'],
      ['암호화된 데이터', null],
    ]);
    expect(JSON.stringify(events)).not.toContain('900101');
  });
});

describe('preventDuplicates', () => {
  it('refuses a value another record of the type holds (400 with that record), on create and update', async () => {
    for (const [name, type] of [
      ['계약 번호', 'string'],
      ['사번', 'number'],
    ] as const)
      expect((await createField('people', { name, type, preventDuplicates: true })).status).toBe(
        201,
      );
    expect((await createField('people', { name: '메모 필드', type: 'string' })).status).toBe(201);
    const values = [
      { name: '계약 번호', stringValue: 'C-1' },
      { name: '사번', numberValue: 7 },
      { name: '메모 필드', stringValue: '같은 값' },
    ];
    const first = await post(app, ws.token, '/v2/people', { name: '먼저', fieldList: values });
    expect(first.status, first.text).toBe(201);
    const firstId = first.json.data.people.id;
    // The unique fields refuse the second holder, one at a time; the plain field does not.
    for (const value of values.slice(0, 2)) {
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, '/v2/people', { name: '나중', fieldList: [value] });
      expect(res.status, res.text).toBe(400);
      expect(res.json.message).toContain(value.name);
      // Programs written for the live API look for its phrase of a duplicate.
      expect(res.json.reason).toMatch(/^이미 존재하는 값입니다/);
      expect(res.json.data).toEqual({ id: firstId, name: '먼저' });
      expect(res.json.reason).toBe(`${res.json.message} (기존 레코드: '먼저', id '${firstId}')`);
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    const other = await post(app, ws.token, '/v2/people', {
      name: '나중',
      fieldList: [
        values[2],
        { name: '계약 번호', stringValue: 'C-2' },
        { name: '사번', numberValue: 8 },
      ],
    });
    expect(other.status, other.text).toBe(201);
    // A record may write its own value again; another may not take it.
    const again = await post(app, ws.token, `/v2/people/${firstId}`, { fieldList: values });
    expect(again.status, again.text).toBe(200);
    const taken = await post(app, ws.token, `/v2/people/${other.json.data.people.id}`, {
      fieldList: [{ name: '사번', numberValue: 7 }],
    });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.json.data).toEqual({ id: firstId, name: '먼저' });
    // Another workspace's values are its own.
    const elsewhere = await testWorkspace(store, '다른 워크스페이스');
    const field = await createField(
      'people',
      { name: '계약 번호', type: 'string', preventDuplicates: true },
      elsewhere.token,
    );
    expect(field.status).toBe(201);
    const theirs = await post(app, elsewhere.token, '/v2/people', {
      name: '남의 고객',
      fieldList: [{ name: '계약 번호', stringValue: 'C-1' }],
    });
    expect(theirs.status, theirs.text).toBe(201);
  });
});

describe('POST /v2/field/{type}/{fieldId}', () => {
  async function makeField(body: Rec, type = 'people'): Promise<Rec> {
    const res = await createField(type, body);
    expect(res.status, res.text).toBe(201);
    return res.json.data.field;
  }

  it('renames a field: every record shows the new key in the old place, values kept', async () => {
    const field = await makeField({ name: '옛 이름', type: 'string' });
    await makeField({ name: '뒤 필드', type: 'number' });
    const id = await ws.write((w) => makePerson(w, { name: '고객' }));
    await post(app, ws.token, `/v2/people/${id}`, {
      fieldList: [{ name: '옛 이름', stringValue: '값' }],
    });
    const [before] = await records('/v2/people', 'peopleList');
    const res = await post(app, ws.token, `/v2/field/people/${field.id}`, {
      name: '새 이름',
      description: '설명',
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data.field)).toEqual(FIELD_KEYS);
    expect(res.json.data.field).toMatchObject({
      id: field.id,
      name: '새 이름',
      description: '설명',
      createdAt: field.createdAt,
    });
    const [after] = await records('/v2/people', 'peopleList');
    expect(Object.keys(after!)).toEqual(
      Object.keys(before!).map((k) => (k === '옛 이름' ? '새 이름' : k)),
    );
    expect(after!['새 이름']).toBe('값');
    const list = (await get(app, ws.token, '/v2/field/people')).json.data.fieldList as Rec[];
    expect(list.map((f) => f.name).slice(-2)).toEqual(['새 이름', '뒤 필드']);
    // The record whose body changed has its events: the old key cleared, the new one set.
    const events = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[];
    const renamed = events.filter((e) => e.objectId === id && /이름$/.test(String(e.fieldName)));
    expect(renamed.map((e) => [e.fieldName, e.beforeField, e.afterField])).toEqual(
      expect.arrayContaining([
        ['새 이름', null, '값'],
        ['옛 이름', '값', null],
      ]),
    );
  });

  it('adds options after the existing ones; a record can then use them', async () => {
    const field = await makeField({
      name: '등급',
      type: 'singleSelect',
      options: [{ value: 'A' }],
    });
    const res = await post(app, ws.token, `/v2/field/people/${field.id}`, {
      options: [{ value: 'B' }, { value: 'C' }],
    });
    expect(res.status, res.text).toBe(200);
    const options = res.json.data.field.options as Rec[];
    expect(options.map((o) => o.value)).toEqual(['A', 'B', 'C']);
    expect(options[0]).toEqual((field.options as Rec[])[0]);
    const create = await post(app, ws.token, '/v2/people', {
      name: '고객',
      fieldList: [{ name: '등급', stringValue: 'C' }],
    });
    expect(create.status, create.text).toBe(201);
  });

  it('a rename to a taken name is 409; an unknown field 404; bad input 400; nothing written', async () => {
    const field = await makeField({ name: 'f1', type: 'string' });
    await makeField({ name: 'f2', type: 'string' });
    const other = await testWorkspace(store, '다른 워크스페이스');
    const cases: [string, unknown, number, string][] = [
      [`/v2/field/people/${field.id}`, { name: 'f2' }, 409, 'f2'],
      [`/v2/field/people/${field.id}`, { name: '이름' }, 409, '이름'],
      [`/v2/field/people/${field.id}`, { options: [{ value: 'a' }] }, 400, 'options'],
      [`/v2/field/people/${field.id}`, { name: '' }, 400, 'name'],
      [`/v2/field/people/${field.id}`, { description: 3 }, 400, 'description'],
      // The field is a people field: not found under another record type.
      [`/v2/field/deal/${field.id}`, { name: 'x' }, 404, field.id as string],
      ['/v2/field/people/no-such-field', { name: 'x' }, 404, 'no-such-field'],
      ['/v2/field/people/bad%20id', { name: 'x' }, 400, 'fieldId'],
      ['/v2/field/nope/abc', { name: 'x' }, 400, 'type'],
    ];
    for (const [url, body, status, part] of cases) {
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(part);
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    // Another workspace's token cannot see the field.
    const res = await post(app, other.token, `/v2/field/people/${field.id}`, { name: 'x' });
    expect(res.status).toBe(404);
  });

  it('a duplicate option is 400', async () => {
    const field = await makeField({
      name: '관심',
      type: 'multiSelect',
      options: [{ value: 'A' }, { value: 'B' }],
    });
    const snap = await tableSnapshot(store);
    const res = await post(app, ws.token, `/v2/field/people/${field.id}`, {
      options: [{ value: 'B' }],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.message).toContain("'B'");
    expect(await tableSnapshot(store)).toEqual(snap);
  });
});

describe('a deal’s or lead’s stage timing key', () => {
  it('is not a custom field name: 409 on create and rename, writing nothing', async () => {
    await ws.write(async (w) => {
      await makePipeline(w, { name: '영업', stages: ['미팅'] });
      await makePipeline(w, { kind: 'lead', name: '발굴', stages: ['접촉'] });
    });
    const cases: [string, string][] = [
      ['deal', '미팅(영업)로 진입한 날짜'],
      ['deal', '미팅(영업)에서 보낸 누적 시간'],
      ['lead', '접촉(발굴)에서 퇴장한 날짜'],
    ];
    for (const [type, name] of cases) {
      const snap = await tableSnapshot(store);
      const res = await createField(type, { name, type: 'string' });
      expect(res.status, `${name}: ${res.text}`).toBe(409);
      expect(res.json.message).toContain(name);
      expect(res.json.reason).toBe(res.json.message);
      expect(await tableSnapshot(store)).toEqual(snap);
    }
    const field = (await createField('deal', { name: '메모 2', type: 'string' })).json.data.field;
    const snap = await tableSnapshot(store);
    const res = await post(app, ws.token, `/v2/field/deal/${field.id}`, {
      name: '미팅(영업)에서 퇴장한 날짜',
    });
    expect(res.status, res.text).toBe(409);
    expect(await tableSnapshot(store)).toEqual(snap);
    // Another record type has no stage keys: the name is free there.
    expect((await createField('people', { name: cases[0]![1], type: 'string' })).status).toBe(201);
  });
});

/**
 * Custom objects in the batch associations: `POST /v3/association/list` names them (as
 * `customObject`, or `커스텀 오브젝트`) as a type that people, organizations, deals and leads
 * link to through their `customObject` and `multiCustomObject` fields, and lists their own
 * links; the batch writes set those fields in `data` by id (or `{id, name}`), read back both
 * ways through the association reads.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makePerson, makePipeline } from './factories.ts';
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

/**
 * A definition 계약서 (a person field 서명자 and a multiCustomObject field 관련 계약); a deal
 * field 계약 (customObject) and a person field 계약서들 (multiCustomObject); two contracts.
 */
async function seed(w: TestWorkspace) {
  const made = await w.write(async (x) => {
    const contract = await defineCustomObject(x, {
      name: '계약서',
      fields: [
        { name: '서명자', type: 'people' },
        { name: '관련 계약', type: 'multiCustomObject' },
      ],
    });
    await defineCustomField(x, { recordType: 'deal', name: '계약', type: 'customObject' });
    await defineCustomField(x, {
      recordType: 'people',
      name: '계약서들',
      type: 'multiCustomObject',
    });
    const personId = await makePerson(x, { name: '서명 고객' });
    const pipeline = await makePipeline(x);
    return { contract, personId, pipeline };
  });
  const create = async (name: string) => {
    const res = await post(app, w.token, '/v2/custom-object', {
      customObjectDefinitionId: made.contract.id,
      name,
    });
    expect(res.status, res.text).toBe(201);
    return res.json.data.customObject.id as string;
  };
  return { ...made, first: await create('공급 계약'), second: await create('유지보수 계약') };
}

let side: Awaited<ReturnType<typeof seed>>;
beforeEach(async () => {
  side = await seed(ws);
});

async function call(path: string, body: unknown, token = ws.token) {
  return post(app, token, path, body);
}

const row = (
  name: string,
  fieldName: string,
  fieldOn: string,
  multiple: boolean,
  writeWith: string | null,
) => ({ name, fieldName, fieldOn, multiple, writeWith });

async function associations(objectType: string): Promise<Rec[]> {
  const res = await call('/v3/association/list', { objectType });
  expect(res.status, res.text).toBe(200);
  return res.json.data.associationList;
}

describe('POST /v3/association/list with custom objects', () => {
  it('lists the custom object fields of each type, and those pointing at it', async () => {
    expect(await associations('deal')).toEqual([
      row('people', 'peopleId', 'deal', false, 'association'),
      row('organization', 'organizationId', 'deal', false, 'association'),
      row('people', '참여자', 'deal', true, 'data'),
      row('customObject', '계약', 'deal', false, 'data'),
    ]);
    expect(await associations('people')).toEqual([
      row('organization', 'organizationId', 'people', false, 'association'),
      row('deal', 'peopleId', 'deal', true, null),
      row('lead', 'peopleId', 'lead', true, null),
      row('customObject', '계약서들', 'people', true, 'data'),
      row('customObject', '서명자', 'customObject', true, null),
    ]);
    // Custom objects: their own fields (written by their v2 write's fieldList), then the
    // fields of the other types that point at them.
    const custom = await associations('customObject');
    expect(custom).toEqual([
      row('people', '서명자', 'customObject', false, 'fieldList'),
      row('customObject', '관련 계약', 'customObject', true, 'fieldList'),
      row('people', '계약서들', 'people', true, null),
      row('deal', '계약', 'deal', true, null),
    ]);
    const byLabel = await call('/v3/association/list', { objectType: '커스텀 오브젝트' });
    expect(byLabel.status, byLabel.text).toBe(200);
    expect(byLabel.json.data.associationList).toEqual(custom);
  });

  it('refuses other names of the type; pipelines and batch writes take no custom objects', async () => {
    for (const objectType of ['custom-object', 'CustomObject', '커스텀오브젝트']) {
      const res = await call('/v3/association/list', { objectType });
      expect(res.status, objectType).toBe(400);
      expect(res.json.message).toMatch(/objectType/);
    }
    for (const [path, body] of [
      ['/v3/pipeline/list', {}],
      ['/v3/object/create', { inputList: [{ data: { 이름: '계약' } }] }],
      ['/v3/object/update', { inputList: [{ id: side.first, data: { 이름: '계약' } }] }],
    ] as const) {
      const res = await call(path, { objectType: 'customObject', ...body });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json.message).toMatch(/objectType/);
    }
  });
});

describe('POST /v3/object/read of custom objects', () => {
  it('reads them as GET /v2/custom-object/{id} does, in the order asked, each once', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await seed(other);
    const one = async (id: string) =>
      (await get(app, ws.token, `/v2/custom-object/${id}`)).json.data.customObject;
    for (const objectType of ['customObject', '커스텀 오브젝트']) {
      const res = await call('/v3/object/read', {
        objectType,
        idList: [side.second, 'no-such-record', side.first, side.second, theirs.first],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.objectList).toEqual([await one(side.second), await one(side.first)]);
    }
    const chosen = await call('/v3/object/read', {
      objectType: 'customObject',
      idList: [side.first],
      fieldList: ['서명자', '이름', 'RecordId'],
    });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json.data.objectList).toEqual([
      { id: side.first, RecordId: 1, 이름: '공급 계약', 서명자: null },
    ]);
    const unknown = await call('/v3/object/read', {
      objectType: 'customObject',
      idList: [side.first],
      fieldList: ['없는 필드'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/없는 필드/);
    // Another workspace's definition's field is not a field here.
    await other.write((x) =>
      defineCustomObject(x, { name: '그쪽 정의', fields: [{ name: '그쪽 필드', type: 'string' }] }),
    );
    const before = await tableSnapshot(store);
    const foreign = await call('/v3/object/read', {
      objectType: 'customObject',
      idList: [side.first],
      fieldList: ['그쪽 필드'],
    });
    expect(foreign.status).toBe(400);
    expect(await tableSnapshot(store)).toEqual(before);
  });
});

describe('batch writes linking custom objects', () => {
  it('sets customObject and multiCustomObject fields in data, read back both ways', async () => {
    const created = await call('/v3/object/create', {
      objectType: '딜',
      inputList: [
        {
          data: {
            이름: '계약 딜',
            파이프라인: side.pipeline.id,
            '파이프라인 단계': side.pipeline.stageIds[0],
            상태: 'In progress',
            계약: { id: side.first, name: '공급 계약' },
          },
          association: { people: side.personId },
        },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const dealId = created.json.data.objectList[0].id as string;
    const updated = await call('/v3/object/update', {
      objectType: 'people',
      inputList: [{ id: side.personId, data: { 계약서들: [side.second, side.first] } }],
    });
    expect(updated.status, updated.text).toBe(200);

    const read = await call('/v3/object/read', {
      objectType: 'deal',
      idList: [dealId],
      fieldList: ['계약'],
    });
    expect(read.json.data.objectList).toEqual([
      { id: dealId, 계약: { id: side.first, name: '공급 계약' } },
    ]);
    const person = await call('/v3/object/read', {
      objectType: '고객',
      idList: [side.personId],
      fieldList: ['계약서들'],
    });
    expect(person.json.data.objectList[0].계약서들).toEqual([
      { id: side.second, name: '유지보수 계약' },
      { id: side.first, name: '공급 계약' },
    ]);
    const custom = async (type: string, id: string, to: string) =>
      (await get(app, ws.token, `/v2/object/${type}/${id}/association/${to}/custom`)).json.data
        .associationItemList;
    expect(await custom('custom-object', side.first, 'deal')).toEqual([
      { id: dealId, label: '계약' },
    ]);
    expect(await custom('custom-object', side.first, 'people')).toEqual([
      { id: side.personId, label: '계약서들' },
    ]);
    expect(await custom('people', side.personId, 'custom-object')).toEqual([
      { id: side.second, label: '계약서들' },
      { id: side.first, label: '계약서들' },
    ]);
  });

  it('refuses a custom object the workspace does not have, naming the item, writing nothing', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await seed(other);
    const before = await tableSnapshot(store);
    const res = await call('/v3/object/update', {
      objectType: 'people',
      inputList: [
        { id: side.personId, data: { 계약서들: [side.first] } },
        { id: side.personId, data: { 계약서들: [theirs.first] } },
      ],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.message).toMatch(/^inputList\[1\]: .*계약서들/);
    expect(res.json.data).toEqual({ index: 1 });
    expect(await tableSnapshot(store)).toEqual(before);
  });
});

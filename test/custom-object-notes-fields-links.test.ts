/**
 * What custom objects share with the other records: a note written through
 * `POST /v2/custom-object/{id}/memo`, `?fieldList=` on their list and single read, and the
 * association reads from and to them (`…/custom` through `customObject` and
 * `multiCustomObject` fields, `…/primary` of their notes). Each read back; bad input refused
 * in shape A with nothing written; another workspace's records never shown.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makeDeal, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';
import { MEMO_KEYS } from './shapes.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let side: Awaited<ReturnType<typeof seed>>;
appWithWorkspace((made) => ({ store, app, ws } = made));

const UNKNOWN = '01890000-0000-7000-8000-000000000000';

/**
 * Two definitions: 계약서 (a number, a deal field and a field linking 티켓 records) and 티켓
 * (a text field and a field linking one 계약서); a deal with a field linking 계약서 records; a
 * record of each definition.
 */
async function seed(w: TestWorkspace) {
  const defs = await w.write(async (x) => {
    const contract = await defineCustomObject(x, {
      name: '계약서',
      fields: [
        { name: '계약 금액', type: 'number' },
        { name: '딜', type: 'deal' },
        { name: '관련 티켓', type: 'multiCustomObject' },
      ],
    });
    const ticket = await defineCustomObject(x, {
      name: '티켓',
      fields: [
        { name: '우선순위', type: 'string' },
        { name: '원 계약', type: 'customObject' },
      ],
    });
    const personId = await makePerson(x, { name: '고객' });
    const dealField = await defineCustomField(x, {
      recordType: 'deal',
      name: '계약 문서',
      type: 'multiCustomObject',
    });
    const dealId = await makeDeal(x, { name: '큰 딜', peopleId: personId });
    return { contract, ticket, personId, dealId, dealField };
  });
  const create = async (definitionId: string, name: string, more: Rec[] = []) => {
    const res = await post(app, w.token, '/v2/custom-object', {
      customObjectDefinitionId: definitionId,
      fieldList: [{ name: '이름', stringValue: name }, ...more],
    });
    expect(res.status, res.text).toBe(201);
    return res.json.data.customObject.id as string;
  };
  const contractId = await create(defs.contract.id, '공급 계약', [
    { name: '계약 금액', numberValue: 1000 },
    { name: '딜', dealValueId: defs.dealId },
  ]);
  const ticketId = await create(defs.ticket.id, '설치 문의', [
    { name: '우선순위', stringValue: '높음' },
    { name: '원 계약', customObjectValueId: contractId },
  ]);
  return { ...defs, contractId, ticketId, create };
}

beforeEach(async () => {
  side = await seed(ws);
});

async function ok(url: string, body: unknown, status = 200, token = ws.token): Promise<Rec> {
  const res = await post(app, token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  return res.json.data;
}

async function read(url: string, token = ws.token): Promise<Rec> {
  const res = await get(app, token, url);
  expect(res.status, `${url}: ${res.text}`).toBe(200);
  return res.json.data;
}

/** A refusal in shape A that leaves every table as it was. */
async function expectRefused(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  status: number,
  message: string | RegExp,
  token = ws.token,
): Promise<void> {
  const before = await tableSnapshot(store);
  const res = method === 'GET' ? await get(app, token, url) : await post(app, token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  expect(Object.keys(res.json).slice(0, 2)).toEqual(['success', 'message']);
  expect(res.json.success).toBe(false);
  expect(res.json.message).toMatch(message);
  expect(await tableSnapshot(store)).toEqual(before);
}

describe('POST /v2/custom-object/{customObjectId}/memo', () => {
  it('writes a note: the memo, the record’s NOTE group, a memoCreate activity', async () => {
    const data = await ok(
      `/v2/custom-object/${side.ticketId}/memo`,
      { text: '현장 방문 예정', typeId: 'memo-type-call' },
      201,
    );
    expect(Object.keys(data)).toEqual(['memo']);
    const memo = data.memo as Rec;
    expect(Object.keys(memo)).toEqual(MEMO_KEYS);
    expect(memo).toMatchObject({
      text: '현장 방문 예정',
      typeList: [{ _id: 'memo-type-call', value: '통화', color: 'orange' }],
      dealId: null,
      leadId: null,
      peopleId: null,
      organizationId: null,
      ownerId: ws.userId,
    });
    // Read back: the note itself and in the list of notes.
    expect((await read(`/v2/memo/${memo.id}`)).memo).toEqual(memo);
    // The list's record also has the cursor that continues after it.
    const [{ cursorId, ...inList }] = (await read('/v2/memo')).memoList as Rec[];
    expect(inList).toEqual(memo);
    expect(typeof cursorId).toBe('string');
    // The record's NOTE group, in the single read and the lists, fresh at once.
    const record = (await read(`/v2/custom-object/${side.ticketId}`)).customObject as Rec;
    expect(record).toMatchObject({
      '최근 작성된 노트': '현장 방문 예정',
      '최근 노트 작성일': memo.createdAt,
      '최근 노트 작성자': { id: ws.userId, name: '김관리' },
    });
    const listed = (await read(`/v2/custom-object?customObjectDefinitionId=${side.ticket.id}`))
      .customObjectList as Rec[];
    expect(listed).toEqual([record]);
    // Its memoCreate activity names the note.
    const acts = (await read(`/v2/custom-object/activity?customObjectId=${side.ticketId}`))
      .customObjectActivityList as Rec[];
    expect(acts.map((a) => [a.type, a.memoId])).toEqual([
      ['create', null],
      ['memoCreate', memo.id],
    ]);
    // The notes of the record, as its primary associations.
    expect(
      (await read(`/v2/object/custom-object/${side.ticketId}/association/memo/primary`))
        .associationIdList,
    ).toEqual([memo.id]);
    // Without a type, and a newer note is the one the record shows.
    const plain = (await ok(`/v2/custom-object/${side.ticketId}/memo`, { text: '두번째' }, 201))
      .memo as Rec;
    expect(plain.typeList).toEqual([]);
    const again = (await read(`/v2/custom-object/${side.ticketId}`)).customObject as Rec;
    expect(again['최근 작성된 노트']).toBe('두번째');
    // The other record is untouched.
    const contract = (await read(`/v2/custom-object/${side.contractId}`)).customObject as Rec;
    expect(contract['최근 작성된 노트']).toBeNull();
  });

  it('lists a custom object’s notes with GET /v2/memo?customObjectId=, paged', async () => {
    const mine: string[] = [];
    for (const text of ['하나', '둘', '셋']) {
      const data = await ok(`/v2/custom-object/${side.ticketId}/memo`, { text }, 201);
      mine.push((data.memo as Rec).id as string);
    }
    await ok(`/v2/custom-object/${side.contractId}/memo`, { text: '계약 메모' }, 201);
    await ok(`/v2/deal/${side.dealId}/memo`, { text: '딜 메모' }, 201);
    const listed = await walk(
      app,
      ws.token,
      `/v2/memo?customObjectId=${side.ticketId}&limit=2`,
      'memoList',
    );
    expect(listed.records.map((m) => m.id)).toEqual(mine);
    expect(listed.pages).toBe(2);
    expect(
      listed.records.every(
        (m) => Object.keys(m).join() === ['id', 'cursorId', ...MEMO_KEYS.slice(1)].join(),
      ),
    ).toBe(true);
    // With another filter: both hold.
    const typed = await read(`/v2/memo?customObjectId=${side.contractId}&ownerId=${ws.userId}`);
    expect((typed.memoList as Rec[]).map((m) => m.text)).toEqual(['계약 메모']);
    // A record that is not a custom object with notes, or another's: nothing.
    for (const id of [side.dealId, UNKNOWN])
      expect((await read(`/v2/memo?customObjectId=${id}`)).memoList).toEqual([]);
    // The cursor is bound to its filter; a malformed id is a 400 naming it.
    const foreign = await get(
      app,
      ws.token,
      `/v2/memo?customObjectId=${side.contractId}&cursor=${listed.cursors[0]}`,
    );
    expect(foreign.status).toBe(400);
    const unfiltered = await get(app, ws.token, `/v2/memo?cursor=${listed.cursors[0]}`);
    expect(unfiltered.status).toBe(400);
    await expectRefused('GET', '/v2/memo?customObjectId=a%20b', undefined, 400, /'customObjectId'/);
  });

  it('refuses bad bodies and unknown records in shape A, writing nothing', async () => {
    const url = `/v2/custom-object/${side.ticketId}/memo`;
    const cases: [string, unknown, number, RegExp][] = [
      [url, {}, 400, /text/],
      [url, { text: '' }, 400, /text/],
      [url, { text: '   ' }, 400, /text/],
      [url, { text: 7 }, 400, /text/],
      [url, { text: '메모', typeId: 'memo-type-nope' }, 400, /typeId/],
      [url, { text: '메모\u0000' }, 400, /text/],
      [url, [], 400, /./],
      [`/v2/custom-object/${UNKNOWN}/memo`, { text: '메모' }, 404, /^커스텀 오브젝트를 찾을 수/],
      // A deal's id is not a custom object's.
      [`/v2/custom-object/${side.dealId}/memo`, { text: '메모' }, 404, /커스텀 오브젝트/],
      ['/v2/custom-object/a%20b/memo', { text: '메모' }, 400, /customObjectId/],
    ];
    for (const [u, body, status, message] of cases)
      await expectRefused('POST', u, body, status, message);
  });

  it('never writes on another workspace’s record', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await seed(other);
    await expectRefused(
      'POST',
      `/v2/custom-object/${theirs.ticketId}/memo`,
      { text: '남의 것' },
      404,
      /커스텀 오브젝트/,
    );
    await ok(`/v2/custom-object/${theirs.ticketId}/memo`, { text: '그쪽 메모' }, 201, other.token);
    expect((await read('/v2/memo')).memoList).toEqual([]);
    const mine = (await read(`/v2/custom-object/${side.ticketId}`)).customObject as Rec;
    expect(mine['최근 작성된 노트']).toBeNull();
    const res = await get(
      app,
      ws.token,
      `/v2/object/custom-object/${theirs.ticketId}/association/memo/primary`,
    );
    expect(res.status, res.text).toBe(404);
  });
});

describe('?fieldList= on the custom object reads', () => {
  it('keeps id and the chosen fields, in the record’s key order', async () => {
    const whole = (await read('/v2/custom-object')).customObjectList as Rec[];
    const all = await read('/v2/custom-object?fieldList=우선순위,이름,계약 금액');
    expect(all).toEqual({
      customObjectList: [
        { id: side.contractId, 이름: '공급 계약', '계약 금액': 1000 },
        { id: side.ticketId, 이름: '설치 문의', 우선순위: '높음' },
      ],
      nextCursor: null,
    });
    expect(whole.map((r) => r.id)).toEqual([side.contractId, side.ticketId]);
    const one = await read(`/v2/custom-object/${side.contractId}?fieldList=딜,RecordId,이름`);
    expect(one).toEqual({
      customObject: {
        id: side.contractId,
        RecordId: 1,
        이름: '공급 계약',
        딜: { id: side.dealId, name: '큰 딜' },
      },
    });
    expect(Object.keys(one.customObject as Rec)).toEqual(['id', 'RecordId', '이름', '딜']);
    // Of one definition: its own fields.
    const tickets = await read(
      `/v2/custom-object?customObjectDefinitionName=티켓&fieldList=${encodeURIComponent('원 계약')}`,
    );
    expect(tickets.customObjectList).toEqual([
      { id: side.ticketId, '원 계약': { id: side.contractId, name: '공급 계약' } },
    ]);
  });

  it('answers byte for byte as before without it, and pages with it', async () => {
    const plain = await get(app, ws.token, `/v2/custom-object/${side.contractId}`);
    const record = plain.json.data.customObject as Rec;
    expect(plain.text).toBe(JSON.stringify({ success: true, data: { customObject: record } }));
    expect(Object.keys(record).length).toBeGreaterThan(10);
    for (let i = 0; i < 3; i += 1) await side.create(side.contract.id, `계약 ${i}`);
    const walked = await walk(
      app,
      ws.token,
      `/v2/custom-object?customObjectDefinitionId=${side.contract.id}&limit=2&fieldList=이름`,
      'customObjectList',
    );
    expect(walked.records.map((r) => r.이름)).toEqual(['공급 계약', '계약 0', '계약 1', '계약 2']);
    expect(walked.records.every((r) => Object.keys(r).join() === 'id,이름')).toBe(true);
    expect(walked.pages).toBe(2);
  });

  it('refuses unknown or empty field lists in shape A', async () => {
    const cases: [string, RegExp][] = [
      ['/v2/custom-object?fieldList=없는필드', /알 수 없는 필드 '없는필드'/],
      ['/v2/custom-object?fieldList=,', /fieldList/],
      [`/v2/custom-object/${side.ticketId}?fieldList=이름,없는필드`, /없는필드/],
      // 원 계약 is a field of 티켓, not of 계약서.
      [
        `/v2/custom-object?customObjectDefinitionName=계약서&fieldList=${encodeURIComponent('원 계약')}`,
        /알 수 없는 필드 '원 계약'/,
      ],
    ];
    for (const [url, message] of cases) await expectRefused('GET', url, undefined, 400, message);
    // A field of another workspace's definition is not a field here.
    const other = await testWorkspace(store, '다른 워크스페이스');
    await other.write((x) =>
      defineCustomObject(x, { name: '견적 요청', fields: [{ name: '남의 필드', type: 'string' }] }),
    );
    await expectRefused(
      'GET',
      `/v2/custom-object?fieldList=${encodeURIComponent('남의 필드')}`,
      undefined,
      400,
      /남의 필드/,
    );
    // One record takes its own definition's fields only: 원 계약 is 티켓's, not 계약서's.
    await expectRefused(
      'GET',
      `/v2/custom-object/${side.contractId}?fieldList=${encodeURIComponent('이름,원 계약')}`,
      undefined,
      400,
      /정의에 없는 필드 '원 계약'/,
    );
    expect(
      (await read(`/v2/custom-object/${side.ticketId}?fieldList=${encodeURIComponent('원 계약')}`))
        .customObject,
    ).toEqual({ id: side.ticketId, '원 계약': { id: side.contractId, name: '공급 계약' } });
    // An unknown record is still a 404.
    await expectRefused(
      'GET',
      `/v2/custom-object/${UNKNOWN}?fieldList=이름`,
      undefined,
      404,
      /커스텀 오브젝트/,
    );
  });
});

describe('custom objects in the association reads', () => {
  it('lists custom objects linked by customObject and multiCustomObject fields, both ways', async () => {
    const second = await side.create(side.ticket.id, '추가 문의', [
      { name: '원 계약', customObjectValueId: side.contractId },
    ]);
    // The contract lists its tickets, and the deal its contracts, through their fields.
    await ok(`/v2/custom-object/${side.contractId}`, {
      fieldList: [{ name: '관련 티켓', customObjectValueIdList: [side.ticketId] }],
    });
    await ok(`/v2/deal/${side.dealId}`, {
      fieldList: [{ name: '계약 문서', customObjectValueIdList: [side.contractId] }],
    });
    const custom = async (type: string, id: string, to: string) =>
      (await read(`/v2/object/${type}/${id}/association/${to}/custom`)).associationItemList;

    // A deal → its contracts (its own field), and the contract whose 딜 names it.
    expect(await custom('deal', side.dealId, 'custom-object')).toEqual([
      { id: side.contractId, label: '계약 문서' },
      { id: side.contractId, label: '딜' },
    ]);
    // A contract → its tickets (own field), then the tickets whose 원 계약 names it, oldest
    // first.
    expect(await custom('custom-object', side.contractId, 'custom-object')).toEqual([
      { id: side.ticketId, label: '관련 티켓' },
      { id: side.ticketId, label: '원 계약' },
      { id: second, label: '원 계약' },
    ]);
    // A ticket → the contract (its own 원 계약, and the contract's 관련 티켓).
    expect(await custom('custom-object', side.ticketId, 'custom-object')).toEqual([
      { id: side.contractId, label: '원 계약' },
      { id: side.contractId, label: '관련 티켓' },
    ]);
    // A contract → its deal (its 딜 field), and the deal whose 계약 문서 names it.
    expect(await custom('custom-object', side.contractId, 'deal')).toEqual([
      { id: side.dealId, label: '딜' },
      { id: side.dealId, label: '계약 문서' },
    ]);
    expect(await custom('custom-object', second, 'deal')).toEqual([]);
    expect(await custom('people', side.personId, 'custom-object')).toEqual([]);
    // Primary links of a custom object: its notes only.
    for (const to of ['people', 'organization', 'deal', 'lead']) {
      const data = await read(
        `/v2/object/custom-object/${side.contractId}/association/${to}/primary`,
      );
      expect(data, to).toEqual({ associationIdList: [], nextCursor: null });
    }
    // Pages, with a cursor bound to its record.
    const walked = await walk(
      app,
      ws.token,
      `/v2/object/custom-object/${side.contractId}/association/custom-object/custom?limit=1`,
      'associationItemList',
    );
    expect(walked.records).toEqual(await custom('custom-object', side.contractId, 'custom-object'));
    expect(walked.pages).toBe(3);
    const foreign = await get(
      app,
      ws.token,
      `/v2/object/custom-object/${side.ticketId}/association/custom-object/custom?cursor=${walked.cursors[0]}`,
    );
    expect(foreign.status).toBe(400);
  });

  it('never lists another workspace’s custom objects; refuses what the path does not name', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await seed(other);
    // Their ticket names our contract's id in its 원 계약: not ours to show.
    await other.write(async (x) => {
      await x.trx
        .updateTable('custom_objects')
        .set({
          custom: JSON.stringify({
            [(
              await x.trx
                .selectFrom('custom_fields')
                .select('id')
                .where('workspace_id', '=', other.workspaceId)
                .where('name', '=', '원 계약')
                .executeTakeFirstOrThrow()
            ).id]: side.contractId,
          }),
        })
        .where('workspace_id', '=', other.workspaceId)
        .where('id', '=', theirs.ticketId)
        .execute();
    });
    expect(
      (await read(`/v2/object/custom-object/${side.contractId}/association/custom-object/custom`))
        .associationItemList,
    ).toEqual([{ id: side.ticketId, label: '원 계약' }]);
    const cases: [string, number, RegExp][] = [
      [
        `/v2/object/custom-object/${theirs.contractId}/association/deal/custom`,
        404,
        /^커스텀 오브젝트를 찾을 수 없습니다/,
      ],
      [`/v2/object/custom-object/${side.dealId}/association/deal/custom`, 404, /커스텀 오브젝트를/],
      [`/v2/object/custom-object/${UNKNOWN}/association/memo/primary`, 404, /커스텀 오브젝트를/],
      [`/v2/object/custom-object/a%20b/association/deal/custom`, 400, /'targetId'/],
      [
        `/v2/object/custom-object/${side.contractId}/association/custom-object/primary`,
        400,
        /'toTargetType'/,
      ],
      [`/v2/object/customObject/${side.contractId}/association/deal/custom`, 400, /'targetType'/],
    ];
    for (const [url, status, message] of cases)
      await expectRefused('GET', url, undefined, status, message);
  });
});

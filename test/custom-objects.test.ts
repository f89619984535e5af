/**
 * Custom objects (docs/decisions.md, Other resources): definitions listed; records created, updated
 * and read back through the list, the single read, their activities and history; their fields
 * listed and created through `/v2/field/custom-object`; custom Ref fields of other records pointing
 * at them; bad input refused in shape A with nothing written; isolation between workspaces;
 * cursors.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makeDeal, makePerson, makePipeline, makeUser } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let contract: { id: string; name: string; pipelineId: string | null };
let ticket: { id: string; name: string; pipelineId: string | null };
let dealId: string;
appWithWorkspace((made) => ({ store, app, ws } = made));

async function defineBoth(w: TestWorkspace) {
  return w.write(async (tx) => {
    const contract = await defineCustomObject(tx, {
      name: '계약서',
      fields: [
        { name: '계약 금액', type: 'number' },
        { name: '딜', type: 'deal' },
        { name: '단계', type: 'singleSelect', options: ['초안', '서명'] },
      ],
    });
    const ticket = await defineCustomObject(tx, {
      name: '티켓',
      fields: [{ name: '우선순위', type: 'string' }],
      stages: ['접수', '처리중', '완료'],
    });
    const personId = await makePerson(tx, { name: '고객' });
    const pipeline = await makePipeline(tx);
    const dealId = await makeDeal(tx, {
      name: '큰 딜',
      peopleId: personId,
      pipelineId: pipeline.id,
      stageId: pipeline.stageIds[0]!,
    });
    return { contract, ticket, dealId };
  });
}

/** The keys of a 계약서 record, in order: the fixed ones, then its fields. */
const CONTRACT_KEYS = [
  'id',
  'customObjectDefinitionId',
  'RecordId',
  '이름',
  '파이프라인',
  '파이프라인 단계',
  '최근 작성된 노트',
  '최근 노트 작성일',
  '최근 노트 작성자',
  '담당자',
  '생성 날짜',
  '팀',
  '수정 날짜',
  '다음 TODO',
  '전체 TODO',
  '완료 TODO',
  '미완료 TODO',
  '계약 금액',
  '딜',
  '단계',
];

beforeEach(async () => {
  ({ contract, ticket, dealId } = await defineBoth(ws));
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

async function newContract(name = '공급 계약', more: Rec = {}): Promise<string> {
  const data = await ok(
    '/v2/custom-object',
    {
      customObjectDefinitionId: contract.id,
      fieldList: [{ name: '이름', stringValue: name }],
      ...more,
    },
    201,
  );
  return (data.customObject as Rec).id as string;
}

async function stagesOf(pipelineId: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom('pipeline_stages')
    .select('id')
    .where('pipeline_id', '=', pipelineId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.id);
}

async function expectRefused(
  url: string,
  body: unknown,
  status: number,
  message: string | RegExp,
): Promise<void> {
  const before = await tableSnapshot(store);
  const res = await post(app, ws.token, url, body);
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json).slice(0, 2)).toEqual(['success', 'message']);
  expect(res.json.success).toBe(false);
  expect(res.json.message).toMatch(message);
  expect(await tableSnapshot(store)).toEqual(before);
}

describe('the path an integrator tries first', () => {
  it('lists the definitions, creates a record and reads it back', async () => {
    const defs = await get(app, ws.token, '/v2/custom-object-definitions');
    expect(defs.status).toBe(200);
    expect(defs.json).toEqual({
      success: true,
      data: {
        customObjectDefinitionList: [
          { id: contract.id, name: '계약서' },
          { id: ticket.id, name: '티켓' },
        ],
      },
    });

    const res = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionName: '계약서',
      fieldList: [
        { name: '이름', stringValue: '공급 계약' },
        { name: '계약 금액', numberValue: 1_000_000 },
        { name: '딜', dealValueId: dealId },
      ],
      memo: '초안 검토 중',
    });
    expect(res.status, res.text).toBe(201);
    const created = res.json.data.customObject;
    expect(Object.keys(created)).toEqual(['id', 'name', 'createdAt']);
    expect(created.name).toBe('공급 계약');

    const one = await get(app, ws.token, `/v2/custom-object/${created.id}`);
    expect(one.status, one.text).toBe(200);
    const record = one.json.data.customObject;
    expect(Object.keys(record)).toEqual(CONTRACT_KEYS);
    expect(record).toMatchObject({
      id: created.id,
      customObjectDefinitionId: contract.id,
      RecordId: 1,
      이름: '공급 계약',
      파이프라인: null,
      '파이프라인 단계': null,
      '최근 작성된 노트': '초안 검토 중',
      '최근 노트 작성일': created.createdAt,
      '최근 노트 작성자': { id: ws.userId, name: '김관리' },
      담당자: { id: ws.userId, name: '김관리' },
      '생성 날짜': created.createdAt,
      팀: [{ id: ws.teamId, name: '영업1팀' }],
      '수정 날짜': created.createdAt,
      '다음 TODO': null,
      '전체 TODO': 0,
      '계약 금액': 1_000_000,
      딜: { id: dealId, name: '큰 딜' },
      단계: null,
    });

    const list = await read(`/v2/custom-object?customObjectDefinitionId=${contract.id}`);
    expect(list).toEqual({ customObjectList: [record], nextCursor: null });
    expect(await read('/v2/custom-object')).toEqual({
      customObjectList: [record],
      nextCursor: null,
    });
  });

  it('numbers the records of each definition from 1 and lists them oldest first', async () => {
    const a = await newContract('가');
    const b = await newContract('나');
    const t = (
      (
        await ok(
          '/v2/custom-object',
          {
            customObjectDefinitionId: ticket.id,
            fieldList: [{ name: '이름', stringValue: '문의' }],
          },
          201,
        )
      ).customObject as Rec
    ).id;
    const all = (await read('/v2/custom-object')).customObjectList as Rec[];
    expect(all.map((r) => [r.id, r.RecordId])).toEqual([
      [a, 1],
      [b, 2],
      [t, 1],
    ]);
    const tickets = (await read('/v2/custom-object?customObjectDefinitionName=티켓'))
      .customObjectList as Rec[];
    expect(tickets.map((r) => r.id)).toEqual([t]);
    expect(Object.keys(tickets[0]!).slice(-1)).toEqual(['우선순위']);
    const both = await read(
      `/v2/custom-object?customObjectDefinitionId=${contract.id}&customObjectDefinitionName=계약서`,
    );
    expect((both.customObjectList as Rec[]).map((r) => r.id)).toEqual([a, b]);
  });
});

describe('POST /v2/custom-object/{id}', () => {
  it('changes fields, stage and note; answers the definition and record; writes history', async () => {
    const stages = await stagesOf(ticket.pipelineId!);
    const created = (
      (
        await ok(
          '/v2/custom-object',
          {
            customObjectDefinitionId: ticket.id,
            fieldList: [{ name: '이름', stringValue: '로그인 문의' }],
            pipelineId: ticket.pipelineId,
            pipelineStageId: stages[0],
          },
          201,
        )
      ).customObject as Rec
    ).id as string;
    const other = await ws.write((w) => makeUser(w, '박담당'));
    const res = await post(app, ws.token, `/v2/custom-object/${created}`, {
      pipelineId: ticket.pipelineId,
      pipelineStageId: stages[1],
      memo: '담당자 배정',
      fieldList: [
        { name: '이름', stringValue: '로그인 오류' },
        { name: '우선순위', stringValue: '높음' },
        { name: '담당자', userValueId: other },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['customObjectDefinition', 'customObject']);
    expect(res.json.data.customObjectDefinition).toEqual({ id: ticket.id, name: '티켓' });
    const answered = res.json.data.customObject;
    expect(Object.keys(answered)).toEqual(['id', 'name', 'updatedAt']);
    expect(answered).toMatchObject({ id: created, name: '로그인 오류' });

    const record = (await read(`/v2/custom-object/${created}`)).customObject as Rec;
    expect(record).toMatchObject({
      이름: '로그인 오류',
      파이프라인: { id: ticket.pipelineId, name: '티켓' },
      '파이프라인 단계': { id: stages[1], name: '처리중' },
      '최근 작성된 노트': '담당자 배정',
      담당자: { id: other, name: '박담당' },
      '수정 날짜': answered.updatedAt,
      우선순위: '높음',
    });

    const history = await read(`/v2/custom-object/history?customObjectId=${created}`);
    const rows = history.customObjectHistoryList as Rec[];
    expect(Object.keys(rows[0]!)).toEqual([
      'id',
      'customObjectId',
      'type',
      'fieldName',
      'fieldValue',
      'ownerId',
      'createdAt',
    ]);
    expect(rows.map((r) => [r.fieldName, r.fieldValue])).toEqual(
      expect.arrayContaining([
        ['파이프라인 단계', stages[1]],
        ['이름', '로그인 오류'],
        ['우선순위', '높음'],
        ['담당자', other],
      ]),
    );
    expect(rows.every((r) => r.type === 'editField' && r.ownerId === ws.userId)).toBe(true);
    expect(history.nextCursor).toBeNull();

    const activity = await read(`/v2/custom-object/activity?customObjectId=${created}`);
    const acts = activity.customObjectActivityList as Rec[];
    expect(acts.map((a) => a.type)).toEqual(['create', 'memoCreate']);
    expect(Object.keys(acts[0]!)).toEqual([
      'id',
      'type',
      'date',
      'customObjectId',
      'meetingId',
      'kakaoAlimtalkId',
      'emailId',
      'messageId',
      'threadId',
      'recordingId',
      'smsId',
      'memoId',
      'todoId',
      'emailLinkId',
    ]);
    expect(acts[0]!.customObjectId).toBe(created);
    expect(typeof acts[1]!.memoId).toBe('string');
    const typed = await read(`/v2/custom-object/activity?types=memoCreate`);
    expect((typed.customObjectActivityList as Rec[]).map((a) => a.id)).toEqual([acts[1]!.id]);
  });

  it('keeps what an empty update does not change, and takes a record off its stage', async () => {
    const stages = await stagesOf(ticket.pipelineId!);
    const created = (
      (
        await ok(
          '/v2/custom-object',
          {
            customObjectDefinitionName: '티켓',
            fieldList: [{ name: '이름', stringValue: '문의' }],
            pipelineId: ticket.pipelineId,
            pipelineStageId: stages[2],
          },
          201,
        )
      ).customObject as Rec
    ).id as string;
    const before = (await read(`/v2/custom-object/${created}`)).customObject as Rec;
    const ignored = await post(
      app,
      ws.token,
      `/v2/custom-object/${created}?${encodeURIComponent('한글')}=1`,
      {
        extra: 1,
      },
    );
    expect(ignored.status, ignored.text).toBe(200);
    expect(ignored.headers['x-ignored-parameters']).toBe('%ED%95%9C%EA%B8%80,extra');
    const same = await ok(`/v2/custom-object/${created}`, {});
    expect((same.customObject as Rec).updatedAt).toBe(before['수정 날짜']);
    expect((await read(`/v2/custom-object/${created}`)).customObject).toEqual(before);
    await ok(`/v2/custom-object/${created}`, { pipelineId: null, pipelineStageId: null });
    const after = (await read(`/v2/custom-object/${created}`)).customObject as Rec;
    expect(after.파이프라인).toBeNull();
    expect(after['파이프라인 단계']).toBeNull();
  });

  it('shows a renamed record in the custom Ref fields that point at it', async () => {
    const recordId = await newContract('구 이름');
    const fieldId = await ws.write((w) =>
      defineCustomField(w, { recordType: 'deal', name: '계약서', type: 'customObject' }),
    );
    expect(fieldId).toBeTruthy();
    const deal = await ok(`/v2/deal/${dealId}`, {
      fieldList: [{ name: '계약서', customObjectValueId: recordId }],
    });
    expect((deal.deal as Rec).id).toBe(dealId);
    const shown = async () =>
      ((await read(`/v2/deal/${dealId}`)).deal as Rec[])[0]!['계약서'] as Rec;
    expect(await shown()).toEqual({ id: recordId, name: '구 이름' });
    await ok(`/v2/custom-object/${recordId}`, {
      fieldList: [{ name: '이름', stringValue: '새 이름' }],
    });
    expect(await shown()).toEqual({ id: recordId, name: '새 이름' });
    const missing = await post(app, ws.token, `/v2/deal/${dealId}`, {
      fieldList: [{ name: '계약서', customObjectValueId: 'nope' }],
    });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain('커스텀 오브젝트');
  });
});

describe('what custom objects show of other records', () => {
  it('follows a merged deal to the kept one, and a renamed field on its definition only', async () => {
    const recordId = await newContract('계약', {
      fieldList: [
        { name: '이름', stringValue: '계약' },
        { name: '딜', dealValueId: dealId },
      ],
    });
    const ticketId = (
      (
        await ok(
          '/v2/custom-object',
          {
            customObjectDefinitionId: ticket.id,
            fieldList: [{ name: '이름', stringValue: '티켓' }],
          },
          201,
        )
      ).customObject as Rec
    ).id as string;
    const merging = await store.db
      .selectFrom('deals')
      .select(['pipeline_id', 'stage_id', 'people_id'])
      .where('id', '=', dealId)
      .executeTakeFirstOrThrow();
    const kept = (
      (
        await ok(
          '/v2/deal',
          {
            name: '남는 딜',
            pipelineId: merging.pipeline_id,
            pipelineStageId: merging.stage_id,
            status: 'In progress',
            peopleId: merging.people_id,
          },
          201,
        )
      ).deal as Rec
    ).id as string;
    await ok(`/v2/deal/${kept}/merge`, { mergedId: dealId });
    const merged = (await read(`/v2/custom-object/${recordId}`)).customObject as Rec;
    expect(merged.딜).toEqual({ id: kept, name: '남는 딜' });

    const fieldId = (
      await store.db
        .selectFrom('custom_fields')
        .select('id')
        .where('workspace_id', '=', ws.workspaceId)
        .where('custom_object_definition_id', '=', contract.id)
        .where('name', '=', '계약 금액')
        .executeTakeFirstOrThrow()
    ).id;
    const ticketBefore = (await read(`/v2/custom-object/${ticketId}`)).customObject;
    await ok(`/v2/field/custom-object/${fieldId}`, { name: '총액' });
    const renamed = (await read(`/v2/custom-object/${recordId}`)).customObject as Rec;
    expect(Object.keys(renamed).slice(-3)).toEqual(['총액', '딜', '단계']);
    expect((await read(`/v2/custom-object/${ticketId}`)).customObject).toEqual(ticketBefore);
  });
});

describe('fields of custom objects', () => {
  it('lists each definition’s fields with its id, and creates a field on one definition', async () => {
    const recordId = await newContract();
    const list = await read('/v2/field/custom-object');
    const fields = list.fieldList as Rec[];
    const ofContract = fields.filter((f) => f.customObjectDefinitionId === contract.id);
    const ofTicket = fields.filter((f) => f.customObjectDefinitionId === ticket.id);
    expect(ofContract.length + ofTicket.length).toBe(fields.length);
    expect(ofContract.map((f) => f.name)).toEqual(CONTRACT_KEYS);
    expect(ofTicket.map((f) => f.name).slice(-1)).toEqual(['우선순위']);
    const only = await read(`/v2/field/custom-object?customObjectDefinitionId=${ticket.id}`);
    expect(only.fieldList).toEqual(ofTicket);

    const res = await post(app, ws.token, '/v2/field/custom-object', {
      name: '만료일',
      type: 'date',
      customObjectDefinitionId: contract.id,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.field).toMatchObject({ name: '만료일', type: 'date' });
    const record = (await read(`/v2/custom-object/${recordId}`)).customObject as Rec;
    expect(Object.keys(record).slice(-2)).toEqual(['단계', '만료일']);
    expect(record.만료일).toBeNull();
    // The other definition does not get it, and may have a field of the same name.
    await ok(
      '/v2/field/custom-object',
      { name: '만료일', type: 'string', customObjectDefinitionId: ticket.id },
      201,
    );
    const dup = await post(app, ws.token, '/v2/field/custom-object', {
      name: '만료일',
      type: 'string',
      customObjectDefinitionId: contract.id,
    });
    expect(dup.status).toBe(409);
    await ok(`/v2/custom-object/${recordId}`, {
      fieldList: [{ name: '만료일', dateValue: '2025-12-31' }],
    });
    const dated = (await read(`/v2/custom-object/${recordId}`)).customObject as Rec;
    expect(dated.만료일).toBe('2025-12-31T00:00:00.000Z');
  });

  it('refuses a custom-object field without its definition, or with another workspace’s', async () => {
    await expectRefused(
      '/v2/field/custom-object',
      { name: '메모', type: 'string' },
      400,
      /customObjectDefinitionId/,
    );
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = (await defineBoth(other)).contract;
    await expectRefused(
      '/v2/field/custom-object',
      { name: '메모', type: 'string', customObjectDefinitionId: theirs.id },
      404,
      /^커스텀 객체 정의를 찾을 수 없습니다/,
    );
    await expectRefused(
      '/v2/field/people',
      { name: '메모', type: 'string', customObjectDefinitionId: contract.id },
      400,
      /custom-object/,
    );
  });
});

describe('bad input', () => {
  it('refuses creates in shape A and writes nothing', async () => {
    const stages = await stagesOf(ticket.pipelineId!);
    const cases: [unknown, number, RegExp][] = [
      [{ fieldList: [{ name: '이름', stringValue: 'x' }] }, 400, /customObjectDefinition/],
      [{ customObjectDefinitionId: contract.id }, 400, /fieldList/],
      [{ customObjectDefinitionId: contract.id, fieldList: [] }, 400, /대표 필드 '이름'/],
      [
        { customObjectDefinitionId: contract.id, fieldList: [{ name: '이름', stringValue: ' ' }] },
        400,
        /대표 필드/,
      ],
      [
        { customObjectDefinitionId: 'unknown', fieldList: [{ name: '이름', stringValue: 'x' }] },
        404,
        /^커스텀 객체 정의를 찾을 수 없습니다/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          customObjectDefinitionName: '티켓',
          fieldList: [{ name: '이름', stringValue: 'x' }],
        },
        404,
        /^커스텀 객체 정의를 찾을 수 없습니다/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          fieldList: [
            { name: '이름', stringValue: 'x' },
            { name: '우선순위', stringValue: '높음' },
          ],
        },
        400,
        /알 수 없는 필드입니다: '우선순위'/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          fieldList: [
            { name: '이름', stringValue: 'x' },
            { name: '계약 금액', stringValue: '많이' },
          ],
        },
        400,
        /numberValue/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          fieldList: [
            { name: '이름', stringValue: 'x' },
            { name: '딜', dealValueId: 'no-such-deal' },
          ],
        },
        400,
        /딜 id/,
      ],
      [
        {
          customObjectDefinitionId: ticket.id,
          fieldList: [{ name: '이름', stringValue: 'x' }],
          pipelineId: ticket.pipelineId,
        },
        400,
        /함께/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          fieldList: [{ name: '이름', stringValue: 'x' }],
          pipelineId: ticket.pipelineId,
          pipelineStageId: stages[0],
        },
        400,
        /파이프라인이 없습니다/,
      ],
      [
        {
          customObjectDefinitionId: ticket.id,
          fieldList: [{ name: '이름', stringValue: 'x' }],
          pipelineId: ticket.pipelineId,
          pipelineStageId: 'other-stage',
        },
        400,
        /pipelineStageId/,
      ],
      [
        {
          customObjectDefinitionId: contract.id,
          fieldList: [{ name: '이름', stringValue: 'x' }],
          memo: 5,
        },
        400,
        /memo/,
      ],
    ];
    for (const [body, status, message] of cases)
      await expectRefused('/v2/custom-object', body, status, message);
  });

  it('refuses updates in shape A and writes nothing', async () => {
    const id = await newContract();
    await expectRefused(
      '/v2/custom-object/no-such-record',
      { memo: 'x' },
      404,
      /^커스텀 오브젝트를 찾을 수 없습니다/,
    );
    await expectRefused(
      `/v2/custom-object/${id}`,
      { fieldList: [{ name: '이름', stringValue: '' }] },
      400,
      /대표 필드/,
    );
    await expectRefused(`/v2/custom-object/${id}`, { pipelineStageId: 'x' }, 400, /함께/);
    await expectRefused(
      `/v2/custom-object/${id}`,
      { fieldList: [{ name: '단계', stringValue: '완료' }] },
      400,
      /선택지/,
    );
    await expectRefused(`/v2/custom-object/${id}`, { fieldList: 'x' }, 400, /fieldList/);
    await expectRefused('/v2/custom-object/a%20b', {}, 400, /customObjectId/);
  });

  it('answers bad reads in shape A', async () => {
    const cases: [string, number, RegExp][] = [
      [
        '/v2/custom-object?customObjectDefinitionId=nope',
        404,
        /^커스텀 객체 정의를 찾을 수 없습니다/,
      ],
      [
        '/v2/custom-object?customObjectDefinitionName=없음',
        404,
        /^커스텀 객체 정의를 찾을 수 없습니다/,
      ],
      [
        `/v2/custom-object?customObjectDefinitionId=${contract.id}&customObjectDefinitionName=티켓`,
        404,
        /^커스텀 객체 정의를 찾을 수 없습니다/,
      ],
      ['/v2/custom-object/nope', 404, /^커스텀 오브젝트를 찾을 수 없습니다/],
      ['/v2/custom-object?cursor=bogus', 400, /cursor/],
      ['/v2/custom-object?limit=0', 400, /limit/],
      ['/v2/custom-object/activity?startDate=yesterday', 400, /startDate/],
      ['/v2/custom-object/activity?types=nope', 400, /types/],
      ['/v2/custom-object/history?customObjectId=a%20b', 400, /customObjectId/],
      ['/v2/field/custom-object?customObjectDefinitionId=nope', 404, /^커스텀 객체 정의/],
    ];
    for (const [url, status, message] of cases) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toMatch(message);
    }
  });
});

describe('isolation and cursors', () => {
  it('never shows or changes another workspace’s definitions and records', async () => {
    const mine = await newContract('내 계약');
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await defineBoth(other);
    const theirRecord = (
      (
        await ok(
          '/v2/custom-object',
          {
            customObjectDefinitionId: theirs.contract.id,
            fieldList: [{ name: '이름', stringValue: '남의 계약' }],
          },
          201,
          other.token,
        )
      ).customObject as Rec
    ).id as string;
    const defs = (await read('/v2/custom-object-definitions', other.token))
      .customObjectDefinitionList as Rec[];
    expect(defs.map((d) => d.id)).toEqual([theirs.contract.id, theirs.ticket.id]);
    expect(
      ((await read('/v2/custom-object', other.token)).customObjectList as Rec[]).map((r) => r.id),
    ).toEqual([theirRecord]);
    expect((await get(app, ws.token, `/v2/custom-object/${theirRecord}`)).status).toBe(404);
    expect(
      (await get(app, ws.token, `/v2/custom-object?customObjectDefinitionId=${theirs.contract.id}`))
        .status,
    ).toBe(404);
    await expectRefused(`/v2/custom-object/${theirRecord}`, { memo: 'x' }, 404, /커스텀 오브젝트/);
    await expectRefused(
      '/v2/custom-object',
      {
        customObjectDefinitionId: theirs.contract.id,
        fieldList: [{ name: '이름', stringValue: 'x' }],
      },
      404,
      /커스텀 객체 정의/,
    );
    const acts = await read(`/v2/custom-object/activity?customObjectId=${theirRecord}`);
    expect(acts.customObjectActivityList).toEqual([]);
    const mineActs = (await read('/v2/custom-object/activity')).customObjectActivityList as Rec[];
    expect(mineActs.map((a) => a.customObjectId)).toEqual([mine]);
  });

  it('walks records with cursors bound to their filter', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await newContract(`계약 ${i}`));
    await ok(
      '/v2/custom-object',
      { customObjectDefinitionId: ticket.id, fieldList: [{ name: '이름', stringValue: '티켓' }] },
      201,
    );
    const walked = await walk(
      app,
      ws.token,
      `/v2/custom-object?customObjectDefinitionId=${contract.id}&limit=2`,
      'customObjectList',
    );
    expect(walked.records.map((r) => r.id)).toEqual(ids);
    expect(walked.pages).toBe(3);
    const all = await walk(app, ws.token, '/v2/custom-object?limit=4', 'customObjectList');
    expect(all.records).toHaveLength(6);
    // A cursor of the definition's walk is not one of the whole list's.
    const foreign = await get(app, ws.token, `/v2/custom-object?cursor=${walked.cursors[0]}`);
    expect(foreign.status).toBe(400);
    const history = await walk(
      app,
      ws.token,
      '/v2/custom-object/activity?limit=2',
      'customObjectActivityList',
    );
    expect(history.records).toHaveLength(6);
  });
});

describe('a custom object’s name', () => {
  it('is refused past a record name’s 500 characters, on create and update, writing nothing', async () => {
    const id = await newContract();
    const long = [{ name: '이름', stringValue: 'x'.repeat(10_000) }];
    await expectRefused(
      '/v2/custom-object',
      { customObjectDefinitionId: contract.id, fieldList: long },
      400,
      /500자까지/,
    );
    await expectRefused(`/v2/custom-object/${id}`, { fieldList: long }, 400, /500자까지/);
    await newContract('x'.repeat(500));
  });
});

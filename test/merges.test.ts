/**
 * Merges (docs/decisions.md, Merges): `POST /v2/{people|organization|lead|deal}/{id}/merge` with
 * `{mergedId}` keeps the path's record, deletes the merged one, and moves everything that
 * pointed at it; the kept record's empty fields take the merged one's values, its derived
 * fields follow, its history records the merge, and the events are `병합` + `삭제` with one
 * `eventId`. Refusals write nothing. Read back through the API, and with direct queries
 * where the API does not show a link.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordHistory } from '../src/resources/record-history/writes.ts';
import {
  makeActivity,
  makeCustomField,
  makeDeal,
  makeEnrollment,
  makeHistory,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
  makeQuote,
  makeSequence,
  makeSubmission,
  makeTodo,
  makeWebForm,
  type TestPipeline,
} from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;
type Kind = 'people' | 'organization' | 'deal' | 'lead';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

/** Merges `mergedId` into `id` and expects the update-like answer. */
async function merge(kind: Kind, id: string, mergedId: string): Promise<Rec> {
  const res = await post(app, ws.token, `/v2/${kind}/${id}/merge`, { mergedId });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.json)).toEqual(['success', 'data']);
  expect(Object.keys(res.json.data)).toEqual([kind]);
  const written = res.json.data[kind] as Rec;
  expect(Object.keys(written)).toEqual(['id', 'name', 'updatedAt']);
  expect(written.id).toBe(id);
  return written;
}

/** One record through its read endpoint (`GET /v2/deal/{id}` answers the object itself). */
async function read(kind: Kind, id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/${kind}/${id}`);
  expect(res.status, res.text).toBe(200);
  const value = res.json.data[kind];
  return (Array.isArray(value) ? value[0] : value) as Rec;
}

/** Every record of a list endpoint (one page is enough here). */
async function list(url: string, key: string): Promise<Rec[]> {
  const sep = url.includes('?') ? '&' : '?';
  const res = await get(app, ws.token, `${url}${sep}limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.data[key] as Rec[];
}

/** Every event of the workspace through the feed. */
async function feed(): Promise<Rec[]> {
  const events: Rec[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(app, ws.token, `/v2/event?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, res.text).toBe(200);
    events.push(...res.json.data.eventList);
    cursor = res.json.data.nextCursor;
    if (!res.json.data.hasMore) return events;
  }
  throw new Error('the feed did not end');
}

/** Rows of `table` in this workspace where `column` is `value`. */
async function rowsWhere(table: string, column: string, value: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
    where workspace_id = ${ws.workspaceId} and ${sql.ref(column)} = ${value}`.execute(store.db);
  return Number(rows[0]!.n);
}

/** Rows that still name `id` as their subject, in every table that has subjects. */
async function subjectRows(id: string): Promise<number> {
  let n = 0;
  for (const table of ['notes', 'todos', 'activities', 'history', 'sequence_enrollments'])
    n += await rowsWhere(table, 'subject_id', id);
  return n;
}

/** The row counts of every workspace table, and the workspaces' data versions. */
const snapshot = () => tableSnapshot(store);

/** Custom values of a row, straight from its table. */
async function customOf(table: 'todos' | 'quote_products', id: string): Promise<Rec> {
  const row = await store.db
    .selectFrom(table)
    .select('custom')
    .where('workspace_id', '=', ws.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.custom) as Rec;
}

/** Expects the merge's events: `병합` on the kept record, `삭제` on the merged one, one eventId. */
function expectMergeEvents(events: Rec[], objectType: string, keptId: string, mergedId: string) {
  const eventIds = new Set(events.map((e) => e.eventId));
  expect(eventIds.size).toBe(1);
  const merged = events.filter((e) => e.event === '병합');
  const deleted = events.filter((e) => e.event === '삭제');
  expect(merged).toHaveLength(1);
  expect(deleted).toHaveLength(1);
  expect(merged[0]).toMatchObject({
    objectType,
    objectId: keptId,
    source: 'API',
    sourceId: ws.userId,
  });
  expect(deleted[0]).toMatchObject({
    objectType,
    objectId: mergedId,
    source: 'API',
    sourceId: ws.userId,
  });
  expect(Object.keys(merged[0]!)).not.toContain('fieldName');
  // The merged record fires nothing but its 삭제.
  expect(events.filter((e) => e.objectId === mergedId)).toHaveLength(1);
}

describe('merging people', () => {
  it('moves everything that pointed at the merged person to the kept one', async () => {
    const f = await ws.write(async (w) => {
      const introducer = await makeCustomField(w, 'deal', '소개자', 'people');
      const contacts = await makeCustomField(w, 'organization', '관계자', 'multiPeople');
      const todoContact = await makeCustomField(w, 'todo', '연락 대상', 'people');
      const org = await makeOrganization(w, { name: '(주)한빛' });
      const kept = await makePerson(w, { name: '김유지', organizationId: org });
      const merged = await makePerson(w, { name: '김병합' });
      const keptDeal = await makeDeal(w, { peopleId: kept, outcome: 'Won' });
      const openDeal = await makeDeal(w, { peopleId: merged, outcome: 'In progress' });
      const lostDeal = await makeDeal(w, {
        peopleId: merged,
        outcome: 'Lost',
        custom: { [introducer]: merged },
      });
      const lead = await makeLead(w, { peopleId: merged });
      const bothTookPart = await makeDeal(w, {
        organizationId: org,
        participantIds: [merged, kept],
      });
      await w.trx
        .updateTable('organizations')
        .set({ custom: JSON.stringify({ [contacts]: [merged, kept] }) })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', org)
        .execute();
      w.touched.mark('organization', org);
      const note = await makeNote(w, {
        subjectType: 'people',
        subjectId: merged,
        text: '병합될 노트',
      });
      const todo = await makeTodo(w, {
        subjectType: 'people',
        subjectId: merged,
        title: '병합될 할 일',
        custom: { [todoContact]: merged },
      });
      const activity = await makeActivity(w, {
        subjectType: 'people',
        subjectId: merged,
        type: 'meeting',
      });
      await makeHistory(w, { peopleId: merged, fieldName: '전화', fieldValue: '010-0000-0000' });
      await recordHistory(w, [
        {
          subjectType: 'deal',
          subjectId: openDeal,
          type: 'editPeopleConnection',
          peopleId: merged,
          organizationId: null,
          fieldName: 'peopleId',
          fieldValue: merged,
          ownerId: null,
        },
      ]);
      const sequence = await makeSequence(w, '온보딩');
      await makeEnrollment(w, { sequenceId: sequence, subjectType: 'people', subjectId: merged });
      const form = await makeWebForm(w, '상담 신청');
      const submission = await makeSubmission(w, { webFormId: form, peopleId: merged });
      return {
        org,
        kept,
        merged,
        keptDeal,
        openDeal,
        lostDeal,
        lead,
        bothTookPart,
        note,
        todo,
        activity,
        sequence,
        form,
        submission,
        todoContact,
      };
    });

    const written = await merge('people', f.kept, f.merged);
    expect(written.name).toBe('김유지');

    expect((await get(app, ws.token, `/v2/people/${f.merged}`)).status).toBe(404);
    const person = await read('people', f.kept);
    // Derived fields are derived again: both persons' deals, leads, note, todo, sequence, form.
    expect(person).toMatchObject({
      이름: '김유지',
      '리드 개수': 1,
      '딜 개수': 3,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 1,
      '실패된 딜 개수': 1,
      '최근 작성된 노트': '병합될 노트',
      '전체 TODO': 1,
      '다음 TODO': '병합될 할 일',
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': true,
      '최근 제출된 웹폼': { id: f.form, name: '상담 신청' },
      '제출된 웹폼 목록': [{ id: f.form, name: '상담 신청' }],
      '등록된 시퀀스 목록': [{ id: f.sequence, name: '온보딩' }],
    });
    // The kept person's organization shows the sequence of its (new) enrolled person.
    expect((await read('organization', f.org))['등록된 시퀀스 목록']).toEqual([
      { id: f.sequence, name: '온보딩' },
    ]);

    for (const id of [f.openDeal, f.lostDeal])
      expect((await read('deal', id)).peopleId).toBe(f.kept);
    expect((await read('lead', f.lead)).peopleId).toBe(f.kept);
    // Participants: the kept person once.
    expect((await read('deal', f.bothTookPart)).참여자).toEqual([{ id: f.kept, name: '김유지' }]);
    // Custom Refs, single and multi (the multi one names the kept person once).
    expect((await read('deal', f.lostDeal)).소개자).toEqual({ id: f.kept, name: '김유지' });
    expect((await read('organization', f.org)).관계자).toEqual([{ id: f.kept, name: '김유지' }]);
    expect((await customOf('todos', f.todo))[f.todoContact]).toBe(f.kept);

    const memos = await list(`/v2/memo?peopleId=${f.kept}`, 'memoList');
    expect(memos.map((m) => m.id)).toContain(f.note);
    const activities = await list(`/v2/people/activity?peopleId=${f.kept}`, 'peopleActivityList');
    expect(activities.find((a) => a.id === f.activity)).toMatchObject({ peopleId: f.kept });
    const history = await list(`/v2/people/history?peopleId=${f.kept}`, 'peopleHistoryList');
    expect(history.find((h) => h.fieldName === '전화')).toMatchObject({
      peopleId: f.kept,
      fieldValue: '010-0000-0000',
    });
    const dealHistory = await list(`/v2/deal/history?dealId=${f.openDeal}`, 'dealHistoryList');
    expect(dealHistory[0]).toMatchObject({
      type: 'editPeopleConnection',
      people: { id: f.kept, name: '김유지' },
      fieldValue: f.kept,
    });

    // Nothing names the merged person any more.
    expect(await subjectRows(f.merged)).toBe(0);
    for (const [table, column] of [
      ['deals', 'people_id'],
      ['leads', 'people_id'],
      ['history', 'people_id'],
      ['web_form_submissions', 'people_id'],
      ['people', 'id'],
    ] as const) {
      expect([table, await rowsWhere(table, column, f.merged)]).toEqual([table, 0]);
    }
    expect(await rowsWhere('web_form_submissions', 'people_id', f.kept)).toBe(1);
    expect(await rowsWhere('sequence_enrollments', 'subject_id', f.kept)).toBe(1);
  });

  it('fills the kept person’s empty fields from the merged one and keeps its own', async () => {
    const f = await ws.write(async (w) => {
      const grade = await makeCustomField(w, 'people', '등급', 'singleSelect');
      const tags = await makeCustomField(w, 'people', '관심사', 'multiSelect');
      const memo = await makeCustomField(w, 'people', '메모', 'string');
      const org = await makeOrganization(w, { name: '(주)병합회사' });
      const kept = await makePerson(w, {
        name: '이유지',
        phone: '010-1111-1111',
        custom: { [memo]: '유지 메모', [tags]: [] },
      });
      const merged = await makePerson(w, {
        name: '이병합',
        phone: '010-2222-2222',
        email: 'Merged@Example.com',
        jobTitle: '팀장',
        organizationId: org,
        unsubscribed: true,
        unsubscribeReason: '수신 거부 요청',
        custom: { [grade]: 'VIP', [memo]: '병합 메모', [tags]: ['CRM'] },
      });
      return { org, kept, merged };
    });

    await merge('people', f.kept, f.merged);
    const person = await read('people', f.kept);
    expect(person).toMatchObject({
      이름: '이유지',
      organizationId: f.org,
      이메일: 'Merged@Example.com',
      전화: '010-1111-1111',
      포지션: '팀장',
      '수신 거부 여부': true,
      '수신 거부 사유': '수신 거부 요청',
      등급: 'VIP',
      관심사: ['CRM'],
      메모: '유지 메모',
    });
    expect((await read('organization', f.org))['딜 개수']).toBe(0);

    // The e-mail came with its unique key: another person cannot take it.
    const duplicate = await post(app, ws.token, '/v2/people', {
      name: '다른 사람',
      fieldList: [{ name: '이메일', stringValue: 'merged@example.com' }],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.json.data).toEqual({ id: f.kept, name: '이유지' });

    // History: the merge, each field taken, then the organization link.
    const history = await list(`/v2/people/history?peopleId=${f.kept}`, 'peopleHistoryList');
    expect(history.map((h) => [h.type, h.fieldName, h.fieldValue])).toEqual([
      ['editField', '병합', f.merged],
      ['editField', '이메일', 'Merged@Example.com'],
      ['editField', '포지션', '팀장'],
      ['editField', '수신 거부 사유', '수신 거부 요청'],
      ['editField', '등급', 'VIP'],
      ['editField', '관심사', '["CRM"]'],
      ['editField', '수신 거부 여부', 'true'],
      ['editOrganizationConnect', 'organizationId', f.org],
    ]);
    expect(history.every((h) => h.ownerId === ws.userId)).toBe(true);
    expect(history.at(-1)!.organization).toEqual({ id: f.org, name: '(주)병합회사' });
  });

  it('fires 병합 on the kept person and 삭제 on the merged one, with one eventId', async () => {
    const f = await ws.write(async (w) => {
      const kept = await makePerson(w, { name: '박유지' });
      const merged = await makePerson(w, { name: '박병합', email: 'park@example.com' });
      const deal = await makeDeal(w, { peopleId: merged, outcome: 'Won' });
      return { kept, merged, deal };
    });
    const before = (await feed()).length;
    await merge('people', f.kept, f.merged);
    const events = (await feed()).slice(before);
    expectMergeEvents(events, '고객', f.kept, f.merged);
    const changed = events.filter((e) => e.event === '수정' && e.objectId === f.kept);
    expect(changed.map((e) => [e.fieldName, e.beforeField, e.afterField])).toEqual(
      expect.arrayContaining([
        ['이메일', null, 'park@example.com'],
        ['딜 개수', 0, 1],
        ['성사된 딜 개수', 0, 1],
      ]),
    );
    expect(changed.every((e) => e.source === 'API')).toBe(true);
    // The deal now names the kept person: a change the system derived.
    expect(events.find((e) => e.objectId === f.deal)).toMatchObject({
      event: '수정',
      fieldName: 'peopleId',
      source: '시스템',
    });
  });
});

describe('merging organizations', () => {
  it('moves people, deals, leads and everything else to the kept organization', async () => {
    const f = await ws.write(async (w) => {
      const employer = await makeCustomField(w, 'people', '전 직장', 'organization');
      const partners = await makeCustomField(w, 'deal', '협력사', 'multiOrganization');
      const kept = await makeOrganization(w, { name: '(주)유지', phone: '02-111-1111' });
      const merged = await makeOrganization(w, {
        name: '(주)병합',
        phone: '02-222-2222',
        email: 'hello@merged.example',
        linkedin: 'https://linkedin.example/merged',
      });
      const person = await makePerson(w, { name: '최직원', custom: { [employer]: merged } });
      const moved = await makePerson(w, { name: '정직원' });
      const deal = await makeDeal(w, {
        organizationId: merged,
        outcome: 'Won',
        custom: { [partners]: [kept, merged] },
      });
      const keptDeal = await makeDeal(w, { organizationId: kept, outcome: 'Lost' });
      const lead = await makeLead(w, { organizationId: merged });
      const note = await makeNote(w, { subjectType: 'organization', subjectId: merged });
      const todo = await makeTodo(w, { subjectType: 'organization', subjectId: merged });
      const activity = await makeActivity(w, {
        subjectType: 'organization',
        subjectId: merged,
        type: 'meeting',
      });
      await recordHistory(w, [
        {
          subjectType: 'organization',
          subjectId: merged,
          type: 'editField',
          fieldName: '전화',
          fieldValue: '02-222-2222',
          ownerId: null,
        },
      ]);
      const form = await makeWebForm(w);
      await makeSubmission(w, { webFormId: form, organizationId: merged });
      return { kept, merged, person, moved, deal, keptDeal, lead, note, todo, activity, form };
    });
    // The moved person's link to the merged organization, recorded in its history.
    const linked = await post(app, ws.token, `/v2/people/${f.moved}`, { organizationId: f.merged });
    expect(linked.status, linked.text).toBe(200);

    await merge('organization', f.kept, f.merged);
    expect((await get(app, ws.token, `/v2/organization/${f.merged}`)).status).toBe(404);
    const org = await read('organization', f.kept);
    expect(org).toMatchObject({
      이름: '(주)유지',
      전화: '02-111-1111',
      이메일: 'hello@merged.example',
      링크드인: 'https://linkedin.example/merged',
      '딜 개수': 2,
      '성사된 딜 개수': 1,
      '실패된 딜 개수': 1,
      '리드 개수': 1,
      '전체 TODO': 1,
    });
    expect(org['최근 제출된 웹폼']).toMatchObject({ id: f.form });

    expect((await read('people', f.moved)).organizationId).toBe(f.kept);
    expect((await read('deal', f.deal)).organizationId).toBe(f.kept);
    expect((await read('lead', f.lead)).organizationId).toBe(f.kept);
    expect((await read('people', f.person))['전 직장']).toEqual({ id: f.kept, name: '(주)유지' });
    expect((await read('deal', f.deal)).협력사).toEqual([{ id: f.kept, name: '(주)유지' }]);

    const memos = await list(`/v2/memo?organizationId=${f.kept}`, 'memoList');
    expect(memos.map((m) => m.id)).toContain(f.note);
    const activities = await list(
      `/v2/organization/activity?organizationId=${f.kept}`,
      'organizationActivityList',
    );
    expect(activities.find((a) => a.id === f.activity)).toMatchObject({ organizationId: f.kept });
    const history = await list(
      `/v2/organization/history?organizationId=${f.kept}`,
      'organizationHistoryList',
    );
    expect(history.map((h) => [h.organizationId, h.fieldName, h.fieldValue])).toEqual([
      [f.kept, '전화', '02-222-2222'],
      [f.kept, '병합', f.merged],
      [f.kept, '이메일', 'hello@merged.example'],
      [f.kept, '링크드인', 'https://linkedin.example/merged'],
    ]);
    // The person's organization change names the kept organization now.
    const personHistory = await list(`/v2/people/history?peopleId=${f.moved}`, 'peopleHistoryList');
    expect(personHistory.at(-1)).toMatchObject({
      type: 'editOrganizationConnect',
      fieldValue: f.kept,
      organization: { id: f.kept, name: '(주)유지' },
    });

    expect(await subjectRows(f.merged)).toBe(0);
    for (const [table, column] of [
      ['people', 'organization_id'],
      ['deals', 'organization_id'],
      ['leads', 'organization_id'],
      ['history', 'organization_id'],
      ['web_form_submissions', 'organization_id'],
      ['organizations', 'id'],
    ] as const) {
      expect([table, column, await rowsWhere(table, column, f.merged)]).toEqual([table, column, 0]);
    }
    // The merged id is left only in the 병합 entry that records the merge.
    const naming = await store.db
      .selectFrom('history')
      .select(['subject_id', 'field_name'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('field_value', '=', f.merged)
      .execute();
    expect(naming).toEqual([{ subject_id: f.kept, field_name: '병합' }]);
  });

  it('fires 병합 and 삭제 with one eventId', async () => {
    const f = await ws.write(async (w) => ({
      kept: await makeOrganization(w),
      merged: await makeOrganization(w),
    }));
    const before = (await feed()).length;
    await merge('organization', f.kept, f.merged);
    expectMergeEvents((await feed()).slice(before), '회사', f.kept, f.merged);
  });
});

describe('merging deals', () => {
  let pipe: TestPipeline;
  beforeEach(async () => {
    pipe = await ws.write((w) => makePipeline(w, { name: '신규 영업' }));
  });

  it('moves quotes, notes, activities, todos, history, enrollments, submissions and Refs', async () => {
    const f = await ws.write(async (w) => {
      const related = await makeCustomField(w, 'people', '관련 딜', 'multiDeal');
      const lineDeal = await makeCustomField(w, 'quoteProduct', '원 딜', 'deal');
      const buyer = await makePerson(w, { name: '구매자' });
      const other = await makePerson(w, { name: '다른 구매자' });
      const org = await makeOrganization(w);
      const kept = await makeDeal(w, {
        name: '유지 딜',
        organizationId: org,
        pipelineId: pipe.id,
        stageId: pipe.stage['미팅'],
        outcome: 'In progress',
      });
      const merged = await makeDeal(w, {
        name: '병합 딜',
        peopleId: other,
        organizationId: org,
        outcome: 'Won',
        amount: 3_000_000,
        expectedCloseAt: '2024-12-31T00:00:00.000Z',
        participantIds: [buyer],
      });
      const product = await makeProduct(w, { name: '기본 상품' });
      const otherProduct = await makeProduct(w, { name: '추가 상품' });
      const keptQuote = await makeQuote(w, {
        dealId: kept,
        isMain: true,
        lines: [{ productId: product }],
      });
      const mergedQuote = await makeQuote(w, {
        dealId: merged,
        isMain: true,
        lines: [{ productId: otherProduct, custom: { [lineDeal]: merged } }],
      });
      await w.trx
        .updateTable('people')
        .set({ custom: JSON.stringify({ [related]: [merged, kept] }) })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', buyer)
        .execute();
      w.touched.mark('people', buyer);
      const note = await makeNote(w, { subjectType: 'deal', subjectId: merged });
      const todo = await makeTodo(w, { subjectType: 'deal', subjectId: merged });
      const activity = await makeActivity(w, { subjectId: merged, type: 'email' });
      await recordHistory(w, [
        {
          subjectType: 'deal',
          subjectId: merged,
          type: 'editField',
          peopleId: other,
          organizationId: org,
          fieldName: '금액',
          fieldValue: '3000000',
          ownerId: null,
        },
      ]);
      const sequence = await makeSequence(w);
      await makeEnrollment(w, {
        sequenceId: sequence,
        subjectType: 'deal',
        subjectId: merged,
        active: false,
      });
      const form = await makeWebForm(w);
      const submission = await makeSubmission(w, { webFormId: form, dealId: merged });
      const line = await w.trx
        .selectFrom('quote_products')
        .select('id')
        .where('workspace_id', '=', w.workspaceId)
        .where('quote_id', '=', mergedQuote)
        .executeTakeFirstOrThrow();
      return {
        ...{ buyer, other, org, kept, merged, product, keptQuote, mergedQuote, note, todo },
        ...{ activity, sequence, form, submission, line: line.id, lineDeal },
      };
    });

    await merge('deal', f.kept, f.merged);
    const missing = await get(app, ws.token, `/v2/deal/${f.merged}`);
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.json)).toEqual(['error']);

    const deal = await read('deal', f.kept);
    expect(deal).toMatchObject({
      이름: '유지 딜',
      // Empty on the kept deal: taken from the merged one.
      peopleId: f.other,
      금액: 3_000_000,
      '수주 예정일': '2024-12-31T00:00:00.000Z',
      참여자: [{ id: f.buyer, name: '구매자' }],
      // Its own: kept.
      organizationId: f.org,
      상태: 'In progress',
      마감일: null,
      파이프라인: { id: pipe.id, name: '신규 영업' },
      // Derived: its own main quote stays the one main quote.
      '메인 견적 상품 리스트': [{ id: f.product, name: '기본 상품' }],
      '전체 TODO': 1,
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': false,
    });
    expect(deal['최근 제출된 웹폼']).toMatchObject({ id: f.form });

    const quotes = await list(`/v2/deal/${f.kept}/quote`, 'quoteList');
    expect(quotes.map((q) => [q.id, q['메인 견적서 여부']])).toEqual([
      [f.keptQuote, true],
      [f.mergedQuote, false],
    ]);
    expect((await customOf('quote_products', f.line))[f.lineDeal]).toBe(f.kept);
    expect((await read('people', f.buyer))['관련 딜']).toEqual([{ id: f.kept, name: '유지 딜' }]);
    // The merged deal's person and organization counters follow.
    expect(await read('people', f.other)).toMatchObject({ '딜 개수': 1, '성사된 딜 개수': 0 });
    expect(await read('organization', f.org)).toMatchObject({
      '딜 개수': 1,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 0,
    });

    const memos = await list(`/v2/memo?dealId=${f.kept}`, 'memoList');
    expect(memos.map((m) => m.id)).toContain(f.note);
    const activities = await list(`/v2/deal/activity?dealId=${f.kept}`, 'dealActivityList');
    expect(activities.find((a) => a.id === f.activity)).toMatchObject({
      dealId: f.kept,
      dealStatus: 'Won',
    });
    const history = await list(`/v2/deal/history?dealId=${f.kept}`, 'dealHistoryList');
    expect(history.map((h) => [h.type, h.fieldName, h.fieldValue])).toEqual([
      ['editField', '금액', '3000000'],
      ['editField', '병합', f.merged],
      ['editField', '금액', '3000000'],
      ['editField', '수주 예정일', '2024-12-31T00:00:00.000Z'],
      ['editField', '참여자', JSON.stringify([f.buyer])],
      ['editPeopleConnection', 'peopleId', f.other],
    ]);
    // Each new row carries the kept deal's links after the merge.
    expect(history.at(-1)).toMatchObject({
      dealId: f.kept,
      people: { id: f.other, name: '다른 구매자' },
    });

    expect(await subjectRows(f.merged)).toBe(0);
    for (const [table, column] of [
      ['quotes', 'deal_id'],
      ['web_form_submissions', 'deal_id'],
      ['deals', 'id'],
    ] as const) {
      expect([table, await rowsWhere(table, column, f.merged)]).toEqual([table, 0]);
    }
    expect(await rowsWhere('web_form_submissions', 'deal_id', f.kept)).toBe(1);
  });

  it('takes the merged deal’s pipeline when the kept one has none', async () => {
    const f = await ws.write(async (w) => {
      const person = await makePerson(w);
      return {
        kept: await makeDeal(w, { peopleId: person }),
        merged: await makeDeal(w, {
          peopleId: person,
          pipelineId: pipe.id,
          stageId: pipe.stage['제안'],
        }),
      };
    });
    await merge('deal', f.kept, f.merged);
    expect(await read('deal', f.kept)).toMatchObject({
      파이프라인: { id: pipe.id, name: '신규 영업' },
      '파이프라인 단계': { id: pipe.stage['제안'], name: '제안' },
      '정체 일수': 0,
    });
  });

  it('fires 병합 and 삭제 with one eventId', async () => {
    const f = await ws.write(async (w) => {
      const person = await makePerson(w);
      return {
        person,
        kept: await makeDeal(w, { peopleId: person }),
        merged: await makeDeal(w, { peopleId: person, outcome: 'Won' }),
      };
    });
    const before = (await feed()).length;
    await merge('deal', f.kept, f.merged);
    const events = (await feed()).slice(before);
    expectMergeEvents(events, '딜', f.kept, f.merged);
    expect(events.filter((e) => e.objectId === f.person)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldName: '성사된 딜 개수', source: '시스템' }),
      ]),
    );
  });

  it('refuses to merge away a deal that an active sequence holds, writing nothing', async () => {
    const f = await ws.write(async (w) => {
      const person = await makePerson(w);
      const kept = await makeDeal(w, { peopleId: person });
      const merged = await makeDeal(w, { peopleId: person });
      const sequence = await makeSequence(w);
      await makeEnrollment(w, { sequenceId: sequence, subjectType: 'deal', subjectId: merged });
      return { kept, merged };
    });
    const before = await snapshot();
    const res = await post(app, ws.token, `/v2/deal/${f.kept}/merge`, { mergedId: f.merged });
    expectRefused(res, 400, ['mergedId', '시퀀스']);
    expect(await snapshot()).toEqual(before);
    // The other way round is allowed: the held deal stays, and keeps its enrollment.
    await merge('deal', f.merged, f.kept);
    expect((await read('deal', f.merged))['현재 진행중인 시퀀스 여부']).toBe(true);
  });
});

describe('merging leads', () => {
  it('moves quotes, activities and the rest, fills empty fields, and fires the events', async () => {
    const f = await ws.write(async (w) => {
      const pipe = await makePipeline(w, { kind: 'lead', name: '리드 파이프라인' });
      const person = await makePerson(w, { name: '리드 고객' });
      const org = await makeOrganization(w, { name: '(주)리드' });
      const kept = await makeLead(w, { name: '유지 리드', peopleId: person });
      const merged = await makeLead(w, {
        name: '병합 리드',
        organizationId: org,
        pipelineId: pipe.id,
        stageId: pipe.stageIds[1],
        amount: 500_000,
        label: 'MQL',
      });
      const product = await makeProduct(w, { name: '리드 상품' });
      const quote = await makeQuote(w, {
        leadId: merged,
        isMain: true,
        lines: [{ productId: product }],
      });
      const activity = await makeActivity(w, {
        subjectType: 'lead',
        subjectId: merged,
        type: 'email',
      });
      const note = await makeNote(w, { subjectType: 'lead', subjectId: merged });
      const todo = await makeTodo(w, { subjectType: 'lead', subjectId: merged });
      const form = await makeWebForm(w);
      await makeSubmission(w, { webFormId: form, leadId: merged });
      return { pipe, person, org, kept, merged, product, quote, activity, note, todo, form };
    });
    const before = (await feed()).length;
    const written = await merge('lead', f.kept, f.merged);
    expect(written.name).toBe('유지 리드');
    expectMergeEvents((await feed()).slice(before), '리드', f.kept, f.merged);

    expect((await get(app, ws.token, `/v2/lead/${f.merged}`)).status).toBe(404);
    expect(await read('lead', f.kept)).toMatchObject({
      이름: '유지 리드',
      peopleId: f.person,
      organizationId: f.org,
      금액: 500_000,
      // Its own 상태 (New when unset) is never empty: it stays.
      상태: 'New',
      파이프라인: { id: f.pipe.id, name: '리드 파이프라인' },
      '파이프라인 단계': { id: f.pipe.stageIds[1] },
      '메인 견적 상품 리스트': [{ id: f.product, name: '리드 상품' }],
      '전체 TODO': 1,
    });
    expect((await read('organization', f.org))['리드 개수']).toBe(1);
    expect((await read('people', f.person))['리드 개수']).toBe(1);
    const quotes = await list(`/v2/lead/${f.kept}/quote`, 'quoteList');
    expect(quotes.map((q) => q.id)).toEqual([f.quote]);
    const activities = await list(`/v2/lead/activity?leadId=${f.kept}`, 'leadActivityList');
    expect(activities.find((a) => a.id === f.activity)).toMatchObject({ leadId: f.kept });
    const dealActivities = await list(`/v2/deal/activity?dealId=${f.kept}`, 'dealActivityList');
    expect(dealActivities.find((a) => a.id === f.activity)).toMatchObject({ dealId: f.kept });
    const memos = await list(`/v2/memo?leadId=${f.kept}`, 'memoList');
    expect(memos.map((m) => m.id)).toContain(f.note);
    const history = await list(`/v2/lead/history?leadId=${f.kept}`, 'leadHistoryList');
    expect(history.map((h) => [h.type, h.fieldName])).toEqual([
      ['editField', '병합'],
      ['editField', '금액'],
      ['editOrganizationConnect', 'organizationId'],
      ['editField', '파이프라인'],
      ['editField', '파이프라인 단계'],
    ]);
    expect(history[0]).toMatchObject({
      leadId: f.kept,
      people: { id: f.person, name: '리드 고객' },
      organization: { id: f.org, name: '(주)리드' },
    });
    expect(await subjectRows(f.merged)).toBe(0);
    expect(await rowsWhere('quotes', 'lead_id', f.merged)).toBe(0);
    expect(await rowsWhere('web_form_submissions', 'lead_id', f.kept)).toBe(1);
  });
});

/** Expects an error answer in shape A whose message names each of `names`. */
function expectRefused(res: TestResponse, status: number, names: string[]): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
  expect(res.json.success).toBe(false);
  for (const name of names) expect(res.json.message).toContain(name);
  expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+|SQLITE_|select .* from/i);
}

describe('refused merges write nothing', () => {
  const KINDS = ['people', 'organization', 'deal', 'lead'] as const;
  /** Two records of each type in the test's workspace, and one of each in another. */
  async function records() {
    const make = (w: Parameters<Parameters<TestWorkspace['write']>[0]>[0]) =>
      (async () => {
        const person = await makePerson(w);
        const person2 = await makePerson(w);
        const org = await makeOrganization(w);
        const org2 = await makeOrganization(w);
        return {
          people: [person, person2],
          organization: [org, org2],
          deal: [await makeDeal(w, { peopleId: person }), await makeDeal(w, { peopleId: person })],
          lead: [await makeLead(w, { peopleId: person }), await makeLead(w, { peopleId: person })],
        } as Record<Kind, [string, string]>;
      })();
    const other = await testWorkspace(store, '다른 워크스페이스');
    return { mine: await ws.write(make), theirs: await other.write(make) };
  }

  it('answers 400 or 404 in shape A, naming the problem', async () => {
    const { mine, theirs } = await records();
    const before = await snapshot();
    for (const kind of KINDS) {
      const [kept, merged] = mine[kind];
      const otherKind = kind === 'people' ? 'organization' : 'people';
      const url = `/v2/${kind}/${kept}/merge`;
      const cases: [string, string, unknown, number, string[]][] = [
        ['same record', url, { mergedId: kept }, 400, ['mergedId', '같습니다']],
        ['another type’s id', url, { mergedId: mine[otherKind][0] }, 400, ['mergedId', '없는']],
        ['another workspace’s id', url, { mergedId: theirs[kind][1] }, 400, ['mergedId', '없는']],
        ['an unknown id', url, { mergedId: 'no-such-record' }, 400, ['mergedId', '없는']],
        ['no mergedId', url, {}, 400, ['mergedId', '필요']],
        ['mergedId null', url, { mergedId: null }, 400, ['mergedId']],
        ['mergedId a number', url, { mergedId: 42 }, 400, ['mergedId']],
        ['mergedId a list', url, { mergedId: [merged] }, 400, ['mergedId']],
        ['mergedId empty', url, { mergedId: '' }, 400, ['mergedId']],
        ['mergedId malformed', url, { mergedId: 'a b/../c' }, 400, ['mergedId', '형식']],
        ['mergedId a path word', url, { mergedId: 'delete' }, 400, ['mergedId', '형식']],
        ['mergedId too long', url, { mergedId: 'x'.repeat(65) }, 400, ['mergedId']],
        ['body a list', url, [merged], 400, ['JSON 객체']],
        ['unknown path record', `/v2/${kind}/no-such-record/merge`, { mergedId: merged }, 404, []],
        [
          'path record of another workspace',
          `/v2/${kind}/${theirs[kind][0]}/merge`,
          { mergedId: merged },
          404,
          [],
        ],
        ['malformed path id', `/v2/${kind}/a%20b/merge`, { mergedId: merged }, 400, ['형식']],
      ];
      for (const [name, target, body, status, names] of cases) {
        const res = await post(app, ws.token, target, body);
        expect([kind, name, res.status]).toEqual([kind, name, status]);
        expectRefused(res, status, names);
      }
      const noBody = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${ws.token}` },
      });
      expect([kind, 'no body', noBody.statusCode]).toEqual([kind, 'no body', 400]);
      const noToken = await post(app, null, url, { mergedId: merged });
      expect(noToken.status).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
    // Both records of each type are still there.
    for (const kind of KINDS) for (const id of mine[kind]) await read(kind, id);
  });

  it('a record merged away cannot be merged again', async () => {
    const { mine } = await records();
    const [kept, merged] = mine.people;
    await merge('people', kept, merged);
    const before = await snapshot();
    const res = await post(app, ws.token, `/v2/people/${kept}/merge`, { mergedId: merged });
    expectRefused(res, 400, ['mergedId']);
    const reverse = await post(app, ws.token, `/v2/people/${merged}/merge`, { mergedId: kept });
    expectRefused(reverse, 404, []);
    expect(await snapshot()).toEqual(before);
  });
});

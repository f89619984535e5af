/**
 * The write endpoints (docs/decisions.md, Reads and writes): each operation's happy path read back
 * through the read endpoints, derived fields included; deletes; many writers at once; and
 * cross-workspace writes.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { differenceLine, indexDifferenceLine } from '../src/cli/verify-run.ts';
import { openStore } from '../src/store/database.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import {
  makeCustomField,
  makeEnrollment,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
  makeSequence,
  makeSubmission,
  makeUser,
  makeWebForm,
  type TestPipeline,
} from './factories.ts';
import {
  appForFile,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testApp,
  testWorkspace,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let pipeline: TestPipeline;
let leadPipeline: TestPipeline;
appForFile((s, a) => {
  store = s;
  app = a;
});
beforeEach(async () => {
  ws = await testWorkspace(store);
  ({ pipeline, leadPipeline } = await ws.write(async (w) => ({
    pipeline: await makePipeline(w),
    leadPipeline: await makePipeline(w, { kind: 'lead', stages: ['신규', '검토'] }),
  })));
});
// Whatever a test wrote, every stored record JSON is what its base tables render, and the
// search index holds what each JSON holds.
afterEach(async () => {
  const differences: string[] = [];
  await verifyWorkspace(store, ws.workspaceId, {
    onDifference: (d) => differences.push(differenceLine(d)),
    onIndexDifference: (d) => differences.push(indexDifferenceLine(d)),
  });
  expect(differences).toEqual([]);
});

/** POSTs as the workspace's token and expects `status`; returns `data`. */
async function write(url: string, body: unknown, status = 200): Promise<Rec> {
  const res = await post(app, ws.token, url, body);
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json.data;
}

/** The records of a list (first 100). */
async function list(path: string, key: string): Promise<Rec[]> {
  const res = await get(app, ws.token, `${path}${path.includes('?') ? '&' : '?'}limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.data[key];
}

async function one(path: string, key: string, id: string): Promise<Rec> {
  const found = (await list(path, key)).find((r) => r.id === id);
  expect(found, `${id} in ${path}`).toBeDefined();
  return found!;
}

const person = (id: string) => one('/v2/people', 'peopleList', id);
const organization = (id: string) => one('/v2/organization', 'organizationList', id);
const lead = (id: string) => one('/v2/lead', 'leadList', id);

async function deal(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/deal/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.deal[0];
}

async function activitiesOf(subjectId: string) {
  return store.db
    .selectFrom('activities')
    .selectAll()
    .where('workspace_id', '=', ws.workspaceId)
    .where('subject_id', '=', subjectId)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

async function historyOf(subjectId: string) {
  const rows = await store.db
    .selectFrom('history')
    .select(['body'])
    .where('workspace_id', '=', ws.workspaceId)
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(String(r.body)) as Rec);
}

const adminRef = () => ({ id: ws.userId, name: '김관리' });
const teamRefs = () => [{ id: ws.teamId, name: '영업1팀' }];

describe('people', () => {
  it('creates a person with fixed and custom fields, a note and a create activity', async () => {
    const { org, owner, fields } = await ws.write(async (w) => ({
      org: await makeOrganization(w, { name: '가나 주식회사' }),
      owner: await makeUser(w, '이영업'),
      fields: {
        grade: await makeCustomField(w, 'people', '등급', 'singleSelect'),
        score: await makeCustomField(w, 'people', '점수', 'number'),
        vip: await makeCustomField(w, 'people', 'VIP', 'boolean'),
        met: await makeCustomField(w, 'people', '첫 만남', 'date'),
        tags: await makeCustomField(w, 'people', '관심사', 'multiSelect'),
        partner: await makeCustomField(w, 'people', '파트너사', 'organization'),
      },
    }));
    void fields;
    const data = await write(
      '/v2/people',
      {
        name: '홍길동',
        organizationId: org,
        memo: '첫 통화: 관심 많음',
        fieldList: [
          { name: '이메일', stringValue: 'hong@example.com' },
          { name: '전화', stringValue: '010-1234-5678' },
          { name: '포지션', stringValue: '팀장' },
          { name: '프로필 사진', stringValue: 'https://example.com/a.png' },
          { name: '링크드인', stringValue: 'https://linkedin.com/in/hong' },
          { name: '수신 거부 여부', booleanValue: true },
          { name: '수신 거부 사유', stringValue: '요청' },
          { name: '담당자', userValueId: owner },
          { name: '점수', numberValue: 87.5 },
          { name: 'VIP', booleanValue: false },
          { name: '첫 만남', dateValue: '2024-04-08T14:00:00+09:00' },
          { name: '파트너사', organizationValueId: org },
        ],
      },
      201,
    );
    const created = data.people as Rec;
    expect(Object.keys(created)).toEqual(['id', 'name', 'createdAt']);
    expect(created.name).toBe('홍길동');
    const r = await person(created.id as string);
    expect(r).toMatchObject({
      organizationId: org,
      이름: '홍길동',
      이메일: 'hong@example.com',
      전화: '010-1234-5678',
      포지션: '팀장',
      '프로필 사진': 'https://example.com/a.png',
      링크드인: 'https://linkedin.com/in/hong',
      '수신 거부 여부': true,
      '수신 거부 사유': '요청',
      담당자: { id: owner, name: '이영업' },
      팀: [],
      '생성 날짜': created.createdAt,
      '수정 날짜': created.createdAt,
      '최근 작성된 노트': '첫 통화: 관심 많음',
      '최근 노트 작성일': created.createdAt,
      '최근 노트 작성자': adminRef(),
      등급: null,
      점수: 87.5,
      VIP: false,
      '첫 만남': '2024-04-08T05:00:00.000Z',
      관심사: null,
      파트너사: { id: org, name: '가나 주식회사' },
    });
    const activities = await activitiesOf(created.id as string);
    expect(activities.map((a) => [a.subject_type, a.type])).toEqual([
      ['people', 'create'],
      ['people', 'memoCreate'],
    ]);
    expect(activities[1]!.memo_id).not.toBeNull();
    // Creating writes no history: its create activity says it (docs/decisions.md, Activities and
    // history).
    expect(await historyOf(created.id as string)).toEqual([]);
  });

  it('defaults 담당자 to the token user and 팀 to that user’s teams', async () => {
    const data = await write('/v2/people', { name: '기본값' }, 201);
    const r = await person((data.people as Rec).id as string);
    expect(r.담당자).toEqual(adminRef());
    expect(r.팀).toEqual(teamRefs());
    expect(r.이메일).toBeNull();
    expect(r['최근 작성된 노트']).toBeNull();
  });

  it('updates named fields only, writes one history row per change, and moves 수정 날짜', async () => {
    const { id, org } = await ws.write(async (w) => ({
      id: await makePerson(w, { name: '김고객', email: 'kim@example.com', phone: '010' }),
      org: await makeOrganization(w, { name: '새 회사' }),
    }));
    await ws.write((w) => makeCustomField(w, 'people', '메모 필드'));
    const before = await person(id);
    await new Promise((r) => setTimeout(r, 5));
    const data = await write(`/v2/people/${id}`, {
      name: '김고객님',
      organizationId: org,
      fieldList: [
        { name: '전화', stringValue: null },
        { name: '이메일', stringValue: 'kim@example.com' },
        { name: '메모 필드', stringValue: '값' },
      ],
    });
    const updated = data.people as Rec;
    expect(Object.keys(updated)).toEqual(['id', 'name', 'updatedAt']);
    const r = await person(id);
    expect(r).toMatchObject({
      이름: '김고객님',
      organizationId: org,
      전화: null,
      이메일: 'kim@example.com',
      '메모 필드': '값',
      '생성 날짜': before['생성 날짜'],
      '수정 날짜': updated.updatedAt,
    });
    expect(r['수정 날짜']).not.toBe(before['수정 날짜']);
    const history = (await list('/v2/people/history', 'peopleHistoryList')).filter(
      (h) => h.peopleId === id,
    );
    expect(history.map((h) => [h.type, h.fieldName, h.fieldValue])).toEqual([
      ['editField', '이름', '김고객님'],
      ['editField', '전화', null],
      ['editField', '메모 필드', '값'],
      ['editOrganizationConnect', 'organizationId', org],
    ]);
    expect(history.every((h) => h.ownerId === ws.userId)).toBe(true);
    expect(history[3]!.organization).toEqual({ id: org, name: '새 회사' });
  });

  it('an update that changes nothing writes no history and keeps 수정 날짜', async () => {
    const id = await ws.write((w) => makePerson(w, { name: '그대로', email: 'same@example.com' }));
    const before = await person(id);
    await write(`/v2/people/${id}`, {
      name: '그대로',
      fieldList: [{ name: '이메일', stringValue: 'same@example.com' }],
    });
    expect((await person(id))['수정 날짜']).toBe(before['수정 날짜']);
    expect(await historyOf(id)).toEqual([]);
  });

  it('names ignored body keys and query parameters', async () => {
    const res = await post(app, ws.token, '/v2/people?dryRun=1', {
      name: '무시',
      price: 1,
      비고: 2,
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-ignored-parameters']).toBe('dryRun,price,%EB%B9%84%EA%B3%A0');
  });

  it('names at most 50 ignored keys, then counts the rest: 50,000 of them fit a header', async () => {
    // A body of 50,000 unknown keys (about 540 KB) was answered with a 339 KB header that
    // curl, fetch and Node's HTTP client refuse: the create landed, the client saw a failure.
    const body: Record<string, unknown> = { name: '많은 키' };
    for (let i = 0; i < 50_000; i++) body[`k${i}`] = 1;
    const res = await post(app, ws.token, '/v2/people?dryRun=1', body);
    expect(res.status).toBe(201);
    const header = String(res.headers['x-ignored-parameters']);
    const names = Array.from({ length: 49 }, (_, i) => `k${i}`);
    expect(header).toBe(['dryRun', ...names, '(+49951 more)'].join(','));
    expect(header.length).toBeLessThan(4096);
  });

  it('names a key of 10,000 characters by count only, the header staying short', async () => {
    const res = await post(app, ws.token, '/v2/people', {
      name: '긴 키',
      ['가'.repeat(10_000)]: 1,
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-ignored-parameters']).toBe('(+1 more)');
  });
});

describe('organizations', () => {
  it('creates and updates an organization, with history rows for its changes', async () => {
    const created = (
      await write(
        '/v2/organization',
        {
          name: '다라 상사',
          memo: '본사 방문',
          fieldList: [
            { name: '이메일', stringValue: 'info@dara.co.kr' },
            { name: '전화', stringValue: '02-123-4567' },
          ],
        },
        201,
      )
    ).organization as Rec;
    const id = created.id as string;
    expect(await organization(id)).toMatchObject({
      이름: '다라 상사',
      이메일: 'info@dara.co.kr',
      전화: '02-123-4567',
      담당자: adminRef(),
      팀: teamRefs(),
      '최근 작성된 노트': '본사 방문',
      '생성 날짜': created.createdAt,
    });
    await write(`/v2/organization/${id}`, {
      name: '다라 홀딩스',
      fieldList: [{ name: '링크드인', stringValue: 'https://linkedin.com/company/dara' }],
    });
    expect(await organization(id)).toMatchObject({
      이름: '다라 홀딩스',
      링크드인: 'https://linkedin.com/company/dara',
    });
    const history = await historyOf(id);
    expect(history.map((h) => Object.keys(h))).toEqual([
      ['id', 'organizationId', 'type', 'fieldName', 'fieldValue', 'ownerId', 'createdAt'],
      ['id', 'organizationId', 'type', 'fieldName', 'fieldValue', 'ownerId', 'createdAt'],
    ]);
    expect(history.map((h) => [h.fieldName, h.fieldValue])).toEqual([
      ['이름', '다라 홀딩스'],
      ['링크드인', 'https://linkedin.com/company/dara'],
    ]);
    expect((await activitiesOf(id)).map((a) => a.type)).toEqual(['create', 'memoCreate']);
  });

  it('keeps names unique: a rename onto another organization’s name is refused with it', async () => {
    const [a, b] = await ws.write(async (w) => [
      await makeOrganization(w, { name: '하나' }),
      await makeOrganization(w, { name: '둘' }),
    ]);
    const res = await post(app, ws.token, `/v2/organization/${b}`, { name: '하나' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, data: { id: a, name: '하나' } });
    // Renaming to its own name is no conflict.
    expect((await post(app, ws.token, `/v2/organization/${a}`, { name: '하나' })).status).toBe(200);
  });
});

describe('deals', () => {
  async function newDeal(body: Rec = {}): Promise<string> {
    const data = await write(
      '/v2/deal',
      {
        name: '도입 검토',
        pipelineId: pipeline.id,
        pipelineStageId: pipeline.stage.미팅,
        status: 'In progress',
        ...body,
      },
      201,
    );
    return (data.deal as Rec).id as string;
  }

  it('creates a deal and refreshes its person’s and organization’s counters', async () => {
    const { p, o, follower } = await ws.write(async (w) => ({
      p: await makePerson(w),
      o: await makeOrganization(w),
      follower: await makeUser(w, '박팔로'),
    }));
    await ws.write((w) => makeCustomField(w, 'deal', '경쟁사', 'string'));
    const id = await newDeal({
      peopleId: p,
      organizationId: o,
      price: 1_500_000,
      memo: '예산 확보',
      상태: 'SQL',
      fieldList: [
        { name: '수주 예정일', dateValue: '2024-06-30' },
        { name: '팔로워', userValueIdList: [follower] },
        { name: '참여자', peopleValueIdList: [p] },
        { name: '경쟁사', stringValue: '타사' },
      ],
    });
    const d = await deal(id);
    expect(d).toMatchObject({
      peopleId: p,
      organizationId: o,
      이름: '도입 검토',
      파이프라인: { id: pipeline.id, name: pipeline.name },
      '파이프라인 단계': { id: pipeline.stage.미팅, name: '미팅' },
      '메인 견적 상품 리스트': null,
      금액: 1_500_000,
      상태: 'SQL',
      마감일: null,
      '수주 예정일': '2024-06-30T00:00:00.000Z',
      소스: '직접 생성',
      '최근 작성된 노트': '예산 확보',
      담당자: adminRef(),
      팀: teamRefs(),
      '상담 일수': 0,
      '정체 일수': 0,
      팔로워: [{ id: follower, name: '박팔로' }],
      참여자: [{ id: p, name: expect.any(String) }],
      경쟁사: '타사',
    });
    for (const r of [await person(p), await organization(o)]) {
      expect(r).toMatchObject({ '딜 개수': 1, '진행중 딜 개수': 1, '성사된 딜 개수': 0 });
    }
    const activities = (await list('/v2/deal/activity', 'dealActivityList')).filter(
      (a) => a.dealId === id,
    );
    expect(activities.map((a) => [a.type, a.dealStatus])).toEqual([
      ['create', 'In progress'],
      ['memoCreate', 'In progress'],
    ]);
  });

  it("a deal's create activity has the outcome it was created with", async () => {
    const p = await ws.write((w) => makePerson(w));
    const won = await newDeal({ peopleId: p, status: 'Won' });
    const lost = await newDeal({ peopleId: p, status: 'Lost' });
    const activities = await list('/v2/deal/activity', 'dealActivityList');
    const of = (id: string) =>
      activities.filter((a) => a.dealId === id).map((a) => [a.type, a.dealStatus]);
    expect(of(won)).toEqual([['create', 'Won']]);
    expect(of(lost)).toEqual([['create', 'Lost']]);
  });

  it('a deal with only a person does not take the person’s organization', async () => {
    const p = await ws.write(async (w) =>
      makePerson(w, { organizationId: await makeOrganization(w) }),
    );
    const id = await newDeal({ peopleId: p });
    expect((await deal(id)).organizationId).toBeNull();
  });

  it('status, stage and label changes: 마감일, counters, 정체 일수 and history follow', async () => {
    const p = await ws.write((w) => makePerson(w));
    const id = await newDeal({ peopleId: p, status: 'In progress' });
    // Put the deal's stage entry in the past, to see a stage change restart it.
    await store.db
      .updateTable('deals')
      .set({ stage_entered_at: '2020-01-01T00:00:00.000Z', created_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    expect((await deal(id))['정체 일수']).toBeGreaterThan(1000);

    const won = await write(`/v2/deal/${id}`, { status: 'Won' });
    let d = await deal(id);
    expect(d.상태).toBe('Won');
    expect(d.마감일).toBe((won.deal as Rec).updatedAt);
    expect(await person(p)).toMatchObject({ '진행중 딜 개수': 0, '성사된 딜 개수': 1 });

    await write(`/v2/deal/${id}`, { status: 'Lost', 상태: 'Convert' });
    d = await deal(id);
    expect(d.상태).toBe('Convert');
    expect(d.마감일).toBe((won.deal as Rec).updatedAt);
    expect(await person(p)).toMatchObject({ '성사된 딜 개수': 0, '실패된 딜 개수': 1 });

    await write(`/v2/deal/${id}`, { status: 'In progress', pipelineStageId: pipeline.stage.제안 });
    d = await deal(id);
    expect(d.마감일).toBeNull();
    expect(d['파이프라인 단계']).toEqual({ id: pipeline.stage.제안, name: '제안' });
    expect(d['정체 일수']).toBe(0);
    expect(d['상담 일수']).toBeGreaterThan(1000);
    expect(await person(p)).toMatchObject({ '진행중 딜 개수': 1, '실패된 딜 개수': 0 });

    const history = await historyOf(id);
    expect(history.map((h) => [h.fieldName, h.fieldValue])).toEqual([
      ['status', 'Won'],
      ['상태', 'Convert'],
      ['status', 'Lost'],
      ['파이프라인 단계', pipeline.stage.제안],
      ['status', 'In progress'],
    ]);
    expect(Object.keys(history[0]!)).toEqual([
      'id',
      'dealId',
      'type',
      'people',
      'organization',
      'fieldName',
      'fieldValue',
      'ownerId',
      'createdAt',
    ]);
    expect(history[0]!.people).toEqual({ id: p, name: (await person(p)).이름 });
  });

  it('moves a deal to another pipeline and relinks it, counting on both sides', async () => {
    const other = await ws.write((w) => makePipeline(w, { stages: ['가', '나'] }));
    const [p1, p2] = await ws.write(async (w) => [await makePerson(w), await makePerson(w)]);
    const id = await newDeal({ peopleId: p1 });
    await write(`/v2/deal/${id}`, {
      pipelineId: other.id,
      pipelineStageId: other.stage.나,
      peopleId: p2,
    });
    const d = await deal(id);
    expect(d.파이프라인).toEqual({ id: other.id, name: other.name });
    expect(d.peopleId).toBe(p2);
    expect((await person(p1))['딜 개수']).toBe(0);
    expect((await person(p2))['딜 개수']).toBe(1);
    const links = (await historyOf(id)).filter((h) => h.type !== 'editField');
    expect(links.map((h) => [h.type, h.fieldName, h.fieldValue])).toEqual([
      ['editPeopleConnection', 'peopleId', p2],
    ]);
    const filtered = await list(
      `/v2/deal?pipelineName=${encodeURIComponent(other.name)}`,
      'dealList',
    );
    expect(filtered.map((r) => r.id)).toEqual([id]);
  });

  it('deletes a deal with its quotes, activities, notes and history; counters and lists follow', async () => {
    const { p, o, product, form } = await ws.write(async (w) => ({
      p: await makePerson(w),
      o: await makeOrganization(w),
      product: await makeProduct(w),
      form: await makeWebForm(w),
    }));
    const id = await newDeal({ peopleId: p, organizationId: o, memo: '메모', status: 'Won' });
    await write(`/v2/deal/${id}`, { name: '이름 변경' });
    const quote = await write(
      '/v2/quote',
      { name: '견적', dealId: id, isMainQuote: true, quoteProductList: [{ productId: product }] },
      201,
    );
    const quoteId = (quote.quote as Rec).id as string;
    await write(`/v2/quote/${quoteId}/memo`, { text: '견적 메모' }, 201);
    const submission = await ws.write((w) =>
      makeSubmission(w, { webFormId: form, dealId: id, peopleId: p }),
    );
    expect((await person(p))['성사된 딜 개수']).toBe(1);

    const res = await post(app, ws.token, `/v2/deal/${id}/delete`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true });

    expect((await get(app, ws.token, `/v2/deal/${id}`)).status).toBe(404);
    expect((await list('/v2/deal', 'dealList')).map((r) => r.id)).not.toContain(id);
    expect(
      (await list('/v2/deal/activity', 'dealActivityList')).map((a) => a.dealId),
    ).not.toContain(id);
    for (const r of [await person(p), await organization(o)]) {
      expect(r).toMatchObject({ '딜 개수': 0, '성사된 딜 개수': 0 });
    }
    for (const table of ['quotes', 'notes', 'history', 'activities'] as const) {
      const column = table === 'quotes' ? 'deal_id' : 'subject_id';
      const rows = await store.db
        .selectFrom(table)
        .select('id')
        .where('workspace_id', '=', ws.workspaceId)
        .where(column, '=', id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    // Its quote's notes went with the quote: none is left naming a quote no read shows.
    const quoteNotes = await store.db
      .selectFrom('notes')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .where('subject_type', '=', 'quote')
      .where('subject_id', '=', quoteId)
      .execute();
    expect(quoteNotes).toEqual([]);
    const kept = await store.db
      .selectFrom('web_form_submissions')
      .select(['deal_id', 'people_id'])
      .where('id', '=', submission)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ deal_id: null, people_id: p });
    expect((await post(app, ws.token, `/v2/deal/${id}/delete`)).status).toBe(404);
  });

  it('refuses to delete a deal an active sequence enrollment holds', async () => {
    const p = await ws.write((w) => makePerson(w));
    const id = await newDeal({ peopleId: p });
    await ws.write(async (w) =>
      makeEnrollment(w, { sequenceId: await makeSequence(w), subjectType: 'deal', subjectId: id }),
    );
    const res = await post(app, ws.token, `/v2/deal/${id}/delete`);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('시퀀스');
    expect((await deal(id)).id).toBe(id);
  });

  it('answers writes to the single-deal path in shape A', async () => {
    const res = await post(app, ws.token, '/v2/deal/no-such-deal', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      success: false,
      message: expect.stringContaining('no-such-deal'),
      reason: expect.stringContaining('no-such-deal'),
    });
  });
});

describe('leads', () => {
  it('creates, updates and deletes a lead; 리드 개수 follows', async () => {
    const { p, o } = await ws.write(async (w) => ({
      p: await makePerson(w),
      o: await makeOrganization(w),
    }));
    const created = (
      await write('/v2/lead', { name: '문의', peopleId: p, organizationId: o, price: 5 }, 201)
    ).lead as Rec;
    const id = created.id as string;
    expect(await lead(id)).toMatchObject({
      이름: '문의',
      상태: 'New',
      파이프라인: null,
      '파이프라인 단계': null,
      금액: null,
      소스: '직접 생성',
      담당자: adminRef(),
    });
    expect((await person(p))['리드 개수']).toBe(1);
    expect((await organization(o))['리드 개수']).toBe(1);

    await write(`/v2/lead/${id}`, {
      pipelineId: leadPipeline.id,
      pipelineStageId: leadPipeline.stage.검토,
      organizationId: null,
      fieldList: [
        { name: '상태', stringValue: 'MQL' },
        { name: '금액', numberValue: 300_000 },
      ],
    });
    expect(await lead(id)).toMatchObject({
      상태: 'MQL',
      금액: 300_000,
      organizationId: null,
      '파이프라인 단계': { id: leadPipeline.stage.검토, name: '검토' },
    });
    expect((await organization(o))['리드 개수']).toBe(0);
    const history = await historyOf(id);
    expect(history[0]).toHaveProperty('leadId', id);
    expect(history.map((h) => h.fieldName)).toEqual([
      'organizationId',
      '파이프라인',
      '파이프라인 단계',
      '상태',
      '금액',
    ]);

    expect((await post(app, ws.token, `/v2/lead/${id}/delete`)).status).toBe(200);
    expect((await list('/v2/lead', 'leadList')).map((r) => r.id)).not.toContain(id);
    expect((await person(p))['리드 개수']).toBe(0);
    expect((await get(app, ws.token, `/v2/lead/${id}/quote`)).status).toBe(404);
  });

  it('refuses a deal pipeline on a lead, and a pipeline without its stage', async () => {
    const p = await ws.write((w) => makePerson(w));
    const wrongKind = await post(app, ws.token, '/v2/lead', {
      name: 'x',
      peopleId: p,
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.stage.미팅,
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.message).toContain('pipelineId');
    const half = await post(app, ws.token, '/v2/lead', {
      name: 'x',
      peopleId: p,
      pipelineId: leadPipeline.id,
    });
    expect(half.status).toBe(400);
  });
});

describe('products and quotes', () => {
  it('creates a product', async () => {
    const created = (
      await write(
        '/v2/product',
        {
          name: '클라우드 플랜',
          price: 99_000,
          fieldList: [
            { name: '유형', stringValue: '구독 (월간)' },
            { name: '코드', stringValue: 'CLD-1' },
            { name: '단위', stringValue: '계정' },
          ],
        },
        201,
      )
    ).product as Rec;
    expect(await one('/v2/product', 'productList', created.id as string)).toMatchObject({
      이름: '클라우드 플랜',
      코드: 'CLD-1',
      유형: '구독 (월간)',
      금액: 99_000,
      단위: '계정',
      담당자: adminRef(),
      '생성 날짜': created.createdAt,
    });
  });

  it('creates quotes; a new main quote takes over the lead’s 메인 견적 상품 리스트', async () => {
    const { p, basic, monthly } = await ws.write(async (w) => ({
      p: await makePerson(w),
      basic: await makeProduct(w, { name: '설치', price: 500_000 }),
      monthly: await makeProduct(w, { name: '구독', price: 30_000, kind: '구독 (월간)' }),
    }));
    const leadId = ((await write('/v2/lead', { name: '견적 리드', peopleId: p }, 201)).lead as Rec)
      .id as string;
    const first = (
      await write(
        '/v2/quote',
        {
          name: '1차 견적',
          leadId,
          isMainQuote: true,
          quoteProductList: [
            { productId: basic, amount: 2 },
            {
              name: '월 구독',
              productId: monthly,
              price: 25_000,
              amount: 3,
              paymentCount: 12,
              paymentStartAt: '2024-01-31',
            },
          ],
        },
        201,
      )
    ).quote as Rec;
    let quotes = (await get(app, ws.token, `/v2/lead/${leadId}/quote`)).json.data.quoteList;
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({
      id: first.id,
      '메인 견적서 여부': true,
      이름: '1차 견적',
      금액: 500_000 * 2 + 25_000 * 3 * 12,
    });
    expect(quotes[0]['견적 구성 상품'][1]).toMatchObject({
      productId: monthly,
      금액: 25_000,
      수량: 3,
      '결제 횟수': 12,
      '시작 결제일': '2024-01-31T00:00:00.000Z',
      '마지막 결제일': '2024-12-31T00:00:00.000Z',
      전체금액: 900_000,
    });
    expect((await lead(leadId))['메인 견적 상품 리스트']).toEqual([
      { id: basic, name: '설치' },
      { id: monthly, name: '구독' },
    ]);

    await write(
      '/v2/quote',
      {
        name: '2차 견적',
        leadId,
        isMainQuote: true,
        quoteProductList: [{ productId: monthly, paymentCount: 1, paymentStartAt: '2024-02-01' }],
      },
      201,
    );
    quotes = (await get(app, ws.token, `/v2/lead/${leadId}/quote`)).json.data.quoteList;
    expect(quotes.map((q: Rec) => q['메인 견적서 여부'])).toEqual([false, true]);
    expect((await lead(leadId))['메인 견적 상품 리스트']).toEqual([{ id: monthly, name: '구독' }]);
  });
});

describe('renames', () => {
  it('reach the custom Ref fields that show the renamed record', async () => {
    const { org, p } = await ws.write(async (w) => {
      await makeCustomField(w, 'people', '거래처', 'organization');
      await makeCustomField(w, 'deal', '관련 고객', 'multiPeople');
      await makeCustomField(w, 'quoteProduct', '소개 회사', 'organization');
      return { org: await makeOrganization(w, { name: '옛 이름' }), p: await makePerson(w) };
    });
    const product = await ws.write((w) => makeProduct(w));
    const withRef = (
      (
        await write(
          '/v2/people',
          { name: '참조', fieldList: [{ name: '거래처', organizationValueId: org }] },
          201,
        )
      ).people as Rec
    ).id as string;
    const dealId = (
      (
        await write(
          '/v2/deal',
          {
            name: '참조 딜',
            pipelineId: pipeline.id,
            pipelineStageId: pipeline.stage.미팅,
            status: 'In progress',
            organizationId: org,
            fieldList: [{ name: '관련 고객', peopleValueIdList: [p] }],
          },
          201,
        )
      ).deal as Rec
    ).id as string;
    await write(
      '/v2/quote',
      {
        name: '참조 견적',
        dealId,
        quoteProductList: [
          { productId: product, fieldList: [{ name: '소개 회사', organizationValueId: org }] },
        ],
      },
      201,
    );
    await write(`/v2/organization/${org}`, { name: '새 이름' });
    await write(`/v2/people/${p}`, { name: '바뀐 고객' });
    expect((await person(withRef)).거래처).toEqual({ id: org, name: '새 이름' });
    expect((await deal(dealId))['관련 고객']).toEqual([{ id: p, name: '바뀐 고객' }]);
    const quote = (await get(app, ws.token, `/v2/deal/${dealId}/quote`)).json.data.quoteList[0];
    expect(quote['견적 구성 상품'][0]['소개 회사']).toEqual({ id: org, name: '새 이름' });
  });
});

describe('many writers at once', () => {
  it('8 clients creating deals for one person lose no update', async () => {
    const { p, o } = await ws.write(async (w) => ({
      p: await makePerson(w),
      o: await makeOrganization(w),
    }));
    const statuses = ['In progress', 'Won', 'Lost'] as const;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, client) =>
        (async () => {
          const out = [];
          for (let i = 0; i < 5; i++) {
            out.push(
              await post(app, ws.token, '/v2/deal', {
                name: `동시 ${client}-${i}`,
                pipelineId: pipeline.id,
                pipelineStageId: pipeline.stage.미팅,
                status: statuses[(client + i) % 3],
                peopleId: p,
                organizationId: o,
              }),
            );
          }
          return out;
        })(),
      ),
    );
    const all = responses.flat();
    expect(all.map((r) => r.status)).toEqual(all.map(() => 201));
    const sent = Array.from({ length: 8 }, (_, client) =>
      Array.from({ length: 5 }, (_, i) => statuses[(client + i) % 3]),
    ).flat();
    const count = (status: string) => sent.filter((s) => s === status).length;
    const expected = {
      '딜 개수': 40,
      '진행중 딜 개수': count('In progress'),
      '성사된 딜 개수': count('Won'),
      '실패된 딜 개수': count('Lost'),
    };
    expect(await person(p)).toMatchObject(expected);
    expect(await organization(o)).toMatchObject(expected);
    expect(new Set(all.map((r) => r.json.data.deal.id)).size).toBe(40);
  });

  it('a second connection writing at the same time (as another process would) waits, never fails', async () => {
    const p = await ws.write((w) => makePerson(w));
    const other = openStore(store.url);
    const otherApp = await testApp(other);
    try {
      const body = (n: number) => ({
        name: `경쟁 ${n}`,
        pipelineId: pipeline.id,
        pipelineStageId: pipeline.stage.미팅,
        status: 'In progress',
        peopleId: p,
      });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          post(n % 2 === 0 ? app : otherApp, ws.token, '/v2/deal', body(n)),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
      expect((await person(p))['딜 개수']).toBe(20);
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});

describe('across workspaces', () => {
  it('main quotes created at once through two connections leave exactly one main quote', async () => {
    const { p, product } = await ws.write(async (w) => ({
      p: await makePerson(w),
      product: await makeProduct(w),
    }));
    const deal = await post(app, ws.token, '/v2/deal', {
      name: '메인 견적 경쟁',
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.stage.미팅,
      status: 'In progress',
      peopleId: p,
    });
    const dealId = deal.json.data.deal.id as string;
    // A second store on the same database, as another server process would have.
    const other = openStore(store.url);
    const otherApp = await testApp(other);
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          post(n % 2 === 0 ? app : otherApp, ws.token, '/v2/quote', {
            name: `견적 ${n}`,
            dealId,
            isMainQuote: true,
            quoteProductList: [{ productId: product, amount: n + 1 }],
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
      const quotes = (await get(app, ws.token, `/v2/deal/${dealId}/quote`)).json.data.quoteList;
      expect(quotes).toHaveLength(12);
      expect(quotes.filter((q: Rec) => q['메인 견적서 여부'] === true)).toHaveLength(1);
    } finally {
      await otherApp.close();
      await other.close();
    }
  });

  it('no write reads, changes or links a record of another workspace', async () => {
    const theirs = await testWorkspace(store, '다른 워크스페이스');
    const foreign = await theirs.write(async (w) => ({
      person: await makePerson(w, { email: 'foreign@example.com' }),
      org: await makeOrganization(w, { name: '남의 회사' }),
      product: await makeProduct(w),
      pipeline: await makePipeline(w),
    }));
    const foreignDeal = (
      await post(app, theirs.token, '/v2/deal', {
        name: '남의 딜',
        pipelineId: foreign.pipeline.id,
        pipelineStageId: foreign.pipeline.stageIds[0],
        status: 'In progress',
        peopleId: foreign.person,
      })
    ).json.data.deal.id as string;
    const mine = await ws.write((w) => makePerson(w));
    const dealBody = {
      name: 'x',
      pipelineId: pipeline.id,
      pipelineStageId: pipeline.stage.미팅,
      status: 'Won',
      peopleId: mine,
    };
    const attempts: [string, unknown, number][] = [
      [`/v2/people/${foreign.person}`, { name: '탈취' }, 404],
      [`/v2/organization/${foreign.org}`, { name: '탈취' }, 404],
      [`/v2/deal/${foreignDeal}`, { name: '탈취' }, 404],
      [`/v2/deal/${foreignDeal}/delete`, undefined, 404],
      ['/v2/people', { name: 'x', organizationId: foreign.org }, 400],
      ['/v2/deal', { ...dealBody, peopleId: foreign.person }, 400],
      [
        '/v2/deal',
        {
          ...dealBody,
          pipelineId: foreign.pipeline.id,
          pipelineStageId: foreign.pipeline.stageIds[0],
        },
        400,
      ],
      ['/v2/deal', { ...dealBody, pipelineStageId: foreign.pipeline.stageIds[0] }, 400],
      [
        '/v2/deal',
        { ...dealBody, fieldList: [{ name: '담당자', userValueId: theirs.userId }] },
        400,
      ],
      ['/v2/lead', { name: 'x', organizationId: foreign.org }, 400],
      ['/v2/quote', { name: 'x', dealId: foreignDeal }, 400],
    ];
    for (const [url, body, status] of attempts) {
      const res = await post(app, ws.token, url, body);
      expect(res.status, `${url} ${res.text}`).toBe(status);
      expect(res.text).not.toContain('남의');
    }
    // The same e-mail and organization name are free in this workspace.
    expect(
      (
        await post(app, ws.token, '/v2/people', {
          name: 'y',
          fieldList: [{ name: '이메일', stringValue: 'foreign@example.com' }],
        })
      ).status,
    ).toBe(201);
    expect((await post(app, ws.token, '/v2/organization', { name: '남의 회사' })).status).toBe(201);
    // Their records are as they were.
    const theirDeal = await get(app, theirs.token, `/v2/deal/${foreignDeal}`);
    expect(theirDeal.json.data.deal[0].이름).toBe('남의 딜');
    const theirPeople = (await get(app, theirs.token, '/v2/people')).json.data.peopleList;
    expect(theirPeople.map((r: Rec) => r['딜 개수'])).toEqual([1]);
  });
});

describe('auth and rate limit', () => {
  it('writes need a token and count against the workspace’s rate limit', async () => {
    expect((await post(app, null, '/v2/people', { name: 'x' })).status).toBe(401);
    expect((await post(app, 'scrm_nope', '/v2/people', { name: 'x' })).status).toBe(401);
    const limited = await testApp(store, { rateLimitMax: 2 });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await post(limited, ws.token, '/v2/people', { name: `한도 ${i}` })).status);
      expect(statuses).toEqual([201, 201, 429]);
      const rows = await store.db
        .selectFrom('people')
        .select('name')
        .where('workspace_id', '=', ws.workspaceId)
        .where('name', 'like', '한도%')
        .execute();
      expect(rows).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});

/**
 * The derived fields (docs/decisions.md, Derived fields; and the rules of its Activities and
 * history), one test per rule: a fixture that exercises the rule, and the value worked out by hand,
 * read back through the HTTP API.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { setCustomValues } from '../src/resources/custom-fields/writes.ts';
import { setDealOutcome } from '../src/resources/deals/writes.ts';
import { setPersonOrganization } from '../src/resources/people/writes.ts';
import { insertQuotes } from '../src/resources/quotes/writes.ts';
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
  makeTeam,
  makeTodo,
  makeUser,
  makeWebForm,
} from './factories.ts';
import {
  appWithWorkspace,
  get,
  LISTS,
  type Listed,
  type TestStore,
  type TestWorkspace,
  walk,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

/** Every record of a list endpoint. */
async function list(type: Listed): Promise<Rec[]> {
  const [path, key] = LISTS[type];
  return (await walk(app, ws.token, `${path}?limit=100`, key)).records;
}

/** One record of a list endpoint, by id. */
async function one(type: Listed, id: string): Promise<Rec> {
  const found = (await list(type)).find((r) => r.id === id);
  expect(found, `${type} ${id}`).toBeDefined();
  return found!;
}

/** The single-deal record. */
async function singleDeal(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/deal/${id}`);
  expect(res.status).toBe(200);
  return res.json.data.deal[0];
}

/** The quotes of a lead. */
async function quotesOf(leadId: string): Promise<Rec[]> {
  const res = await get(app, ws.token, `/v2/lead/${leadId}/quote`);
  expect(res.status).toBe(200);
  return res.json.data.quoteList;
}

const ref = (id: string, name: string) => ({ id, name });
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const DAY = 86_400_000;

describe('deal counters (리드 개수 … 실패된 딜 개수)', () => {
  it('counts the leads and deals of a person, deals by outcome', async () => {
    const { person, other } = await ws.write(async (w) => {
      const person = await makePerson(w);
      const other = await makePerson(w);
      await makeDeal(w, { peopleId: person, outcome: 'Won' });
      await makeDeal(w, { peopleId: person, outcome: 'Won', label: 'Convert' });
      await makeDeal(w, { peopleId: person, outcome: 'Lost' });
      await makeDeal(w, { peopleId: person, label: 'SQL' });
      await makeLead(w, { peopleId: person });
      await makeLead(w, { peopleId: person });
      await makeDeal(w, { peopleId: other });
      return { person, other };
    });
    expect(await one('people', person)).toMatchObject({
      '리드 개수': 2,
      '딜 개수': 4,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 2,
      '실패된 딜 개수': 1,
    });
    expect(await one('people', other)).toMatchObject({
      '리드 개수': 0,
      '딜 개수': 1,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 0,
      '실패된 딜 개수': 0,
    });
  });

  it('counts the leads and deals whose organizationId is the organization', async () => {
    const { org, empty } = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const empty = await makeOrganization(w);
      const member = await makePerson(w, { organizationId: org });
      await makeDeal(w, { organizationId: org, peopleId: member, outcome: 'Won' });
      await makeDeal(w, { organizationId: org, outcome: 'Lost' });
      await makeDeal(w, { organizationId: org });
      await makeDeal(w, { organizationId: org, peopleId: member });
      await makeLead(w, { organizationId: org });
      // A deal of a member without organizationId is not the organization's (docs/decisions.md,
      // Activities and history).
      await makeDeal(w, { peopleId: member, outcome: 'Won' });
      await makeLead(w, { peopleId: member });
      return { org, empty };
    });
    expect(await one('organization', org)).toMatchObject({
      '리드 개수': 1,
      '딜 개수': 4,
      '진행중 딜 개수': 2,
      '성사된 딜 개수': 1,
      '실패된 딜 개수': 1,
    });
    expect(await one('organization', empty)).toMatchObject({
      '리드 개수': 0,
      '딜 개수': 0,
      '진행중 딜 개수': 0,
      '성사된 딜 개수': 0,
      '실패된 딜 개수': 0,
    });
  });
});

describe('NOTE group', () => {
  it('shows the newest note attached directly to each record, with its author', async () => {
    const r = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person, organizationId: org });
      const lead = await makeLead(w, { peopleId: person });
      const product = await makeProduct(w);
      const quote = await makeQuote(w, { leadId: lead, lines: [{ productId: product }] });
      const bare = await makePerson(w);
      const subjects = [
        ['people', person],
        ['organization', org],
        ['deal', deal],
        ['lead', lead],
        ['product', product],
        ['quote', quote],
      ] as const;
      for (const [subjectType, subjectId] of subjects) {
        // Inserted out of time order: the newest is the second one.
        await makeNote(w, {
          subjectType,
          subjectId,
          text: `${subjectType} 1`,
          createdAt: '2024-01-01T00:00:00.000Z',
        });
        await makeNote(w, {
          subjectType,
          subjectId,
          text: `${subjectType} 최신`,
          authorId: seller,
          createdAt: '2024-03-01T09:30:00.000Z',
        });
        await makeNote(w, {
          subjectType,
          subjectId,
          text: `${subjectType} 2`,
          createdAt: '2024-02-01T00:00:00.000Z',
        });
      }
      return { seller, org, person, deal, lead, product, quote, bare };
    });
    const expected = (type: string) => ({
      '최근 작성된 노트': `${type} 최신`,
      '최근 노트 작성일': '2024-03-01T09:30:00.000Z',
      '최근 노트 작성자': ref(r.seller, '이영업'),
    });
    expect(await one('people', r.person)).toMatchObject(expected('people'));
    expect(await one('organization', r.org)).toMatchObject(expected('organization'));
    expect(await one('deal', r.deal)).toMatchObject(expected('deal'));
    expect(await one('lead', r.lead)).toMatchObject(expected('lead'));
    expect(await one('product', r.product)).toMatchObject(expected('product'));
    expect((await quotesOf(r.lead))[0]).toMatchObject(expected('quote'));
    expect(await one('people', r.bare)).toMatchObject({
      '최근 작성된 노트': null,
      '최근 노트 작성일': null,
      '최근 노트 작성자': null,
    });
  });
});

describe('WEBFORM group and 제출된 웹폼 목록', () => {
  it('shows the newest submission, and each form once in first-submission order', async () => {
    const r = await ws.write(async (w) => {
      const consult = await makeWebForm(w, '상담 신청');
      const brochure = await makeWebForm(w, '자료 요청');
      const seminar = await makeWebForm(w, '세미나 신청');
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person });
      const lead = await makeLead(w, { peopleId: person });
      const bare = await makePerson(w);
      const bareOrg = await makeOrganization(w);
      // person: 상담 (Jan), 자료 (Feb), 상담 again (Mar); inserted out of time order.
      await makeSubmission(w, {
        webFormId: brochure,
        peopleId: person,
        createdAt: '2024-02-01T00:00:00.000Z',
      });
      await makeSubmission(w, {
        webFormId: consult,
        peopleId: person,
        createdAt: '2024-03-01T00:00:00.000Z',
      });
      await makeSubmission(w, {
        webFormId: consult,
        peopleId: person,
        createdAt: '2024-01-01T00:00:00.000Z',
      });
      // organization: 세미나 (Apr) then 자료 (May).
      await makeSubmission(w, {
        webFormId: brochure,
        organizationId: org,
        createdAt: '2024-05-01T00:00:00.000Z',
      });
      await makeSubmission(w, {
        webFormId: seminar,
        organizationId: org,
        createdAt: '2024-04-01T00:00:00.000Z',
      });
      // One submission linked to a deal and a lead.
      await makeSubmission(w, {
        webFormId: seminar,
        dealId: deal,
        leadId: lead,
        createdAt: '2024-06-01T12:00:00.000Z',
      });
      return { consult, brochure, seminar, org, person, deal, lead, bare, bareOrg };
    });
    expect(await one('people', r.person)).toMatchObject({
      '최근 제출된 웹폼': ref(r.consult, '상담 신청'),
      '최근 웹폼 제출 날짜': '2024-03-01T00:00:00.000Z',
      '제출된 웹폼 목록': [ref(r.consult, '상담 신청'), ref(r.brochure, '자료 요청')],
    });
    expect(await one('organization', r.org)).toMatchObject({
      '최근 제출된 웹폼': ref(r.brochure, '자료 요청'),
      '최근 웹폼 제출 날짜': '2024-05-01T00:00:00.000Z',
      '제출된 웹폼 목록': [ref(r.seminar, '세미나 신청'), ref(r.brochure, '자료 요청')],
    });
    for (const [type, id] of [
      ['deal', r.deal],
      ['lead', r.lead],
    ] as const) {
      expect(await one(type, id)).toMatchObject({
        '최근 제출된 웹폼': ref(r.seminar, '세미나 신청'),
        '최근 웹폼 제출 날짜': '2024-06-01T12:00:00.000Z',
      });
    }
    const none = { '최근 제출된 웹폼': null, '최근 웹폼 제출 날짜': null, '제출된 웹폼 목록': [] };
    expect(await one('people', r.bare)).toMatchObject(none);
    expect(await one('organization', r.bareOrg)).toMatchObject(none);
  });
});

describe('SEQUENCE group and 등록된 시퀀스 목록', () => {
  it('shows the newest enrollment, the count, whether any is active, and each sequence once', async () => {
    const r = await ws.write(async (w) => {
      const onboarding = await makeSequence(w, '온보딩');
      const rebuy = await makeSequence(w, '재구매 유도');
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const colleague = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person });
      const lead = await makeLead(w, { peopleId: person });
      const never = await makePerson(w, { organizationId: org });
      const quietOrg = await makeOrganization(w);
      await makePerson(w, { organizationId: quietOrg });
      // person: 재구매 (Feb), 온보딩 (Mar), 온보딩 (Jan), all finished; inserted out of time order.
      await makeEnrollment(w, {
        sequenceId: rebuy,
        subjectType: 'people',
        subjectId: person,
        enrolledAt: '2024-02-01T00:00:00.000Z',
        active: false,
      });
      await makeEnrollment(w, {
        sequenceId: onboarding,
        subjectType: 'people',
        subjectId: person,
        enrolledAt: '2024-03-01T00:00:00.000Z',
        active: false,
      });
      await makeEnrollment(w, {
        sequenceId: onboarding,
        subjectType: 'people',
        subjectId: person,
        enrolledAt: '2024-01-01T00:00:00.000Z',
        active: false,
      });
      // colleague: 재구매 in December 2023 (before any of person's), still running.
      await makeEnrollment(w, {
        sequenceId: rebuy,
        subjectType: 'people',
        subjectId: colleague,
        enrolledAt: '2023-12-01T00:00:00.000Z',
      });
      await makeEnrollment(w, {
        sequenceId: onboarding,
        subjectType: 'deal',
        subjectId: deal,
        enrolledAt: '2024-04-01T00:00:00.000Z',
      });
      await makeEnrollment(w, {
        sequenceId: rebuy,
        subjectType: 'lead',
        subjectId: lead,
        enrolledAt: '2024-05-01T00:00:00.000Z',
        active: false,
      });
      return { onboarding, rebuy, org, person, colleague, deal, lead, never, quietOrg };
    });
    const onboarding = ref(r.onboarding, '온보딩');
    const rebuy = ref(r.rebuy, '재구매 유도');
    expect(await one('people', r.person)).toMatchObject({
      '최근 등록한 시퀀스': onboarding,
      '최근 시퀀스 등록일': '2024-03-01T00:00:00.000Z',
      '누적 시퀀스 등록수': 3,
      '현재 진행중인 시퀀스 여부': false,
      '등록된 시퀀스 목록': [onboarding, rebuy],
    });
    expect(await one('people', r.colleague)).toMatchObject({
      '최근 등록한 시퀀스': rebuy,
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': true,
      '등록된 시퀀스 목록': [rebuy],
    });
    expect(await one('people', r.never)).toMatchObject({
      '최근 등록한 시퀀스': null,
      '최근 시퀀스 등록일': null,
      '누적 시퀀스 등록수': 0,
      '현재 진행중인 시퀀스 여부': false,
      '등록된 시퀀스 목록': null,
    });
    expect(await one('deal', r.deal)).toMatchObject({
      '최근 등록한 시퀀스': onboarding,
      '최근 시퀀스 등록일': '2024-04-01T00:00:00.000Z',
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': true,
      '등록된 시퀀스 목록': [onboarding],
    });
    expect(await one('lead', r.lead)).toMatchObject({
      '최근 등록한 시퀀스': rebuy,
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': false,
      '등록된 시퀀스 목록': [rebuy],
    });
    // The organization: its people's sequences, first enrollment first (colleague's 재구매 in 2023).
    expect((await one('organization', r.org))['등록된 시퀀스 목록']).toEqual([rebuy, onboarding]);
    expect((await one('organization', r.quietOrg))['등록된 시퀀스 목록']).toEqual([]);
  });

  it('moves with a person who changes organization; a person never enrolled moves nothing', async () => {
    const r = await ws.write(async (w) => {
      const sequence = await makeSequence(w, '이직 관리');
      const from = await makeOrganization(w);
      const to = await makeOrganization(w);
      const enrolled = await makePerson(w, { organizationId: from });
      const plain = await makePerson(w, { organizationId: from });
      await makeEnrollment(w, {
        sequenceId: sequence,
        subjectType: 'people',
        subjectId: enrolled,
        enrolledAt: '2024-05-01T00:00:00.000Z',
        active: true,
      });
      return { sequence, from, to, enrolled, plain };
    });
    const sequence = ref(r.sequence, '이직 관리');
    const sequencesOf = async (org: string) =>
      (await one('organization', org))['등록된 시퀀스 목록'];
    expect(await sequencesOf(r.from)).toEqual([sequence]);
    const before = await one('organization', r.from);
    await ws.write((w) => setPersonOrganization(w, r.plain, r.to, ws.userId));
    expect((await one('people', r.plain)).organizationId).toBe(r.to);
    expect(await one('organization', r.from)).toEqual(before);
    expect(await sequencesOf(r.to)).toEqual([]);
    await ws.write((w) => setPersonOrganization(w, r.enrolled, r.to, ws.userId));
    expect(await sequencesOf(r.from)).toEqual([]);
    expect(await sequencesOf(r.to)).toEqual([sequence]);
  });
});

describe('TODO group', () => {
  it('names the open todo due first, and counts all, done and open todos', async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const person = await makePerson(w);
      const deal = await makeDeal(w);
      const lead = await makeLead(w);
      const allDone = await makePerson(w);
      const none = await makePerson(w);
      for (const [subjectType, subjectId] of [
        ['people', person],
        ['organization', org],
        ['deal', deal],
        ['lead', lead],
      ] as const) {
        await makeTodo(w, {
          subjectType,
          subjectId,
          title: '계약서 발송',
          dueAt: '2024-05-03T00:00:00.000Z',
        });
        await makeTodo(w, { subjectType, subjectId, title: '메모 정리' });
        await makeTodo(w, {
          subjectType,
          subjectId,
          title: '첫 통화',
          dueAt: '2024-05-01T00:00:00.000Z',
          done: true,
        });
        await makeTodo(w, {
          subjectType,
          subjectId,
          title: '미팅 준비',
          dueAt: '2024-05-02T00:00:00.000Z',
        });
      }
      await makeTodo(w, {
        subjectType: 'people',
        subjectId: allDone,
        title: '끝난 일',
        done: true,
      });
      return { org, person, deal, lead, allDone, none };
    });
    const expected = { '다음 TODO': '미팅 준비', '전체 TODO': 4, '완료 TODO': 1, '미완료 TODO': 3 };
    expect(await one('people', r.person)).toMatchObject(expected);
    expect(await one('organization', r.org)).toMatchObject(expected);
    expect(await one('deal', r.deal)).toMatchObject(expected);
    expect(await one('lead', r.lead)).toMatchObject(expected);
    expect(await one('people', r.allDone)).toMatchObject({
      '다음 TODO': null,
      '전체 TODO': 1,
      '완료 TODO': 1,
      '미완료 TODO': 0,
    });
    expect(await one('people', r.none)).toMatchObject({
      '다음 TODO': null,
      '전체 TODO': 0,
      '완료 TODO': 0,
      '미완료 TODO': 0,
    });
  });
});

describe('팀', () => {
  it("is the owner's teams at creation, [] without any", async () => {
    const r = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const loner = await makeUser(w, '박혼자');
      const east = await makeTeam(w, '동부팀', [seller]);
      const west = await makeTeam(w, '서부팀', [seller, ws.userId]);
      const ownerId = seller;
      const person = await makePerson(w, { ownerId });
      const org = await makeOrganization(w, { ownerId });
      const deal = await makeDeal(w, { ownerId });
      const lead = await makeLead(w, { ownerId });
      const product = await makeProduct(w, { ownerId });
      await makeQuote(w, { leadId: lead, ownerId });
      const lonely = await makePerson(w, { ownerId: loner });
      const unowned = await makePerson(w, { ownerId: null });
      const chosen = await makePerson(w, { ownerId, teamIds: [west] });
      return { seller, east, west, person, org, deal, lead, product, lonely, unowned, chosen };
    });
    const teams = [ref(r.east, '동부팀'), ref(r.west, '서부팀')].sort(byId);
    const teamsOf = (rec: Rec) => [...(rec['팀'] as { id: string }[])].sort(byId);
    expect(teamsOf(await one('people', r.person))).toEqual(teams);
    expect(teamsOf(await one('organization', r.org))).toEqual(teams);
    expect(teamsOf(await one('deal', r.deal))).toEqual(teams);
    expect(teamsOf(await one('lead', r.lead))).toEqual(teams);
    expect(teamsOf(await one('product', r.product))).toEqual(teams);
    expect(teamsOf((await quotesOf(r.lead))[0]!)).toEqual(teams);
    expect((await one('people', r.person))['담당자']).toEqual(ref(r.seller, '이영업'));
    expect((await one('people', r.lonely))['팀']).toEqual([]);
    expect(await one('people', r.unowned)).toMatchObject({ 담당자: null, 팀: [] });
    expect((await one('people', r.chosen))['팀']).toEqual([ref(r.west, '서부팀')]);

    // Joining a team later does not change the teams of records made before.
    await ws.write(async (w) => {
      await makeTeam(w, '신규팀', [r.seller]);
      await makeNote(w, { subjectType: 'people', subjectId: r.person });
    });
    expect(teamsOf(await one('people', r.person))).toEqual(teams);
  });
});

describe('수정 날짜', () => {
  it("moves with the record's own and custom fields, not with derived ones", async () => {
    const created = '2024-01-01T00:00:00.000Z';
    const r = await ws.write(async (w) => {
      const grade = await makeCustomField(w, 'people', '고객 등급');
      const org = await makeOrganization(w);
      const person = await makePerson(w, { createdAt: created });
      const deal = await makeDeal(w, { peopleId: person, createdAt: created });
      return { grade, org, person, deal };
    });
    const updated = async (type: Listed, id: string) => (await one(type, id))['수정 날짜'];
    expect(await updated('people', r.person)).toBe(created);

    // Derived: a note, a todo, a deal's outcome, an enrollment.
    await ws.write(async (w) => {
      await makeNote(w, { subjectType: 'people', subjectId: r.person });
      await makeTodo(w, { subjectType: 'people', subjectId: r.person });
      await makeEnrollment(w, {
        sequenceId: await makeSequence(w),
        subjectType: 'people',
        subjectId: r.person,
      });
      await setDealOutcome(w, r.deal, 'Won');
    });
    expect(await updated('people', r.person)).toBe(created);
    // …but the deal's outcome is the deal's own field.
    const dealChange = await updated('deal', r.deal);
    expect(dealChange).not.toBe(created);

    const customAt = await ws.write(async (w) => {
      await setCustomValues(w, 'people', r.person, { [r.grade]: 'VIP' });
      return w.now;
    });
    expect(await updated('people', r.person)).toBe(customAt);
    const orgAt = await ws.write(async (w) => {
      await setPersonOrganization(w, r.person, r.org, ws.userId);
      return w.now;
    });
    expect(await updated('people', r.person)).toBe(orgAt);
  });
});

describe('메인 견적 상품 리스트', () => {
  it("lists the main quote's line products in line order, duplicates kept; null without a main quote", async () => {
    const r = await ws.write(async (w) => {
      const crm = await makeProduct(w, { name: 'CRM' });
      const setup = await makeProduct(w, { name: '설치' });
      const deal = await makeDeal(w);
      const lead = await makeLead(w);
      const noMain = await makeDeal(w);
      const noQuote = await makeDeal(w);
      await makeQuote(w, { dealId: deal, lines: [{ productId: setup }] });
      await makeQuote(w, {
        dealId: deal,
        isMain: true,
        lines: [{ productId: crm }, { productId: setup }, { productId: crm }],
      });
      await makeQuote(w, {
        leadId: lead,
        isMain: true,
        lines: [{ productId: setup }, { productId: crm }],
      });
      await makeQuote(w, { dealId: noMain, lines: [{ productId: crm }] });
      return { crm, setup, deal, lead, noMain, noQuote };
    });
    const crm = ref(r.crm, 'CRM');
    const setup = ref(r.setup, '설치');
    expect((await one('deal', r.deal))['메인 견적 상품 리스트']).toEqual([crm, setup, crm]);
    expect((await one('lead', r.lead))['메인 견적 상품 리스트']).toEqual([setup, crm]);
    expect((await one('deal', r.noMain))['메인 견적 상품 리스트']).toBeNull();
    expect((await one('deal', r.noQuote))['메인 견적 상품 리스트']).toBeNull();
  });

  it('keeps one main quote per record: marking another main unmarks the first', async () => {
    const r = await ws.write(async (w) => {
      const crm = await makeProduct(w, { name: 'CRM' });
      const setup = await makeProduct(w, { name: '설치' });
      const lead = await makeLead(w);
      const first = await makeQuote(w, { leadId: lead, isMain: true, lines: [{ productId: crm }] });
      return { crm, setup, lead, first };
    });
    expect((await one('lead', r.lead))['메인 견적 상품 리스트']).toEqual([ref(r.crm, 'CRM')]);
    const second = await ws.write((w) =>
      makeQuote(w, { leadId: r.lead, isMain: true, lines: [{ productId: r.setup }] }),
    );
    expect((await one('lead', r.lead))['메인 견적 상품 리스트']).toEqual([ref(r.setup, '설치')]);
    const mains = (await quotesOf(r.lead)).map((q) => [q.id, q['메인 견적서 여부']]);
    expect(mains).toEqual([
      [r.first, false],
      [second, true],
    ]);
  });

  it('keeps one main quote per record when two main quotes are added in one call', async () => {
    const r = await ws.write(async (w) => {
      const crm = await makeProduct(w, { name: 'CRM' });
      const lead = await makeLead(w);
      const [a, b] = await insertQuotes(w, [
        { name: 'A', leadId: lead, isMain: true, ownerId: ws.userId, lines: [] },
        {
          name: 'B',
          leadId: lead,
          isMain: true,
          ownerId: ws.userId,
          lines: [{ productId: crm, price: 1, quantity: 1 }],
        },
      ]);
      return { crm, lead, a: a!, b: b! };
    });
    const mains = (await quotesOf(r.lead)).map((q) => [q.id, q['메인 견적서 여부']]);
    expect(mains).toEqual([
      [r.a, false],
      [r.b, true],
    ]);
    expect((await one('lead', r.lead))['메인 견적 상품 리스트']).toEqual([ref(r.crm, 'CRM')]);
  });
});

describe('최근 이메일 오픈일', () => {
  it('is the newest emailOpen activity of the deal or lead', async () => {
    const r = await ws.write(async (w) => {
      const deal = await makeDeal(w);
      const lead = await makeLead(w);
      const quiet = await makeDeal(w);
      const at = (date: string, type: 'emailOpen' | 'email' | 'meeting') =>
        makeActivity(w, { subjectId: deal, type, date });
      // Inserted out of time order; the newest activity is not an emailOpen.
      await at('2024-03-01T00:00:00.000Z', 'emailOpen');
      await at('2024-04-01T00:00:00.000Z', 'email');
      await at('2024-01-01T00:00:00.000Z', 'emailOpen');
      await at('2024-05-01T00:00:00.000Z', 'meeting');
      await makeActivity(w, {
        subjectType: 'lead',
        subjectId: lead,
        type: 'emailOpen',
        date: '2024-02-20T00:00:00.000Z',
      });
      await makeActivity(w, {
        subjectType: 'lead',
        subjectId: lead,
        type: 'emailOpen',
        date: '2024-02-10T00:00:00.000Z',
      });
      await makeActivity(w, { subjectId: quiet, type: 'email', date: '2024-06-01T00:00:00.000Z' });
      return { deal, lead, quiet };
    });
    expect((await one('deal', r.deal))['최근 이메일 오픈일']).toBe('2024-03-01T00:00:00.000Z');
    expect((await one('lead', r.lead))['최근 이메일 오픈일']).toBe('2024-02-20T00:00:00.000Z');
    expect((await one('deal', r.quiet))['최근 이메일 오픈일']).toBeNull();
  });
});

describe('마감일 and 상태', () => {
  it('sets 마감일 when a deal is won or lost and clears it when it returns to In progress', async () => {
    const { deal, wonAtCreation, closedGiven } = await ws.write(async (w) => ({
      deal: await makeDeal(w),
      wonAtCreation: await makeDeal(w, { outcome: 'Won', createdAt: '2024-01-02T00:00:00.000Z' }),
      closedGiven: await makeDeal(w, {
        outcome: 'Lost',
        createdAt: '2024-01-02T00:00:00.000Z',
        closedAt: '2024-02-03T04:05:06.789Z',
      }),
    }));
    const closing = async () => {
      const d = await one('deal', deal);
      return [d['상태'], d['마감일']];
    };
    expect(await closing()).toEqual(['In progress', null]);
    const wonAt = await ws.write(async (w) => {
      await setDealOutcome(w, deal, 'Won');
      return w.now;
    });
    expect(await closing()).toEqual(['Won', wonAt]);
    await ws.write((w) => setDealOutcome(w, deal, 'In progress'));
    expect(await closing()).toEqual(['In progress', null]);
    const lostAt = await ws.write(async (w) => {
      await setDealOutcome(w, deal, 'Lost');
      return w.now;
    });
    expect(await closing()).toEqual(['Lost', lostAt]);
    expect((await one('deal', wonAtCreation))['마감일']).toBe('2024-01-02T00:00:00.000Z');
    expect((await one('deal', closedGiven))['마감일']).toBe('2024-02-03T04:05:06.789Z');
  });

  it("shows a deal's label under 상태, else its outcome; a lead's defaults to New", async () => {
    const r = await ws.write(async (w) => ({
      sql: await makeDeal(w, { label: 'SQL' }),
      lost: await makeDeal(w, { outcome: 'Lost' }),
      convert: await makeDeal(w, { label: 'Convert', outcome: 'Won' }),
      plain: await makeDeal(w),
      newLead: await makeLead(w),
      nurturing: await makeLead(w, { label: 'Nurturing' }),
    }));
    const status = async (type: Listed, id: string) => (await one(type, id))['상태'];
    expect(await status('deal', r.sql)).toBe('SQL');
    expect(await status('deal', r.lost)).toBe('Lost');
    expect(await status('deal', r.convert)).toBe('Convert');
    expect(await status('deal', r.plain)).toBe('In progress');
    expect(await status('lead', r.newLead)).toBe('New');
    expect(await status('lead', r.nurturing)).toBe('Nurturing');
    // The label stays when the outcome changes; without one, 상태 follows the outcome.
    await ws.write(async (w) => {
      await setDealOutcome(w, r.sql, 'Won');
      await setDealOutcome(w, r.plain, 'Won');
    });
    expect(await status('deal', r.sql)).toBe('SQL');
    expect(await status('deal', r.plain)).toBe('Won');
  });
});

describe('상담 일수, 정체 일수, 팔로워, 참여자 (single deal)', () => {
  it('counts whole days from creation and from entering the stage, to now', async () => {
    const now = Date.now();
    const id = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      return makeDeal(w, {
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[1],
        createdAt: new Date(now - 10.5 * DAY).toISOString(),
        stageEnteredAt: new Date(now - 3.2 * DAY).toISOString(),
      });
    });
    expect(await singleDeal(id)).toMatchObject({ '상담 일수': 10, '정체 일수': 3 });
  });

  it('counts to 마감일 once the deal is closed', async () => {
    const now = Date.now();
    const id = await ws.write(async (w) => {
      const pipeline = await makePipeline(w);
      return makeDeal(w, {
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[2],
        outcome: 'Won',
        createdAt: new Date(now - 20.5 * DAY).toISOString(),
        stageEnteredAt: new Date(now - 15.9 * DAY).toISOString(),
        closedAt: new Date(now - 5.2 * DAY).toISOString(),
      });
    });
    // 20.5 − 5.2 = 15.3 days; 15.9 − 5.2 = 10.7 days.
    expect(await singleDeal(id)).toMatchObject({ '상담 일수': 15, '정체 일수': 10 });
  });

  it('lists followers (users) and participants (people) as Refs, null when none', async () => {
    const r = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const kim = await makePerson(w, { name: '김고객' });
      const lee = await makePerson(w, { name: '이고객' });
      const deal = await makeDeal(w, {
        followerIds: [seller, ws.userId],
        participantIds: [lee, kim],
      });
      const alone = await makeDeal(w);
      return { seller, kim, lee, deal, alone };
    });
    expect(await singleDeal(r.deal)).toMatchObject({
      팔로워: [ref(r.seller, '이영업'), ref(ws.userId, '김관리')],
      참여자: [ref(r.lee, '이고객'), ref(r.kim, '김고객')],
    });
    expect(await singleDeal(r.alone)).toMatchObject({ 팔로워: null, 참여자: null });
    // Only the single-deal response carries them.
    expect(Object.keys(await one('deal', r.deal))).not.toContain('팔로워');
  });
});

describe('quote products and quote 금액', () => {
  it('computes 전체금액, 시작 결제일 and 마지막 결제일 per product kind, and sums the quote', async () => {
    const quoteCreated = '2024-01-15T10:00:00.000Z';
    const r = await ws.write(async (w) => {
      const monthly = await makeProduct(w, {
        name: 'CRM 월간',
        kind: '구독 (월간)',
        price: 50_000,
      });
      const yearly = await makeProduct(w, { name: 'CRM 연간', kind: '구독 (연간)', price: 1_000 });
      const once = await makeProduct(w, { name: '설치 지원', kind: '일반', price: 10_000 });
      const lead = await makeLead(w);
      const quote = await makeQuote(w, {
        leadId: lead,
        createdAt: quoteCreated,
        lines: [
          {
            productId: monthly,
            price: 50_000,
            quantity: 2,
            paymentCount: 12,
            paymentStartAt: '2024-01-31T00:00:00.000Z',
          },
          {
            productId: monthly,
            price: 30_000,
            quantity: 1,
            paymentCount: 2,
            paymentStartAt: '2024-01-31T09:30:00.000Z',
          },
          {
            productId: yearly,
            price: 1_000,
            quantity: 3,
            paymentCount: 3,
            paymentStartAt: '2024-02-29T00:00:00.000Z',
          },
          // A one-off product is paid once, when the quote is made, whatever the line says.
          {
            productId: once,
            price: 10_000,
            quantity: 5,
            paymentCount: 3,
            paymentStartAt: '2024-05-01T00:00:00.000Z',
          },
        ],
      });
      return { monthly, yearly, once, lead, quote };
    });
    const [quote] = await quotesOf(r.lead);
    const lines = (quote!['견적 구성 상품'] as Rec[]).map(({ id: _id, ...rest }) => rest);
    expect(lines).toEqual([
      {
        productId: r.monthly,
        금액: 50_000,
        수량: 2,
        '결제 횟수': 12,
        '시작 결제일': '2024-01-31T00:00:00.000Z',
        '마지막 결제일': '2024-12-31T00:00:00.000Z',
        전체금액: 1_200_000,
      },
      {
        productId: r.monthly,
        금액: 30_000,
        수량: 1,
        '결제 횟수': 2,
        '시작 결제일': '2024-01-31T09:30:00.000Z',
        '마지막 결제일': '2024-02-29T09:30:00.000Z',
        전체금액: 60_000,
      },
      {
        productId: r.yearly,
        금액: 1_000,
        수량: 3,
        '결제 횟수': 3,
        '시작 결제일': '2024-02-29T00:00:00.000Z',
        '마지막 결제일': '2026-02-28T00:00:00.000Z',
        전체금액: 9_000,
      },
      {
        productId: r.once,
        금액: 10_000,
        수량: 5,
        '결제 횟수': 1,
        '시작 결제일': quoteCreated,
        '마지막 결제일': quoteCreated,
        전체금액: 50_000,
      },
    ]);
    expect(quote!['금액']).toBe(1_200_000 + 60_000 + 9_000 + 50_000);
  });
});

describe('deal activity dealStatus (docs/decisions.md, Activities and history)', () => {
  it("is the deal's outcome when the activity happened; null for a lead's activities", async () => {
    const r = await ws.write(async (w) => {
      const deal = await makeDeal(w, { outcome: 'Won' });
      const lead = await makeLead(w);
      const person = await makePerson(w);
      const wonTime = await makeActivity(w, {
        subjectId: deal,
        type: 'meeting',
        date: '2024-01-01T00:00:00.000Z',
      });
      const history = await makeActivity(w, {
        subjectId: deal,
        type: 'create',
        dealStatus: 'In progress',
        date: '2023-12-01T00:00:00.000Z',
      });
      const ofLead = await makeActivity(w, {
        subjectType: 'lead',
        subjectId: lead,
        type: 'email',
        dealStatus: 'Won',
        emailMessageId: 'msg-1',
        date: '2024-01-02T00:00:00.000Z',
      });
      await makeActivity(w, { subjectType: 'people', subjectId: person, type: 'meeting' });
      return { deal, lead, wonTime, history, ofLead };
    });
    const lostTime = await ws.write(async (w) => {
      await setDealOutcome(w, r.deal, 'Lost');
      return makeActivity(w, {
        subjectId: r.deal,
        type: 'smsSend',
        smsId: 'sms-1',
        date: '2024-01-03T00:00:00.000Z',
      });
    });
    const activities = await list('activity');
    expect(activities.map((a) => [a.id, a.dealId, a.dealStatus])).toEqual([
      [r.history, r.deal, 'In progress'],
      [r.wonTime, r.deal, 'Won'],
      [r.ofLead, r.lead, null],
      [lostTime, r.deal, 'Lost'],
    ]);
    expect(activities[2]).toMatchObject({
      type: 'email',
      emailMessageId: 'msg-1',
      smsId: null,
      webFormId: null,
    });
  });
});

describe('people history organization (docs/decisions.md, Activities and history)', () => {
  it('is a Ref only for editOrganizationConnect', async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w, { name: '(주)한빛' });
      const person = await makePerson(w);
      return { org, person };
    });
    // Creating records writes no history.
    expect(await list('history')).toEqual([]);
    await ws.write(async (w) => {
      await setPersonOrganization(w, r.person, r.org, ws.userId);
      await makeHistory(w, {
        peopleId: r.person,
        fieldName: '포지션',
        fieldValue: '팀장',
        organizationId: r.org,
      });
      await makeHistory(w, {
        peopleId: r.person,
        type: 'editPeopleConnection',
        fieldName: 'peopleId',
        fieldValue: 'x',
      });
    });
    await ws.write((w) => setPersonOrganization(w, r.person, null, ws.userId));
    const rows = (await list('history')).map(({ id: _id, createdAt: _at, ...rest }) => rest);
    expect(rows).toEqual([
      {
        peopleId: r.person,
        type: 'editOrganizationConnect',
        organization: ref(r.org, '(주)한빛'),
        fieldName: 'organizationId',
        fieldValue: r.org,
        ownerId: ws.userId,
      },
      {
        peopleId: r.person,
        type: 'editField',
        organization: null,
        fieldName: '포지션',
        fieldValue: '팀장',
        ownerId: ws.userId,
      },
      {
        peopleId: r.person,
        type: 'editPeopleConnection',
        organization: null,
        fieldName: 'peopleId',
        fieldValue: 'x',
        ownerId: ws.userId,
      },
      {
        peopleId: r.person,
        type: 'editOrganizationConnect',
        organization: null,
        fieldName: 'organizationId',
        fieldValue: null,
        ownerId: ws.userId,
      },
    ]);
  });
});

/**
 * Read-model freshness: a write shows up in every record it affects, through the HTTP API,
 * on the very next request, even when the page was served (and so cached by the server's
 * page cache) before the write.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  defineCustomField,
  deleteCustomField,
  renameCustomField,
  setCustomValues,
} from '../src/resources/custom-fields/writes.ts';
import { setDealOutcome } from '../src/resources/deals/writes.ts';
import { deleteNote } from '../src/resources/notes/writes.ts';
import { setPersonOrganization } from '../src/resources/people/writes.ts';
import { setTodoDone } from '../src/resources/todos/writes.ts';
import {
  makeActivity,
  makeDeal,
  makeEnrollment,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makeProduct,
  makeQuote,
  makeSequence,
  makeSubmission,
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
  testWorkspace,
} from './helpers.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ store, app, ws } = made));

/** The first page of a list, always by the same URL, so the server may answer it from its cache. */
async function list(type: Listed): Promise<Rec[]> {
  const [path, key] = LISTS[type];
  const res = await get(app, ws.token, `${path}?limit=100`);
  expect(res.status).toBe(200);
  expect(res.json.data.nextCursor).toBeNull();
  return res.json.data[key];
}

async function one(type: Listed, id: string): Promise<Rec> {
  const found = (await list(type)).find((r) => r.id === id);
  expect(found, `${type} ${id}`).toBeDefined();
  return found!;
}

async function singleDeal(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/deal/${id}`);
  expect(res.status).toBe(200);
  return res.json.data.deal[0];
}

async function quotesOf(leadId: string): Promise<Rec[]> {
  const res = await get(app, ws.token, `/v2/lead/${leadId}/quote`);
  expect(res.status).toBe(200);
  return res.json.data.quoteList;
}

/**
 * Requests every list page twice (the cache keeps a page from its second request on), so
 * each is in the page cache before a write.
 */
async function warm(): Promise<void> {
  for (const type of Object.keys(LISTS) as Listed[]) {
    await list(type);
    await list(type);
  }
}

const ref = (id: string, name: string) => ({ id, name });
const pick = (r: Rec, keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[k]]));

describe('the page cache', () => {
  it('does answer a repeated request from memory, until the workspace changes', async () => {
    const person = await ws.write((w) => makePerson(w, { name: '홍길동' }));
    expect((await one('people', person))['이름']).toBe('홍길동');
    expect((await one('people', person))['이름']).toBe('홍길동'); // kept from the second request
    // Change the stored JSON behind the cache's back: the cached page is still served…
    const body = Buffer.from(
      JSON.stringify({ ...(await one('people', person)), 이름: '바뀐 이름' }),
    );
    await store.db.updateTable('people').set({ body }).where('id', '=', person).execute();
    expect((await one('people', person))['이름']).toBe('홍길동');
    // …until any write of the workspace moves its data version.
    await ws.write(async (w) => void (await makeOrganization(w)));
    expect((await one('people', person))['이름']).toBe('바뀐 이름');
  });

  it("keeps serving a workspace's cached pages while another workspace writes", async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const person = await ws.write((w) => makePerson(w, { name: '홍길동' }));
    await one('people', person);
    await one('people', person); // kept from the second request
    const body = Buffer.from(
      JSON.stringify({ ...(await one('people', person)), 이름: '바뀐 이름' }),
    );
    await store.db.updateTable('people').set({ body }).where('id', '=', person).execute();
    // Writes of the other workspace, through its API and its store: this workspace's page is
    // still answered from the cache (the stored JSON changed behind it is not read).
    for (let i = 0; i < 3; i++) {
      await other.write(async (w) => void (await makePerson(w, { name: `다른 ${i}` })));
      const res = await app.inject({
        method: 'POST',
        url: '/v2/people',
        headers: { authorization: `Bearer ${other.token}` },
        payload: { name: `다른 API ${i}` },
      });
      expect(res.statusCode).toBe(201);
      expect((await one('people', person))['이름']).toBe('홍길동');
    }
    // A write of its own workspace moves its data version: the page is rendered afresh.
    await ws.write(async (w) => void (await makeOrganization(w)));
    expect((await one('people', person))['이름']).toBe('바뀐 이름');
  });
});

describe('notes', () => {
  it('a new note, and a deleted one (falling back to the one before), show everywhere', async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person, organizationId: org });
      const lead = await makeLead(w, { peopleId: person });
      const product = await makeProduct(w);
      const quote = await makeQuote(w, { leadId: lead, lines: [{ productId: product }] });
      return { org, person, deal, lead, product, quote };
    });
    const subjects = [
      ['people', r.person],
      ['organization', r.org],
      ['deal', r.deal],
      ['lead', r.lead],
      ['product', r.product],
      ['quote', r.quote],
    ] as const;
    const noteOf = async (type: (typeof subjects)[number][0], id: string) => {
      const rec = type === 'quote' ? (await quotesOf(r.lead))[0]! : await one(type, id);
      return rec['최근 작성된 노트'];
    };
    const firstNotes = await ws.write(async (w) => {
      const ids: string[] = [];
      for (const [subjectType, subjectId] of subjects) {
        ids.push(
          await makeNote(w, {
            subjectType,
            subjectId,
            text: `${subjectType} 1`,
            createdAt: '2024-01-01T00:00:00.000Z',
          }),
        );
      }
      return ids;
    });
    await warm();
    expect((await singleDeal(r.deal))['최근 작성된 노트']).toBe('deal 1');

    const seller = await ws.write((w) => makeUser(w, '이영업'));
    const secondNotes = await ws.write(async (w) => {
      const ids: string[] = [];
      for (const [subjectType, subjectId] of subjects) {
        ids.push(
          await makeNote(w, { subjectType, subjectId, text: `${subjectType} 2`, authorId: seller }),
        );
      }
      return ids;
    });
    for (const [type, id] of subjects) expect(await noteOf(type, id)).toBe(`${type} 2`);
    expect(pick(await one('people', r.person), ['최근 노트 작성자'])).toEqual({
      '최근 노트 작성자': ref(seller, '이영업'),
    });
    expect((await singleDeal(r.deal))['최근 작성된 노트']).toBe('deal 2');

    await ws.write(async (w) => {
      for (const id of secondNotes) await deleteNote(w, id);
    });
    for (const [type, id] of subjects) expect(await noteOf(type, id)).toBe(`${type} 1`);
    expect(await one('people', r.person)).toMatchObject({
      '최근 노트 작성일': '2024-01-01T00:00:00.000Z',
      '최근 노트 작성자': ref(ws.userId, '김관리'),
    });

    await ws.write(async (w) => {
      for (const id of firstNotes) await deleteNote(w, id);
    });
    for (const [type, id] of subjects) expect(await noteOf(type, id)).toBeNull();
    expect((await singleDeal(r.deal))['최근 노트 작성자']).toBeNull();
  });
});

describe('todos', () => {
  it('a new todo and a todo marked done show in the TODO group', async () => {
    const r = await ws.write(async (w) => {
      const person = await makePerson(w);
      const org = await makeOrganization(w);
      const deal = await makeDeal(w);
      const lead = await makeLead(w);
      for (const [subjectType, subjectId] of [
        ['people', person],
        ['organization', org],
        ['deal', deal],
        ['lead', lead],
      ] as const) {
        await makeTodo(w, {
          subjectType,
          subjectId,
          title: '견적 보내기',
          dueAt: '2024-05-02T00:00:00.000Z',
        });
      }
      return { person, org, deal, lead };
    });
    const subjects = [
      ['people', r.person],
      ['organization', r.org],
      ['deal', r.deal],
      ['lead', r.lead],
    ] as const;
    const todo = async (type: Listed, id: string) =>
      pick(await one(type, id), ['다음 TODO', '전체 TODO', '완료 TODO', '미완료 TODO']);
    await warm();
    for (const [type, id] of subjects) {
      expect(await todo(type, id)).toEqual({
        '다음 TODO': '견적 보내기',
        '전체 TODO': 1,
        '완료 TODO': 0,
        '미완료 TODO': 1,
      });
    }

    const urgent = await ws.write(async (w) => {
      const ids: string[] = [];
      for (const [subjectType, subjectId] of subjects) {
        ids.push(
          await makeTodo(w, {
            subjectType,
            subjectId,
            title: '전화하기',
            dueAt: '2024-05-01T00:00:00.000Z',
          }),
        );
      }
      return ids;
    });
    for (const [type, id] of subjects) {
      expect(await todo(type, id)).toEqual({
        '다음 TODO': '전화하기',
        '전체 TODO': 2,
        '완료 TODO': 0,
        '미완료 TODO': 2,
      });
    }
    expect((await singleDeal(r.deal))['다음 TODO']).toBe('전화하기');

    await ws.write(async (w) => {
      for (const id of urgent) await setTodoDone(w, id, true);
    });
    for (const [type, id] of subjects) {
      expect(await todo(type, id)).toEqual({
        '다음 TODO': '견적 보내기',
        '전체 TODO': 2,
        '완료 TODO': 1,
        '미완료 TODO': 1,
      });
    }

    await ws.write((w) => setTodoDone(w, urgent[0]!, false));
    expect(await todo('people', r.person)).toEqual({
      '다음 TODO': '전화하기',
      '전체 TODO': 2,
      '완료 TODO': 0,
      '미완료 TODO': 2,
    });
  });
});

describe('deal outcome', () => {
  it("shows in the deal, the single deal, and its person's and organization's counters", async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person, organizationId: org });
      return { org, person, deal };
    });
    const counters = async (type: Listed, id: string) =>
      pick(await one(type, id), ['딜 개수', '진행중 딜 개수', '성사된 딜 개수', '실패된 딜 개수']);
    await warm();
    expect(await counters('people', r.person)).toEqual({
      '딜 개수': 1,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 0,
      '실패된 딜 개수': 0,
    });

    const wonAt = await ws.write(async (w) => {
      await setDealOutcome(w, r.deal, 'Won');
      return w.now;
    });
    const won = { '딜 개수': 1, '진행중 딜 개수': 0, '성사된 딜 개수': 1, '실패된 딜 개수': 0 };
    expect(await counters('people', r.person)).toEqual(won);
    expect(await counters('organization', r.org)).toEqual(won);
    expect(pick(await one('deal', r.deal), ['상태', '마감일'])).toEqual({
      상태: 'Won',
      마감일: wonAt,
    });
    expect(pick(await singleDeal(r.deal), ['상태', '마감일'])).toEqual({
      상태: 'Won',
      마감일: wonAt,
    });

    await ws.write((w) => setDealOutcome(w, r.deal, 'Lost'));
    const lost = { '딜 개수': 1, '진행중 딜 개수': 0, '성사된 딜 개수': 0, '실패된 딜 개수': 1 };
    expect(await counters('people', r.person)).toEqual(lost);
    expect(await counters('organization', r.org)).toEqual(lost);
    expect((await one('deal', r.deal))['상태']).toBe('Lost');

    await ws.write((w) => setDealOutcome(w, r.deal, 'In progress'));
    expect(await counters('organization', r.org)).toEqual({
      '딜 개수': 1,
      '진행중 딜 개수': 1,
      '성사된 딜 개수': 0,
      '실패된 딜 개수': 0,
    });
    expect(pick(await singleDeal(r.deal), ['상태', '마감일'])).toEqual({
      상태: 'In progress',
      마감일: null,
    });
  });
});

describe('custom field definitions', () => {
  it('a defined, renamed and deleted field shows on every record of its type, and only there', async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const people = [
        await makePerson(w, { organizationId: org }),
        await makePerson(w),
        await makePerson(w),
      ];
      const deal = await makeDeal(w);
      return { org, people, deal };
    });
    await warm();
    const lastKeys = async (type: Listed) =>
      (await list(type)).map((rec) => Object.keys(rec).slice(-2));
    const peopleBefore = await lastKeys('people');
    expect(peopleBefore.every(([, last]) => last === '등록된 시퀀스 목록')).toBe(true);

    const grade = await ws.write((w) =>
      defineCustomField(w, { recordType: 'people', name: '고객 등급', type: 'string' }),
    );
    const people = await list('people');
    expect(people).toHaveLength(3);
    for (const p of people) {
      expect(Object.keys(p).slice(-2)).toEqual(['등록된 시퀀스 목록', '고객 등급']);
      expect(p['고객 등급']).toBeNull();
    }
    // Other record types do not get it.
    expect(Object.keys(await one('organization', r.org))).not.toContain('고객 등급');

    const budget = await ws.write(async (w) => {
      await setCustomValues(w, 'people', r.people[1]!, { [grade]: 'VIP' });
      return defineCustomField(w, { recordType: 'people', name: '연간 예산', type: 'number' });
    });
    expect(pick(await one('people', r.people[1]!), ['고객 등급', '연간 예산'])).toEqual({
      '고객 등급': 'VIP',
      '연간 예산': null,
    });
    expect(Object.keys(await one('people', r.people[0]!)).slice(-3)).toEqual([
      '등록된 시퀀스 목록',
      '고객 등급',
      '연간 예산',
    ]);

    await ws.write((w) => renameCustomField(w, grade, '등급'));
    for (const p of await list('people')) {
      expect(Object.keys(p).slice(-3)).toEqual(['등록된 시퀀스 목록', '등급', '연간 예산']);
      expect(p).not.toHaveProperty('고객 등급');
    }
    expect((await one('people', r.people[1]!))['등급']).toBe('VIP');

    await ws.write((w) => deleteCustomField(w, grade));
    for (const p of await list('people')) {
      expect(Object.keys(p).slice(-2)).toEqual(['등록된 시퀀스 목록', '연간 예산']);
    }
    await ws.write((w) => deleteCustomField(w, budget));
    expect(await lastKeys('people')).toEqual(peopleBefore);
  });

  it('a deal field shows after the single-deal keys; a quote-product field on every quote line', async () => {
    const r = await ws.write(async (w) => {
      const deal = await makeDeal(w);
      const lead = await makeLead(w);
      const product = await makeProduct(w);
      await makeQuote(w, { leadId: lead, lines: [{ productId: product }, { productId: product }] });
      return { deal, lead };
    });
    await warm();
    await quotesOf(r.lead);
    await ws.write(async (w) => {
      await defineCustomField(w, { recordType: 'deal', name: '경쟁사', type: 'string' });
      await defineCustomField(w, { recordType: 'quoteProduct', name: '비고', type: 'string' });
    });
    expect(Object.keys(await one('deal', r.deal)).slice(-2)).toEqual([
      '등록된 시퀀스 목록',
      '경쟁사',
    ]);
    expect(Object.keys(await singleDeal(r.deal)).slice(-5)).toEqual([
      '상담 일수',
      '정체 일수',
      '팔로워',
      '참여자',
      '경쟁사',
    ]);
    const lines = (await quotesOf(r.lead))[0]!['견적 구성 상품'] as Rec[];
    expect(lines.map((l) => Object.keys(l).slice(-2))).toEqual([
      ['전체금액', '비고'],
      ['전체금액', '비고'],
    ]);
    expect(Object.keys(await one('lead', r.lead))).not.toContain('경쟁사');
  });
});

describe('custom values', () => {
  it("a set and a cleared value show on the record; a person's change is in its history", async () => {
    const r = await ws.write(async (w) => {
      const grade = await defineCustomField(w, {
        recordType: 'people',
        name: '고객 등급',
        type: 'string',
      });
      const rival = await defineCustomField(w, {
        recordType: 'deal',
        name: '경쟁사',
        type: 'string',
      });
      const person = await makePerson(w, { createdAt: '2024-01-01T00:00:00.000Z' });
      const deal = await makeDeal(w, { createdAt: '2024-01-01T00:00:00.000Z' });
      return { grade, rival, person, deal };
    });
    await warm();
    await singleDeal(r.deal);
    const setAt = await ws.write(async (w) => {
      await setCustomValues(w, 'people', r.person, { [r.grade]: 'VIP' });
      await setCustomValues(w, 'deal', r.deal, { [r.rival]: '경쟁사 A' });
      return w.now;
    });
    expect(pick(await one('people', r.person), ['고객 등급', '수정 날짜'])).toEqual({
      '고객 등급': 'VIP',
      '수정 날짜': setAt,
    });
    expect(pick(await one('deal', r.deal), ['경쟁사', '수정 날짜'])).toEqual({
      경쟁사: '경쟁사 A',
      '수정 날짜': setAt,
    });
    expect((await singleDeal(r.deal))['경쟁사']).toBe('경쟁사 A');

    await ws.write((w) => setCustomValues(w, 'people', r.person, { [r.grade]: null }));
    expect((await one('people', r.person))['고객 등급']).toBeNull();

    // Every change of a person's custom field writes a history row (docs/decisions.md,
    // Activities and history).
    const history = (await list('history')).map((h) =>
      pick(h, ['peopleId', 'type', 'organization', 'fieldName', 'fieldValue']),
    );
    expect(history).toEqual([
      {
        peopleId: r.person,
        type: 'editField',
        organization: null,
        fieldName: '고객 등급',
        fieldValue: 'VIP',
      },
      {
        peopleId: r.person,
        type: 'editField',
        organization: null,
        fieldName: '고객 등급',
        fieldValue: null,
      },
    ]);
  });
});

describe("a person's organization", () => {
  it('changes the person, the old and the new organization, and writes a history row', async () => {
    const r = await ws.write(async (w) => {
      const oldOrg = await makeOrganization(w, { name: '(주)옛회사' });
      const newOrg = await makeOrganization(w, { name: '(주)새회사' });
      const person = await makePerson(w, {
        organizationId: oldOrg,
        createdAt: '2024-01-01T00:00:00.000Z',
      });
      const sequence = await makeSequence(w, '온보딩');
      await makeEnrollment(w, { sequenceId: sequence, subjectType: 'people', subjectId: person });
      return { oldOrg, newOrg, person, sequence };
    });
    await warm();
    const sequences = async (id: string) => (await one('organization', id))['등록된 시퀀스 목록'];
    expect(await sequences(r.oldOrg)).toEqual([ref(r.sequence, '온보딩')]);
    expect(await sequences(r.newOrg)).toEqual([]);
    expect(await list('history')).toEqual([]);

    const movedAt = await ws.write(async (w) => {
      await setPersonOrganization(w, r.person, r.newOrg, ws.userId);
      return w.now;
    });
    expect(pick(await one('people', r.person), ['organizationId', '수정 날짜'])).toEqual({
      organizationId: r.newOrg,
      '수정 날짜': movedAt,
    });
    expect(await sequences(r.oldOrg)).toEqual([]);
    expect(await sequences(r.newOrg)).toEqual([ref(r.sequence, '온보딩')]);
    const [row] = await list('history');
    expect(row).toMatchObject({
      peopleId: r.person,
      type: 'editOrganizationConnect',
      organization: ref(r.newOrg, '(주)새회사'),
      fieldName: 'organizationId',
      fieldValue: r.newOrg,
      ownerId: ws.userId,
      createdAt: movedAt,
    });

    await ws.write((w) => setPersonOrganization(w, r.person, null, ws.userId));
    expect((await one('people', r.person))['organizationId']).toBeNull();
    expect(await sequences(r.newOrg)).toEqual([]);
    expect((await list('history')).map((h) => [h.organization, h.fieldValue])).toEqual([
      [ref(r.newOrg, '(주)새회사'), r.newOrg],
      [null, null],
    ]);
  });
});

describe('records created and changed in one write', () => {
  it('are stored as the change left them, not as their insert returned them', async () => {
    const org = await ws.write((w) => makeOrganization(w, { name: '(주)같은쓰기' }));
    await warm();
    const r = await ws.write(async (w) => {
      const person = await makePerson(w, { name: '같은 쓰기 고객' });
      const deal = await makeDeal(w, { name: '같은 쓰기 딜', peopleId: person });
      await setPersonOrganization(w, person, org, ws.userId);
      await setDealOutcome(w, deal, 'Won');
      return { person, deal };
    });
    expect((await one('people', r.person))['organizationId']).toBe(org);
    expect((await one('deal', r.deal))['상태']).toBe('Won');
  });
});

describe('other derived inputs', () => {
  it('an enrollment, a submission, a main quote and an email open show on cached pages', async () => {
    const r = await ws.write(async (w) => {
      const org = await makeOrganization(w);
      const person = await makePerson(w, { organizationId: org });
      const deal = await makeDeal(w, { peopleId: person, organizationId: org });
      const lead = await makeLead(w, { peopleId: person });
      const product = await makeProduct(w, { name: 'CRM' });
      return { org, person, deal, lead, product };
    });
    await warm();
    const at = await ws.write(async (w) => {
      const sequence = await makeSequence(w, '온보딩');
      const form = await makeWebForm(w, '상담 신청');
      await makeEnrollment(w, { sequenceId: sequence, subjectType: 'people', subjectId: r.person });
      await makeSubmission(w, {
        webFormId: form,
        peopleId: r.person,
        organizationId: r.org,
        dealId: r.deal,
      });
      await makeQuote(w, { leadId: r.lead, isMain: true, lines: [{ productId: r.product }] });
      await makeActivity(w, { subjectId: r.deal, type: 'emailOpen' });
      return { sequence, form, now: w.now };
    });
    expect(await one('people', r.person)).toMatchObject({
      '최근 등록한 시퀀스': ref(at.sequence, '온보딩'),
      '누적 시퀀스 등록수': 1,
      '최근 제출된 웹폼': ref(at.form, '상담 신청'),
      '제출된 웹폼 목록': [ref(at.form, '상담 신청')],
    });
    expect(await one('organization', r.org)).toMatchObject({
      '등록된 시퀀스 목록': [ref(at.sequence, '온보딩')],
      '제출된 웹폼 목록': [ref(at.form, '상담 신청')],
    });
    expect(await one('deal', r.deal)).toMatchObject({
      '최근 제출된 웹폼': ref(at.form, '상담 신청'),
      '최근 이메일 오픈일': at.now,
    });
    expect((await one('lead', r.lead))['메인 견적 상품 리스트']).toEqual([ref(r.product, 'CRM')]);
    expect((await list('activity')).map((a) => a.type)).toEqual(['emailOpen']);
  });
});

/**
 * Contract tests of the workspace-level reads (docs/decisions.md, Reads and writes): pipelines,
 * users, the token's user, teams, todos, memos, web forms and their submissions, field lists. Keys
 * in order (on the parsed records and the raw text), kinds, nulls, envelopes, cursor walks and
 * every filter. The expected keys are written out here, never imported from src/.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { insertWebForms } from '../src/resources/web-forms/writes.ts';
import { insertTeams, insertUsers } from '../src/resources/workspaces/writes.ts';
import {
  makeCustomField,
  makeDeal,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
  makeSubmission,
  makeTodo,
  makeUser,
  makeWebForm,
} from './factories.ts';
import {
  appForFile,
  get,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';
import { expectErrorA, expectShape, type Field, hasKind, N } from './shapes.ts';

const USER: Field[] = [
  ['id', 'string'],
  ['name', 'string'],
  ['status', 'string'],
  ['email', 'string'],
  ['role', 'string'],
  ['createdAt', 'timestamp'],
  ['updatedAt', 'timestamp'],
];
const TEAM: Field[] = [
  ['id', 'string'],
  ['name', 'string'],
  ['description', 'string', N],
  ['teammateList', 'refs'],
];
const TODO: Field[] = [
  ['id', 'string'],
  ['dealId', 'string', N],
  ['leadId', 'string', N],
  ['peopleId', 'string', N],
  ['organizationId', 'string', N],
  ['내용', 'string'],
  ['유형', 'string'],
  ['시작 날짜', 'timestamp', N],
  ['마지막 날짜', 'timestamp', N],
  ['완료', 'boolean'],
  ['완료 날짜', 'timestamp', N],
  ['담당자', 'ref', N],
  ['팀', 'refs'],
  ['생성 날짜', 'timestamp'],
  ['수정 날짜', 'timestamp'],
];
const TODO_CUSTOM: Field[] = [
  ['우선순위', 'string', N],
  ['관련 고객', 'ref', N],
];
/** One note (`GET /v2/memo/{memoId}`); in the list, `cursorId` follows the id. */
const MEMO: Field[] = [
  ['id', 'string'],
  ['text', 'string'],
  ['htmlBody', 'string', N],
  ['typeList', 'array'],
  ['dealId', 'string', N],
  ['leadId', 'string', N],
  ['peopleId', 'string', N],
  ['organizationId', 'string', N],
  ['productId', 'string', N],
  ['quoteId', 'string', N],
  ['todoId', 'string', N],
  ['parentId', 'string', N],
  ['ownerId', 'string', N],
  ['createdAt', 'timestamp'],
  ['updatedAt', 'timestamp'],
];
const MEMO_IN_LIST: Field[] = [MEMO[0]!, ['cursorId', 'string'], ...MEMO.slice(1)];
const WEB_FORM: Field[] = [
  ['id', 'string'],
  ['name', 'string'],
  ['description', 'string', N],
  ['status', 'string'],
  ['viewCount', 'integer'],
  ['submitCount', 'integer'],
  ['createdAt', 'timestamp'],
  ['updatedAt', 'timestamp'],
];
const SUBMISSION: Field[] = [
  ['peopleId', 'string', N],
  ['organizationId', 'string', N],
  ['dealId', 'string', N],
  ['leadId', 'string', N],
  ['contents', 'array'],
  ['createdAt', 'timestamp'],
];

/** A list page's envelope: `success`, then `data` with the list and `nextCursor`, in order. */
function expectList(res: TestResponse, listKey: string): Record<string, unknown>[] {
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['success', 'data']);
  expect(res.json.success).toBe(true);
  expect(Object.keys(res.json.data)).toEqual([listKey, 'nextCursor']);
  expect(res.text.startsWith(`{"success":true,"data":{"${listKey}":[`)).toBe(true);
  return res.json.data[listKey];
}

/** A single-object answer: `{success: true, data: {<key>: ...}}`. */
function expectOne(res: TestResponse, key: string): Record<string, unknown> {
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.json)).toEqual(['success', 'data']);
  expect(Object.keys(res.json.data)).toEqual([key]);
  return res.json.data[key];
}

/** Every record of a list with the given page size; no cursor comes twice, each is URL-safe. */
async function walkIds(token: string, url: string, listKey: string, limit: number) {
  const sep = url.includes('?') ? '&' : '?';
  const walked = await walk(app, token, `${url}${sep}limit=${limit}`, listKey);
  expect(new Set(walked.cursors).size).toBe(walked.cursors.length);
  for (const c of walked.cursors) expect(encodeURIComponent(c)).toBe(c);
  return walked;
}

const q = encodeURIComponent;

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

// ---------------------------------------------------------------------------------------------

describe('GET /v2/deal/pipeline and /v2/lead/pipeline', () => {
  let ws: TestWorkspace;
  let ids: Record<string, { id: string; stageIds: string[] }>;
  beforeAll(async () => {
    ws = await testWorkspace(store);
    ids = await ws.write(async (w) => ({
      sales: await makePipeline(w, { name: '신규 영업', stages: ['미팅', '제안', '계약'] }),
      inbound: await makePipeline(w, { kind: 'lead', name: '인바운드', stages: ['접수', '검증'] }),
      renewal: await makePipeline(w, { name: '재계약', stages: ['검토'] }),
      empty: await makePipeline(w, { name: '빈 파이프라인', stages: [] }),
    }));
  });

  it('lists deal pipelines in their order, stages in stage order indexed from 0; no cursor', async () => {
    const res = await get(app, ws.token, '/v2/deal/pipeline');
    const list = expectOne(res, 'pipelineList') as unknown as Record<string, unknown>[];
    expect(res.text.startsWith('{"success":true,"data":{"pipelineList":[{"id":')).toBe(true);
    expect(list).toEqual([
      {
        id: ids.sales!.id,
        name: '신규 영업',
        pipelineStageList: [
          { id: ids.sales!.stageIds[0], name: '미팅', index: 0 },
          { id: ids.sales!.stageIds[1], name: '제안', index: 1 },
          { id: ids.sales!.stageIds[2], name: '계약', index: 2 },
        ],
      },
      {
        id: ids.renewal!.id,
        name: '재계약',
        pipelineStageList: [{ id: ids.renewal!.stageIds[0], name: '검토', index: 0 }],
      },
      { id: ids.empty!.id, name: '빈 파이프라인', pipelineStageList: [] },
    ]);
    for (const p of list) {
      expect(Object.keys(p)).toEqual(['id', 'name', 'pipelineStageList']);
      for (const s of p.pipelineStageList as Record<string, unknown>[])
        expect(Object.keys(s)).toEqual(['id', 'name', 'index']);
    }
  });

  it('lists lead pipelines only under /v2/lead/pipeline', async () => {
    const list = expectOne(await get(app, ws.token, '/v2/lead/pipeline'), 'pipelineList');
    expect(list).toEqual([
      {
        id: ids.inbound!.id,
        name: '인바운드',
        pipelineStageList: [
          { id: ids.inbound!.stageIds[0], name: '접수', index: 0 },
          { id: ids.inbound!.stageIds[1], name: '검증', index: 1 },
        ],
      },
    ]);
  });

  it('wins over GET /v2/deal/{dealId} in the router, in shape A; the deal route still works', async () => {
    expectErrorA(await get(app, null, '/v2/deal/pipeline'), 401);
    const deal = await ws.write((w) => makeDeal(w, { name: '파이프라인 옆 딜' }));
    const one = await get(app, ws.token, `/v2/deal/${deal}`);
    expect(one.status).toBe(200);
    expect(one.json.data.deal[0].id).toBe(deal);
    const slash = await get(app, ws.token, '/v2/deal/pipeline/');
    expect(Object.keys(slash.json.data)).toEqual(['pipelineList']);
  });

  it('answers an empty list for a workspace without pipelines, and names ignored parameters', async () => {
    const other = await testWorkspace(store);
    const res = await get(app, other.token, '/v2/lead/pipeline?cursor=x&limit=1');
    expect(res.text).toBe('{"success":true,"data":{"pipelineList":[]}}');
    expect(res.headers['x-ignored-parameters']).toBe('cursor,limit');
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /v2/user, /v2/user/me, /v2/team', () => {
  let ws: TestWorkspace;
  let users: string[];
  let teams: string[];
  beforeAll(async () => {
    ws = await testWorkspace(store, '유저 워크스페이스');
    ({ users, teams } = await store.transaction(async (trx) => {
      const users = await insertUsers(trx, ws.workspaceId, [
        {
          id: 'u-b',
          name: '이영업',
          email: 'b@example.com',
          createdAt: '2024-01-02T00:00:00.000Z',
        },
        {
          id: 'u-a',
          name: '박영업',
          email: 'a@example.com',
          createdAt: '2024-01-02T00:00:00.000Z',
        },
        {
          id: 'u-c',
          name: '최퇴사',
          email: 'c@example.com',
          status: 'inactive',
          createdAt: '2024-01-03T00:00:00.000Z',
        },
      ]);
      const teams = await insertTeams(trx, ws.workspaceId, [
        { id: 't-2', name: '영업2팀', description: '수도권 영업', memberIds: ['u-c', 'u-a'] },
        { id: 't-3', name: '빈 팀', memberIds: [] },
      ]);
      return { users, teams };
    }));
  });

  it('lists users oldest first (the admin was made now), ties by id, with every key in order', async () => {
    const res = await get(app, ws.token, '/v2/user');
    const list = expectList(res, 'userList');
    expect(res.json.data.nextCursor).toBeNull();
    expect(list.map((u) => u.id)).toEqual(['u-a', 'u-b', 'u-c', ws.userId]);
    expectShapeNoNulls(list, USER);
    expect(list[3]).toMatchObject({ name: '김관리', role: 'admin', status: 'active' });
    expect(list[2]).toMatchObject({ name: '최퇴사', role: 'member', status: 'inactive' });
    expect(users).toEqual(['u-b', 'u-a', 'u-c']);
  });

  it('walks users and teams with limit=1', async () => {
    const u = await walkIds(ws.token, '/v2/user', 'userList', 1);
    expect(u.records.map((r) => r.id)).toEqual(['u-a', 'u-b', 'u-c', ws.userId]);
    expect(u.pages).toBe(4);
    const t = await walkIds(ws.token, '/v2/team', 'teamList', 1);
    expect(t.records.map((r) => r.id)).toEqual([ws.teamId, ...teams]);
  });

  it('answers the token user with its workspace as room', async () => {
    const res = await get(app, ws.token, '/v2/user/me');
    const me = expectOne(res, 'user');
    expect(Object.keys(me)).toEqual(['id', 'name', 'status', 'createdAt', 'updatedAt', 'room']);
    expect(me).toMatchObject({
      id: ws.userId,
      name: '김관리',
      status: 'active',
      room: { id: ws.workspaceId, name: '유저 워크스페이스' },
    });
    expect(Object.keys(me.room as object)).toEqual(['id', 'name']);
    expect(hasKind(me.createdAt, 'timestamp')).toBe(true);
    expect(hasKind(me.updatedAt, 'timestamp')).toBe(true);
  });

  it('answers GET /v2/me exactly as GET /v2/user/me', async () => {
    const long = await get(app, ws.token, '/v2/user/me');
    const short = await get(app, ws.token, '/v2/me');
    expect(short.status).toBe(200);
    expect(short.text).toBe(long.text);
    expect(short.json.data.user.id).toBe(ws.userId);
    expect(short.headers['content-type']).toBe(long.headers['content-type']);
    const ignored = await get(app, ws.token, '/v2/me?limit=1');
    expect(ignored.headers['x-ignored-parameters']).toBe('limit');
    const anonymous = await get(app, null, '/v2/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.success).toBe(false);
  });

  it('lists teams with their members as Refs in member order', async () => {
    const list = expectList(await get(app, ws.token, '/v2/team'), 'teamList');
    expectShape(list, TEAM);
    expect(list).toEqual([
      {
        id: ws.teamId,
        name: '영업1팀',
        description: null,
        teammateList: [{ id: ws.userId, name: '김관리' }],
      },
      {
        id: 't-2',
        name: '영업2팀',
        description: '수도권 영업',
        teammateList: [
          { id: 'u-c', name: '최퇴사' },
          { id: 'u-a', name: '박영업' },
        ],
      },
      { id: 't-3', name: '빈 팀', description: null, teammateList: [] },
    ]);
  });

  it('shows a renamed user under the new name in teams and in /v2/user/me', async () => {
    const other = await testWorkspace(store);
    await other.write(async (w) => {
      await w.trx
        .updateTable('users')
        .set({ name: '김새이름' })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', other.userId)
        .execute();
    });
    expect((await get(app, other.token, '/v2/user/me')).json.data.user.name).toBe('김새이름');
    const teamList = (await get(app, other.token, '/v2/team')).json.data.teamList;
    expect(teamList[0].teammateList).toEqual([{ id: other.userId, name: '김새이름' }]);
  });
});

/** `expectShape` for lists where no key is ever null. */
function expectShapeNoNulls(records: Record<string, unknown>[], fields: readonly Field[]): void {
  for (const record of records) {
    expect(Object.keys(record)).toEqual(fields.map((f) => f[0]));
    for (const [key, kind] of fields) expect(hasKind(record[key], kind), key).toBe(true);
  }
}

// ---------------------------------------------------------------------------------------------

describe('GET /v2/todo', () => {
  let ws: TestWorkspace;
  let f: Record<string, string>;
  beforeAll(async () => {
    ws = await testWorkspace(store);
    f = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const loner = await makeUser(w, '박혼자');
      const team2 = (
        await insertTeams(w.trx, w.workspaceId, [
          { id: 'team-0', name: '영업0팀', memberIds: [ws.userId] },
        ])
      )[0]!;
      const priority = await defineCustomField(w, {
        recordType: 'todo',
        name: '우선순위',
        type: 'singleSelect',
        options: ['높음', '낮음'],
      });
      const related = await makeCustomField(w, 'todo', '관련 고객', 'people');
      const person = await makePerson(w, { name: '홍길동' });
      const org = await makeOrganization(w);
      const deal = await makeDeal(w, { peopleId: person });
      const lead = await makeLead(w, { peopleId: person });
      const t = (n: number) => `2024-03-0${n}T00:00:00.000Z`;
      const onDeal = await makeTodo(w, {
        subjectType: 'deal',
        subjectId: deal,
        title: '견적 보내기',
        kind: '이메일',
        dueAt: '2024-05-01T01:00:00.000Z',
        ownerId: ws.userId,
        custom: { [priority]: '높음', [related]: person },
        createdAt: t(1),
      });
      const onLead = await makeTodo(w, {
        subjectType: 'lead',
        subjectId: lead,
        title: '미팅',
        kind: '미팅',
        startAt: '2024-05-02T01:00:00.000Z',
        dueAt: '2024-05-02T02:00:00.000Z',
        done: true,
        doneAt: '2024-05-02T03:00:00.000Z',
        ownerId: loner,
        createdAt: t(2),
      });
      const onPerson = await makeTodo(w, {
        subjectType: 'people',
        subjectId: person,
        title: '전화',
        ownerId: null,
        createdAt: t(3),
      });
      const onOrg = await makeTodo(w, {
        subjectType: 'organization',
        subjectId: org,
        title: '점심',
        ownerId: seller,
        createdAt: t(4),
      });
      return { seller, loner, team2, person, org, deal, lead, onDeal, onLead, onPerson, onOrg };
    });
  });

  it('lists todos oldest first: keys in order, then the todo custom fields', async () => {
    const res = await get(app, ws.token, '/v2/todo');
    const list = expectList(res, 'todoList');
    expect(res.json.data.nextCursor).toBeNull();
    expectShape(list, [...TODO, ...TODO_CUSTOM]);
    expect(list.map((t) => t.id)).toEqual([f.onDeal, f.onLead, f.onPerson, f.onOrg]);
    expect(res.text.indexOf('"dealId"')).toBeLessThan(res.text.indexOf('"leadId"'));
  });

  it('sets the id key of the subject only', async () => {
    const list = (await get(app, ws.token, '/v2/todo')).json.data.todoList;
    const subjects = list.map((t: Record<string, unknown>) => [
      t.dealId,
      t.leadId,
      t.peopleId,
      t.organizationId,
    ]);
    expect(subjects).toEqual([
      [f.deal, null, null, null],
      [null, f.lead, null, null],
      [null, null, f.person, null],
      [null, null, null, f.org],
    ]);
  });

  it('shows the owner as 담당자 and the owner’s teams as 팀 ([] without any)', async () => {
    const [onDeal, onLead, onPerson, onOrg] = (await get(app, ws.token, '/v2/todo')).json.data
      .todoList;
    expect(onDeal['담당자']).toEqual({ id: ws.userId, name: '김관리' });
    const teams = [
      { id: ws.teamId, name: '영업1팀' },
      { id: 'team-0', name: '영업0팀' },
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(onDeal['팀']).toEqual(teams);
    expect(onLead['담당자']).toEqual({ id: f.loner, name: '박혼자' });
    expect(onLead['팀']).toEqual([]);
    expect(onPerson['담당자']).toBeNull();
    expect(onPerson['팀']).toEqual([]);
    expect(onOrg['담당자']).toEqual({ id: f.seller, name: '이영업' });
    expect(onDeal).toMatchObject({
      내용: '견적 보내기',
      유형: '이메일',
      '시작 날짜': null,
      '마지막 날짜': '2024-05-01T01:00:00.000Z',
      완료: false,
      '완료 날짜': null,
      우선순위: '높음',
      '관련 고객': { id: f.person, name: '홍길동' },
    });
    expect(onLead).toMatchObject({
      '시작 날짜': '2024-05-02T01:00:00.000Z',
      완료: true,
      '완료 날짜': '2024-05-02T03:00:00.000Z',
      우선순위: null,
    });
  });

  it('follows a rename of the owner and of a team at once', async () => {
    await ws.write(async (w) => {
      await w.trx
        .updateTable('users')
        .set({ name: '이새이름' })
        .where('id', '=', f.seller!)
        .execute();
      await w.trx
        .updateTable('teams')
        .set({ name: '영업0팀 (새)' })
        .where('id', '=', 'team-0')
        .execute();
    });
    const list = (await get(app, ws.token, '/v2/todo')).json.data.todoList;
    expect(list[3]['담당자']).toEqual({ id: f.seller, name: '이새이름' });
    expect(list[0]['팀']).toContainEqual({ id: 'team-0', name: '영업0팀 (새)' });
  });

  it('walks with a cursor, limit 1 and 3', async () => {
    for (const limit of [1, 3]) {
      const walked = await walkIds(ws.token, '/v2/todo', 'todoList', limit);
      expect(walked.records.map((r) => r.id)).toEqual([f.onDeal, f.onLead, f.onPerson, f.onOrg]);
    }
  });

  it('filters by ownerId, the todo’s 담당자; the cursor is bound to it', async () => {
    const ids = async (query: string) => {
      const res = await get(app, ws.token, `/v2/todo${query}`);
      expect(res.headers['x-ignored-parameters']).toBeUndefined();
      return expectList(res, 'todoList').map((t) => t.id);
    };
    expect(await ids(`?ownerId=${ws.userId}`)).toEqual([f.onDeal]);
    expect(await ids(`?ownerId=${f.loner}`)).toEqual([f.onLead]);
    expect(await ids(`?ownerId=${f.seller}`)).toEqual([f.onOrg]);
    expect(await ids('?ownerId=no-such-user')).toEqual([]);
    const more = await ws.write(async (w) => [
      await makeTodo(w, { subjectType: 'people', subjectId: f.person!, ownerId: f.seller }),
      await makeTodo(w, { subjectType: 'people', subjectId: f.person!, ownerId: f.seller }),
    ]);
    // The last test of this block: the other tests never see these two.
    const walked = await walkIds(ws.token, `/v2/todo?ownerId=${f.seller}`, 'todoList', 1);
    expect(walked.records.map((r) => r.id)).toEqual([f.onOrg, ...more]);
    const cursor = walked.cursors[0]!;
    expectErrorA(await get(app, ws.token, `/v2/todo?cursor=${cursor}`), 400, "'cursor'");
    expectErrorA(
      await get(app, ws.token, `/v2/todo?ownerId=${f.loner}&cursor=${cursor}`),
      400,
      "'cursor'",
    );
    expectErrorA(await get(app, ws.token, '/v2/todo?ownerId=a%20b'), 400, "'ownerId'");
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /v2/memo and /v2/memo/{memoId}', () => {
  let ws: TestWorkspace;
  let f: Record<string, string>;
  // Around the Korean day 2024-04-08 (UTC 2024-04-07T15:00Z to 2024-04-08T15:00Z).
  const times = [
    '2024-04-07T14:59:59.999Z',
    '2024-04-07T15:00:00.000Z',
    '2024-04-08T05:00:00.000Z',
    '2024-04-08T14:59:59.999Z',
    '2024-04-08T15:00:00.000Z',
    '2024-04-09T00:00:00.000Z',
  ];
  beforeAll(async () => {
    ws = await testWorkspace(store);
    f = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const person = await makePerson(w);
      const org = await makeOrganization(w);
      const deal = await makeDeal(w, { peopleId: person });
      const lead = await makeLead(w, { peopleId: person });
      const product = await makeProduct(w);
      const note = (
        i: number,
        subjectType: 'deal' | 'lead' | 'people' | 'organization' | 'product',
        subjectId: string,
        authorId: string | null,
      ) =>
        makeNote(w, { subjectType, subjectId, authorId, text: `노트 ${i}`, createdAt: times[i] });
      return {
        seller,
        person,
        org,
        deal,
        lead,
        product,
        n0: await note(0, 'deal', deal, seller),
        n1: await note(1, 'lead', lead, ws.userId),
        n2: await note(2, 'people', person, seller),
        n3: await note(3, 'organization', org, null),
        n4: await note(4, 'product', product, ws.userId),
        n5: await note(5, 'deal', deal, ws.userId),
      };
    });
  });
  const all = () => [f.n0, f.n1, f.n2, f.n3, f.n4, f.n5];
  const ids = async (query: string) => {
    const res = await get(app, ws.token, `/v2/memo${query}`);
    return expectList(res, 'memoList').map((m) => m.id);
  };

  it('lists notes oldest first with every key in order; the subject id under its key', async () => {
    const res = await get(app, ws.token, '/v2/memo');
    const list = expectList(res, 'memoList');
    // Set in test/memo-live-keys.test.ts.
    expectShape(list, MEMO_IN_LIST, ['htmlBody', 'quoteId', 'todoId', 'parentId']);
    expect(list.map((m) => m.id)).toEqual(all());
    expect(list[0]).toEqual({
      id: f.n0,
      cursorId: expect.any(String),
      text: '노트 0',
      htmlBody: null,
      typeList: [],
      dealId: f.deal,
      leadId: null,
      peopleId: null,
      organizationId: null,
      productId: null,
      quoteId: null,
      todoId: null,
      parentId: null,
      ownerId: f.seller,
      createdAt: times[0],
      updatedAt: times[0],
    });
    expect(
      list.map((m) => [m.dealId, m.leadId, m.peopleId, m.organizationId, m.productId]),
    ).toEqual([
      [f.deal, null, null, null, null],
      [null, f.lead, null, null, null],
      [null, null, f.person, null, null],
      [null, null, null, f.org, null],
      [null, null, null, null, f.product],
      [f.deal, null, null, null, null],
    ]);
  });

  it('filters by ownerId and by each subject id, alone and together', async () => {
    expect(await ids(`?ownerId=${f.seller}`)).toEqual([f.n0, f.n2]);
    expect(await ids(`?ownerId=${ws.userId}`)).toEqual([f.n1, f.n4, f.n5]);
    expect(await ids(`?dealId=${f.deal}`)).toEqual([f.n0, f.n5]);
    expect(await ids(`?leadId=${f.lead}`)).toEqual([f.n1]);
    expect(await ids(`?peopleId=${f.person}`)).toEqual([f.n2]);
    expect(await ids(`?organizationId=${f.org}`)).toEqual([f.n3]);
    expect(await ids(`?dealId=${f.deal}&ownerId=${ws.userId}`)).toEqual([f.n5]);
    // A note has one subject: two subject filters match nothing.
    expect(await ids(`?dealId=${f.deal}&peopleId=${f.person}`)).toEqual([]);
    // A subject id of the wrong type, or unknown, matches nothing.
    expect(await ids(`?dealId=${f.lead}`)).toEqual([]);
    expect(await ids('?ownerId=no-such-user')).toEqual([]);
  });

  it('filters by a Korean day: startDate from 00:00 KST, endDate through 24:00 KST', async () => {
    expect(await ids('?startDate=2024-04-08&endDate=2024-04-08')).toEqual([f.n1, f.n2, f.n3]);
    expect(await ids('?startDate=2024-04-08')).toEqual([f.n1, f.n2, f.n3, f.n4, f.n5]);
    expect(await ids('?endDate=2024-04-07')).toEqual([f.n0]);
    expect(await ids('?startDate=2024-04-09')).toEqual([f.n4, f.n5]);
    expect(await ids('?startDate=2024-04-09&endDate=2024-04-09&dealId=' + f.deal)).toEqual([f.n5]);
  });

  it('filters by ISO 8601 times with offsets; the end instant is included', async () => {
    expect(await ids(`?startDate=${q('2024-04-08T14:00:00+09:00')}`)).toEqual([
      f.n2,
      f.n3,
      f.n4,
      f.n5,
    ]);
    expect(await ids(`?endDate=${q('2024-04-08T14:00:00+09:00')}`)).toEqual([f.n0, f.n1, f.n2]);
    expect(
      await ids('?startDate=2024-04-07T15:00:00.000Z&endDate=2024-04-07T15:00:00.000Z'),
    ).toEqual([f.n1]);
    // An unencoded `+` arrives as a space and still reads as the offset's sign.
    expect(await ids('?endDate=2024-04-08T14:00:00+09:00')).toEqual([f.n0, f.n1, f.n2]);
  });

  it('walks with a cursor under filters; the cursor is bound to them, not to limit', async () => {
    const walked = await walkIds(ws.token, '/v2/memo', 'memoList', 1);
    expect(walked.records.map((r) => r.id)).toEqual(all());
    const filtered = await walkIds(ws.token, `/v2/memo?ownerId=${ws.userId}`, 'memoList', 2);
    expect(filtered.records.map((r) => r.id)).toEqual([f.n1, f.n4, f.n5]);
    const first = await get(app, ws.token, `/v2/memo?ownerId=${ws.userId}&limit=1`);
    const cursor = first.json.data.nextCursor;
    const same = await get(app, ws.token, `/v2/memo?ownerId=${ws.userId}&limit=5&cursor=${cursor}`);
    expect(same.json.data.memoList.map((m: { id: string }) => m.id)).toEqual([f.n4, f.n5]);
    expectErrorA(await get(app, ws.token, `/v2/memo?cursor=${cursor}`), 400, "'cursor'");
    expectErrorA(
      await get(app, ws.token, `/v2/memo?ownerId=${f.seller}&cursor=${cursor}`),
      400,
      "'cursor'",
    );
    expectErrorA(await get(app, ws.token, `/v2/todo?cursor=${cursor}`), 400, "'cursor'");
  });

  it('filters by typeId, the _id of a note type (GET /v2/memo/type-list); the cursor is bound to it', async () => {
    const typed = await testWorkspace(store);
    const n = await typed.write(async (w) => {
      const person = await makePerson(w);
      const deal = await makeDeal(w, { peopleId: person });
      const note = (typeId: string | null, subjectType: 'deal' | 'people', i: number) =>
        makeNote(w, {
          subjectType,
          subjectId: subjectType === 'deal' ? deal : person,
          authorId: null,
          typeId,
          createdAt: times[i],
        });
      return {
        deal,
        call: await note('memo-type-call', 'deal', 0),
        meeting: await note('memo-type-meeting', 'people', 1),
        none: await note(null, 'deal', 2),
        call2: await note('memo-type-call', 'people', 3),
      };
    });
    const typedIds = async (query: string) => {
      const res = await get(app, typed.token, `/v2/memo${query}`);
      expect(res.headers['x-ignored-parameters']).toBeUndefined();
      return expectList(res, 'memoList').map((m) => m.id);
    };
    expect(await typedIds('?typeId=memo-type-call')).toEqual([n.call, n.call2]);
    expect(await typedIds('?typeId=memo-type-meeting')).toEqual([n.meeting]);
    expect(await typedIds('?typeId=memo-type-email')).toEqual([]);
    expect(await typedIds(`?typeId=memo-type-call&dealId=${n.deal}`)).toEqual([n.call]);
    const res = await get(app, typed.token, '/v2/memo?typeId=memo-type-meeting');
    expect(expectList(res, 'memoList')[0]!.typeList).toEqual([
      { _id: 'memo-type-meeting', value: '미팅', color: 'lime' },
    ]);
    const walked = await walkIds(typed.token, '/v2/memo?typeId=memo-type-call', 'memoList', 1);
    expect(walked.records.map((r) => r.id)).toEqual([n.call, n.call2]);
    const cursor = walked.cursors[0]!;
    expectErrorA(await get(app, typed.token, `/v2/memo?cursor=${cursor}`), 400, "'cursor'");
    expectErrorA(
      await get(app, typed.token, `/v2/memo?typeId=memo-type-meeting&cursor=${cursor}`),
      400,
      "'cursor'",
    );
    expectErrorA(await get(app, typed.token, '/v2/memo?typeId=memo-type-lunch'), 400, "'typeId'");
  });

  it('answers one note as an object under `memo`', async () => {
    const res = await get(app, ws.token, `/v2/memo/${f.n3}`);
    const memo = expectOne(res, 'memo');
    expect(Array.isArray(memo)).toBe(false);
    expect(Object.keys(memo)).toEqual(MEMO.map((m) => m[0]));
    expect(memo).toMatchObject({ id: f.n3, text: '노트 3', organizationId: f.org, ownerId: null });
    const list = (await get(app, ws.token, '/v2/memo')).json.data.memoList;
    const { cursorId, ...listed } = list[3];
    expect(memo).toEqual(listed);
    expectErrorA(await get(app, ws.token, '/v2/memo/no-such-memo'), 404);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /v2/webForm and /v2/webForm/{webFormId}/submit', () => {
  let ws: TestWorkspace;
  let f: Record<string, string>;
  beforeAll(async () => {
    ws = await testWorkspace(store);
    f = await ws.write(async (w) => {
      const [form, quiet] = await insertWebForms(w, [
        {
          name: '도입 문의',
          description: '홈페이지 문의 양식',
          viewCount: 120,
          createdAt: '2024-01-01T00:00:00.000Z',
        },
        { name: '설문', status: 'inactive', createdAt: '2024-01-02T00:00:00.000Z' },
      ]);
      const third = await makeWebForm(w, '세미나 신청');
      const person = await makePerson(w);
      const org = await makeOrganization(w);
      const deal = await makeDeal(w, { peopleId: person });
      const lead = await makeLead(w, { peopleId: person });
      const s = (n: number) => `2024-02-0${n}T00:00:00.000Z`;
      await makeSubmission(w, {
        webFormId: form!,
        peopleId: person,
        organizationId: org,
        contents: [
          { label: '이름', value: '홍길동' },
          { label: '회사명', value: '(주)한빛' },
        ],
        createdAt: s(1),
      });
      await makeSubmission(w, { webFormId: form!, dealId: deal, createdAt: s(2) });
      await makeSubmission(w, { webFormId: form!, leadId: lead, createdAt: s(3) });
      await makeSubmission(w, { webFormId: third, peopleId: person, createdAt: s(4) });
      return { form: form!, quiet: quiet!, third, person, org, deal, lead };
    });
  });

  it('lists web forms oldest first with their submission counts', async () => {
    const res = await get(app, ws.token, '/v2/webForm');
    const list = expectList(res, 'webFormList');
    expectShape(list, WEB_FORM);
    expect(list.map((x) => [x.id, x.status, x.viewCount, x.submitCount])).toEqual([
      [f.form, 'active', 120, 3],
      [f.quiet, 'inactive', 0, 0],
      [f.third, 'active', 0, 1],
    ]);
    expect(list[0]).toMatchObject({ name: '도입 문의', description: '홈페이지 문의 양식' });
    const walked = await walkIds(ws.token, '/v2/webForm', 'webFormList', 1);
    expect(walked.records.map((r) => r.id)).toEqual([f.form, f.quiet, f.third]);
  });

  it('lists a form’s submissions oldest first, with links and contents', async () => {
    const res = await get(app, ws.token, `/v2/webForm/${f.form}/submit`);
    const list = expectList(res, 'webFormSubmitList');
    expectShape(list, SUBMISSION);
    expect(list[0]).toEqual({
      peopleId: f.person,
      organizationId: f.org,
      dealId: null,
      leadId: null,
      contents: [
        { label: '이름', value: '홍길동' },
        { label: '회사명', value: '(주)한빛' },
      ],
      createdAt: '2024-02-01T00:00:00.000Z',
    });
    expect(list.map((x) => [x.dealId, x.leadId])).toEqual([
      [null, null],
      [f.deal, null],
      [null, f.lead],
    ]);
    for (const c of list[1]!.contents as object[])
      expect(Object.keys(c)).toEqual(['label', 'value']);
    const walked = await walkIds(ws.token, `/v2/webForm/${f.form}/submit`, 'webFormSubmitList', 2);
    expect(walked.records.map((r) => r.createdAt)).toEqual([
      '2024-02-01T00:00:00.000Z',
      '2024-02-02T00:00:00.000Z',
      '2024-02-03T00:00:00.000Z',
    ]);
    const empty = await get(app, ws.token, `/v2/webForm/${f.quiet}/submit`);
    expect(empty.text).toBe('{"success":true,"data":{"webFormSubmitList":[],"nextCursor":null}}');
  });

  it('binds a submission cursor to its form; an unknown form is 404', async () => {
    const first = await get(app, ws.token, `/v2/webForm/${f.form}/submit?limit=1`);
    const cursor = first.json.data.nextCursor;
    expect(typeof cursor).toBe('string');
    expectErrorA(
      await get(app, ws.token, `/v2/webForm/${f.third}/submit?cursor=${cursor}`),
      400,
      "'cursor'",
    );
    expectErrorA(await get(app, ws.token, '/v2/webForm/no-such-form/submit'), 404);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /v2/field/{type}', () => {
  let ws: TestWorkspace;
  let f: Record<string, string>;
  beforeAll(async () => {
    ws = await testWorkspace(store);
    f = await ws.write(async (w) => {
      const grade = await defineCustomField(w, {
        recordType: 'people',
        name: '고객 등급',
        type: 'singleSelect',
        options: ['VIP', '일반'],
        required: true,
      });
      const note = await makeCustomField(w, 'people', '메모 필드');
      const tags = await defineCustomField(w, {
        recordType: 'people',
        name: '관심사',
        type: 'multiSelect',
        options: ['CRM'],
      });
      const discount = await makeCustomField(w, 'quoteProduct', '할인율', 'number');
      const priority = await makeCustomField(w, 'todo', '우선순위');
      await makePerson(w);
      return { grade, note, tags, discount, priority };
    });
  });
  const fields = async (type: string) => {
    const res = await get(app, ws.token, `/v2/field/${type}`);
    return expectOne(res, 'fieldList') as unknown as Record<string, unknown>[];
  };

  it('lists the built-in fields in record key order, then the custom fields in definition order', async () => {
    const list = await fields('people');
    const person = (await get(app, ws.token, '/v2/people')).json.data.peopleList[0];
    expect(list.map((x) => x.name)).toEqual(Object.keys(person));
    expect(list.slice(-3).map((x) => x.id)).toEqual([f.grade, f.note, f.tags]);
    for (const x of list) {
      const keys = ['id', 'name', 'type', 'required'];
      if (x.type === 'singleSelect' || x.type === 'multiSelect') keys.push('optionList');
      expect(Object.keys(x)).toEqual(keys);
      expect(typeof x.id).toBe('string');
      expect(typeof x.required).toBe('boolean');
    }
    expect(list.find((x) => x.name === '이름')).toEqual({
      id: '이름',
      name: '이름',
      type: 'string',
      required: true,
    });
    const grade = list.find((x) => x.id === f.grade)!;
    expect(grade).toMatchObject({ name: '고객 등급', type: 'singleSelect', required: true });
    expect((grade.optionList as { value: string }[]).map((o) => o.value)).toEqual(['VIP', '일반']);
    for (const o of grade.optionList as object[]) expect(Object.keys(o)).toEqual(['id', 'value']);
    expect(list.find((x) => x.id === f.note)).toEqual({
      id: f.note,
      name: '메모 필드',
      type: 'string',
      required: false,
    });
  });

  it('answers every record type, with its own custom fields only', async () => {
    for (const type of ['organization', 'deal', 'lead', 'product', 'quote']) {
      const list = await fields(type);
      expect(list.length, type).toBeGreaterThan(5);
      expect(list[0]).toMatchObject({ id: 'id', name: 'id' });
      expect(JSON.stringify(list)).not.toContain(f.grade!);
    }
    const product = await fields('product');
    expect(product.find((x) => x.name === '유형')!.optionList).toEqual([
      { id: '일반', value: '일반' },
      { id: '구독 (월간)', value: '구독 (월간)' },
      { id: '구독 (연간)', value: '구독 (연간)' },
    ]);
    const lines = await fields('quote-product');
    expect(lines.at(-1)).toEqual({
      id: f.discount,
      name: '할인율',
      type: 'number',
      required: false,
    });
    const todo = await fields('todo');
    expect(todo.map((x) => x.name)).toEqual([...TODO.map((t) => t[0]), '우선순위']);
  });
});

/**
 * Notes and todos written through the API: `POST /v2/{people|organization|deal|lead}/{id}/memo`
 * and `POST /v2/todo`, `POST /v2/todo/{todoId}` (`완료` completes), `POST /v2/todo/{todoId}/delete`.
 * Each read back through the memo and todo lists, the records' NOTE and TODO groups and
 * their activities; the records' events; bad input in shape A with `reason`, writing nothing;
 * isolation between workspaces.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { makeDeal, makeLead, makeOrganization, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { expectErrorA, MEMO_KEYS } from './shapes.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;
type Subject = 'people' | 'organization' | 'deal' | 'lead';

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let ids: Record<Subject, string>;
appWithWorkspace((made) => ({ store, app, ws } = made));
beforeEach(async () => {
  ids = await ws.write(async (w) => {
    const organization = await makeOrganization(w, { name: '회사' });
    const people = await makePerson(w, { name: '고객', organizationId: organization });
    return {
      organization,
      people,
      deal: await makeDeal(w, { name: '딜', peopleId: people }),
      lead: await makeLead(w, { name: '리드', peopleId: people }),
    };
  });
});

const SUBJECT_KEY: Record<Subject, string> = {
  people: 'peopleId',
  organization: 'organizationId',
  deal: 'dealId',
  lead: 'leadId',
};

async function ok(url: string, body: unknown, status = 200, token = ws.token): Promise<Rec> {
  const res = await post(app, token, url, body);
  expect(res.status, `${url}: ${res.text}`).toBe(status);
  expect(Object.keys(res.json)).toEqual(
    status === 200 && body === undefined ? ['success'] : ['success', 'data'],
  );
  return res.json.data;
}

/** The record as its list shows it (the stored read model). */
async function listed(type: Subject, id: string, token = ws.token): Promise<Rec> {
  const res = await get(app, token, `/v2/${type}?limit=100`);
  const list = Object.values(res.json.data).find(Array.isArray) as Rec[];
  return list.find((r) => r.id === id)!;
}

async function activities(type: Subject, id: string): Promise<Rec[]> {
  const res = await get(app, ws.token, `/v2/${type}/activity?${SUBJECT_KEY[type]}=${id}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return Object.values(res.json.data).find(Array.isArray) as Rec[];
}

async function todos(token = ws.token): Promise<Rec[]> {
  return (await get(app, token, '/v2/todo?limit=100')).json.data.todoList;
}

async function newTodo(type: Subject, id: string, fieldList: Rec[]): Promise<string> {
  const data = await ok('/v2/todo', { [SUBJECT_KEY[type]]: id, fieldList }, 201);
  return (data.todo as Rec).id as string;
}

describe('POST /v2/{type}/{id}/memo', () => {
  for (const type of ['people', 'organization', 'deal', 'lead'] as const) {
    it(`writes a note on a ${type}: the memo, the NOTE group, a memoCreate activity`, async () => {
      const data = await ok(
        `/v2/${type}/${ids[type]}/memo`,
        { text: '첫 통화 메모', typeId: 'memo-type-call' },
        201,
      );
      const memo = data.memo as Rec;
      expect(Object.keys(memo)).toEqual(MEMO_KEYS);
      expect(memo).toMatchObject({
        text: '첫 통화 메모',
        typeList: [{ _id: 'memo-type-call', value: '통화', color: 'orange' }],
        [SUBJECT_KEY[type]]: ids[type],
        ownerId: ws.userId,
      });
      // Read back: the memo itself, the memo list filtered by the record.
      const one = await get(app, ws.token, `/v2/memo/${memo.id}`);
      expect(one.json.data.memo).toEqual(memo);
      const list = await get(app, ws.token, `/v2/memo?${SUBJECT_KEY[type]}=${ids[type]}`);
      // The list's record also has the cursor that continues after it.
      const { cursorId, ...listed0 } = list.json.data.memoList[0];
      expect(list.json.data.memoList).toHaveLength(1);
      expect(listed0).toEqual(memo);
      expect(typeof cursorId).toBe('string');
      // The record's NOTE group, in its stored JSON.
      const record = await listed(type, ids[type]);
      expect(record['최근 작성된 노트']).toBe('첫 통화 메모');
      expect(record['최근 노트 작성일']).toBe(memo.createdAt);
      expect((record['최근 노트 작성자'] as Rec).id).toBe(ws.userId);
      // Its memoCreate activity.
      const acts = (await activities(type, ids[type])).filter((a) => a.type === 'memoCreate');
      expect(acts.map((a) => a.memoId)).toEqual([memo.id]);
      // A note without a type has none.
      const plain = await ok(`/v2/${type}/${ids[type]}/memo`, { text: '두번째' }, 201);
      expect((plain.memo as Rec).typeList).toEqual([]);
      expect((await listed(type, ids[type]))['최근 작성된 노트']).toBe('두번째');
    });
  }

  it('the record changes as an API write: its NOTE keys fire 수정 events of source API', async () => {
    await ok(`/v2/deal/${ids.deal}/memo`, { text: '이벤트 메모' }, 201);
    const events = (await get(app, ws.token, '/v2/event?objectType=deal&limit=100')).json.data
      .eventList as Rec[];
    const change = events.find(
      (e) => e.objectId === ids.deal && e.fieldName === '최근 작성된 노트',
    );
    expect(change).toMatchObject({
      event: '수정',
      source: 'API',
      sourceId: ws.userId,
      beforeField: null,
      afterField: '이벤트 메모',
    });
  });

  it('refuses bad input in shape A with reason, and writes nothing', async () => {
    const cases: [string, unknown, number, string][] = [
      [`/v2/deal/${ids.deal}/memo`, {}, 400, 'text'],
      [`/v2/deal/${ids.deal}/memo`, { text: '' }, 400, 'text'],
      [`/v2/deal/${ids.deal}/memo`, { text: '   ' }, 400, 'text'],
      [`/v2/deal/${ids.deal}/memo`, { text: 7 }, 400, 'text'],
      [`/v2/deal/${ids.deal}/memo`, { text: '메모', typeId: 'memo-type-nope' }, 400, 'typeId'],
      [`/v2/deal/${ids.deal}/memo`, { text: '메모\u0000' }, 400, 'text'],
      [`/v2/deal/${ids.deal}/memo`, [], 400, ''],
      ['/v2/deal/no-such-deal/memo', { text: '메모' }, 404, 'no-such-deal'],
      [`/v2/people/${ids.deal}/memo`, { text: '메모' }, 404, ids.deal],
      [`/v2/lead/${ids.deal}/memo`, { text: '메모' }, 404, ids.deal],
      ['/v2/organization/%ED%9A%8C/memo', { text: '메모' }, 400, 'organizationId'],
    ];
    for (const [url, body, status, names] of cases) {
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, url, body);
      expectErrorA(res, status, names);
      expect(await tableSnapshot(store), url).toEqual(snap);
    }
  });

  it("another workspace's record is not found, and its notes are not seen", async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const snap = await tableSnapshot(store);
    expectErrorA(
      await post(app, other.token, `/v2/deal/${ids.deal}/memo`, { text: '남의 것' }),
      404,
    );
    expect(await tableSnapshot(store)).toEqual(snap);
    const theirs = await other.write((w) => makePerson(w, { name: '남의 고객' }));
    await ok(`/v2/people/${theirs}/memo`, { text: '남의 메모' }, 201, other.token);
    expect((await get(app, ws.token, '/v2/memo')).json.data.memoList).toEqual([]);
    expect((await listed('people', ids.people))['최근 작성된 노트']).toBeNull();
  });
});

describe('todos', () => {
  it('creates a todo on each record type: the todo, the TODO group, a todoCreate activity', async () => {
    for (const type of ['people', 'organization', 'deal', 'lead'] as const) {
      const id = await newTodo(type, ids[type], [
        { name: '내용', stringValue: `${type} 전화` },
        { name: '유형', stringValue: '전화' },
        { name: '마지막 날짜', dateValue: '2024-05-01T09:00:00.000Z' },
      ]);
      const todo = (await todos()).find((t) => t.id === id)!;
      expect(todo).toMatchObject({
        [SUBJECT_KEY[type]]: ids[type],
        내용: `${type} 전화`,
        유형: '전화',
        '시작 날짜': null,
        '마지막 날짜': '2024-05-01T09:00:00.000Z',
        완료: false,
        '완료 날짜': null,
        담당자: { id: ws.userId, name: expect.any(String) },
      });
      const record = await listed(type, ids[type]);
      expect(record).toMatchObject({
        '다음 TODO': `${type} 전화`,
        '전체 TODO': 1,
        '완료 TODO': 0,
        '미완료 TODO': 1,
      });
      const acts = (await activities(type, ids[type])).filter((a) => a.type === 'todoCreate');
      expect(acts.map((a) => a.todoId)).toEqual([id]);
    }
  });

  it('updates, completes, reopens and deletes a todo; the record follows at each step', async () => {
    const later = await newTodo('deal', ids.deal, [
      { name: '내용', stringValue: '나중 일' },
      { name: '마지막 날짜', dateValue: '2024-06-01T00:00:00.000Z' },
    ]);
    const sooner = await newTodo('deal', ids.deal, [
      { name: '내용', stringValue: '먼저 할 일' },
      { name: '마지막 날짜', dateValue: '2024-05-01T00:00:00.000Z' },
    ]);
    const counts = async () => {
      const r = await listed('deal', ids.deal);
      return [r['다음 TODO'], r['전체 TODO'], r['완료 TODO'], r['미완료 TODO']];
    };
    expect(await counts()).toEqual(['먼저 할 일', 2, 0, 2]);
    // A new title and a later due date: the other todo comes next.
    const updated = await ok(`/v2/todo/${sooner}`, {
      fieldList: [
        { name: '내용', stringValue: '미룬 일' },
        { name: '마지막 날짜', dateValue: '2024-07-01T00:00:00.000Z' },
        { name: '유형', stringValue: '미팅' },
      ],
    });
    expect(updated.todo).toEqual({ id: sooner, name: '미룬 일', updatedAt: expect.any(String) });
    expect(await counts()).toEqual(['나중 일', 2, 0, 2]);
    // Completed: 완료 and 완료 날짜 set, the counts move.
    await ok(`/v2/todo/${later}`, { fieldList: [{ name: '완료', booleanValue: true }] });
    const done = (await todos()).find((t) => t.id === later)!;
    expect(done.완료).toBe(true);
    expect(done['완료 날짜']).toEqual(done['수정 날짜']);
    expect(await counts()).toEqual(['미룬 일', 2, 1, 1]);
    // Opened again.
    await ok(`/v2/todo/${later}`, { fieldList: [{ name: '완료', booleanValue: false }] });
    const open = (await todos()).find((t) => t.id === later)!;
    expect([open.완료, open['완료 날짜']]).toEqual([false, null]);
    expect(await counts()).toEqual(['나중 일', 2, 0, 2]);
    // An update that changes nothing keeps 수정 날짜.
    const before = (await todos()).find((t) => t.id === later)!;
    await ok(`/v2/todo/${later}`, { fieldList: [{ name: '내용', stringValue: '나중 일' }] });
    expect((await todos()).find((t) => t.id === later)).toEqual(before);
    // Deleted: gone from the list, its activity gone, the counts down.
    expect(await ok(`/v2/todo/${later}/delete`, undefined)).toBeUndefined();
    expect((await todos()).map((t) => t.id)).toEqual([sooner]);
    const acts = (await activities('deal', ids.deal)).filter((a) => a.type === 'todoCreate');
    expect(acts.map((a) => a.todoId)).toEqual([sooner]);
    expect(await counts()).toEqual(['미룬 일', 1, 0, 1]);
    expectErrorA(await post(app, ws.token, `/v2/todo/${later}/delete`, {}), 404, later);
  });

  it('the record’s TODO keys change as the system’s events, in the write’s eventId', async () => {
    const id = await newTodo('people', ids.people, [{ name: '내용', stringValue: '이벤트' }]);
    await ok(`/v2/todo/${id}`, { fieldList: [{ name: '완료', booleanValue: true }] });
    const events = (await get(app, ws.token, '/v2/event?objectType=people&limit=100')).json.data
      .eventList as Rec[];
    const mine = events.filter((e) => e.objectId === ids.people);
    expect(mine.find((e) => e.fieldName === '전체 TODO')).toMatchObject({
      event: '수정',
      source: '시스템',
      beforeField: 0,
      afterField: 1,
    });
    expect(mine.find((e) => e.fieldName === '완료 TODO')).toMatchObject({
      source: '시스템',
      beforeField: 0,
      afterField: 1,
    });
  });

  it('takes an owner and custom fields through fieldList; a required custom field must be set', async () => {
    const other = await ok(
      '/v2/field/todo',
      { name: '우선순위', type: 'singleSelect', options: [{ value: '높음' }, { value: '낮음' }] },
      201,
    );
    expect((other.field as Rec).name).toBe('우선순위');
    const id = await newTodo('lead', ids.lead, [
      { name: '내용', stringValue: '연락' },
      { name: '담당자', userValueId: null },
      { name: '우선순위', stringValue: '높음' },
    ]);
    const todo = (await todos()).find((t) => t.id === id)!;
    expect([todo.담당자, todo.팀, todo.우선순위]).toEqual([null, [], '높음']);
  });

  it('refuses bad input in shape A with reason, and writes nothing', async () => {
    const existing = await newTodo('deal', ids.deal, [{ name: '내용', stringValue: '있는 일' }]);
    const title = { name: '내용', stringValue: '일' };
    const cases: [string, unknown, number, string][] = [
      ['/v2/todo', { fieldList: [title] }, 400, 'dealId'],
      ['/v2/todo', { dealId: ids.deal, leadId: ids.lead, fieldList: [title] }, 400, 'leadId'],
      ['/v2/todo', { dealId: ids.deal }, 400, 'fieldList'],
      ['/v2/todo', { dealId: ids.deal, fieldList: [] }, 400, '내용'],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [{ name: '내용', stringValue: ' ' }] },
        400,
        '내용',
      ],
      ['/v2/todo', { dealId: 'no-such-deal', fieldList: [title] }, 400, 'dealId'],
      ['/v2/todo', { peopleId: ids.deal, fieldList: [title] }, 400, 'peopleId'],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '유형', stringValue: '수영' }] },
        400,
        '유형',
      ],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '완료', stringValue: '예' }] },
        400,
        '완료',
      ],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '마지막 날짜', dateValue: '어제' }] },
        400,
        '마지막 날짜',
      ],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '완료 날짜', dateValue: '2024-01-01' }] },
        400,
        '완료 날짜',
      ],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '담당자', userValueId: 'nobody' }] },
        400,
        'nobody',
      ],
      [
        '/v2/todo',
        { dealId: ids.deal, fieldList: [title, { name: '없는 필드' }] },
        400,
        '없는 필드',
      ],
      [`/v2/todo/${existing}`, {}, 400, 'fieldList'],
      [`/v2/todo/${existing}`, { fieldList: [{ name: '내용', stringValue: null }] }, 400, '내용'],
      [`/v2/todo/${existing}`, { fieldList: [{ name: '유형', stringValue: null }] }, 400, '유형'],
      ['/v2/todo/no-such-todo', { fieldList: [title] }, 404, 'no-such-todo'],
      [`/v2/todo/${ids.deal}`, { fieldList: [title] }, 404, ids.deal],
      ['/v2/todo/no-such-todo/delete', {}, 404, 'no-such-todo'],
      [`/v2/todo/${'x'.repeat(65)}/delete`, {}, 400, 'todoId'],
    ];
    for (const [url, body, status, names] of cases) {
      const snap = await tableSnapshot(store);
      const res = await post(app, ws.token, url, body);
      expectErrorA(res, status, names);
      expect(await tableSnapshot(store), `${url} ${JSON.stringify(body)}`).toEqual(snap);
    }
  });

  it("another workspace's todos and records are not found, and its todos are not seen", async () => {
    const mine = await newTodo('deal', ids.deal, [{ name: '내용', stringValue: '내 일' }]);
    const other = await testWorkspace(store, '다른 워크스페이스');
    const snap = await tableSnapshot(store);
    const title = [{ name: '내용', stringValue: '남의 일' }];
    expectErrorA(await post(app, other.token, `/v2/todo/${mine}`, { fieldList: title }), 404);
    expectErrorA(await post(app, other.token, `/v2/todo/${mine}/delete`, {}), 404);
    expectErrorA(
      await post(app, other.token, '/v2/todo', { dealId: ids.deal, fieldList: title }),
      400,
      'dealId',
    );
    expect(await tableSnapshot(store)).toEqual(snap);
    const theirs = await other.write((w) => makePerson(w, { name: '남의 고객' }));
    const data = await ok('/v2/todo', { peopleId: theirs, fieldList: title }, 201, other.token);
    expect((await todos()).map((t) => t.id)).toEqual([mine]);
    expect((await todos(other.token)).map((t) => t.id)).toEqual([(data.todo as Rec).id]);
    expect((await listed('people', ids.people))['전체 TODO']).toBe(0);
  });
});

describe('a note’s type in the export', () => {
  it('is exported and imported; a note line of an earlier export (no type_id) imports untyped', async () => {
    // A store of its own, on a file: the export reads the database apart from the app.
    const fileStore = await testStore();
    // Removed in the end whatever happens: a failed run leaves no file behind.
    const file = join(tmpdir(), `salescrm-memo-types-${randomUUID()}.ndjson`);
    const fileApp = await testApp(fileStore);
    try {
      const mine = await testWorkspace(fileStore);
      const dealId = await mine.write((w) => makeDeal(w, { name: '딜' }));
      const res = await post(fileApp, mine.token, `/v2/deal/${dealId}/memo`, {
        text: '유형 있음',
        typeId: 'memo-type-email',
      });
      expect(res.status, res.text).toBe(201);
      const typed = res.json.data.memo as Rec;
      const out = createWriteStream(file);
      // SQLite's file, or PostgreSQL's URL.
      await exportWorkspace(fileStore.path || fileStore.url, mine.workspaceId, out);
      out.end();
      await finished(out);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      const note = lines.find((l) => l.includes('"유형 있음"'))!;
      expect(JSON.parse(note).type_id).toBe('memo-type-email');
      // The same file with the note line as an earlier export wrote it.
      const old = JSON.parse(note) as Rec;
      delete old.type_id;
      writeFileSync(
        `${file}.old`,
        lines.map((l) => (l === note ? JSON.stringify(old) : l)).join('\n'),
      );
      for (const [path, typeList] of [
        [file, typed.typeList],
        [`${file}.old`, []],
      ] as const) {
        const workspaceId = await createWorkspace(fileStore, '가져온 워크스페이스');
        const result = await importFiles(fileStore, { workspaceId, files: [path], actorId: '' });
        expect(result.rejects).toEqual([]);
        const admin = await firstAdmin(fileStore, workspaceId);
        const { token } = await createToken(fileStore, workspaceId, admin!);
        const memo = (await get(fileApp, token, `/v2/memo/${typed.id}`)).json.data.memo;
        expect(memo.typeList).toEqual(typeList);
      }
    } finally {
      rmSync(file, { force: true });
      rmSync(`${file}.old`, { force: true });
      await fileApp.close();
      await fileStore.dispose();
    }
  });
});

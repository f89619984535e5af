/**
 * The sequence reads (docs/decisions.md, Other resources) and enroll/unenroll (ours): shapes and
 * key order, `_id` keys, cursors, `null` with 200 for an unknown sequence, the timeline's 400s,
 * isolation; an enrollment read back through the person's and its organization's records, with
 * their events, and refused writes that leave every table as it was.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  insertSequenceSteps,
  insertSequences,
  insertTimelineEvents,
} from '../src/resources/sequences/writes.ts';
import { createToken } from '../src/resources/workspaces/writes.ts';
import { makeDeal, makeEnrollment, makeOrganization, makePerson } from './factories.ts';
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
appWithWorkspace((made) => ({ store, app, ws } = made));

const UNKNOWN = '01890000-0000-7000-8000-000000000000';

/** A sequence with a description and three steps. */
async function sequenceWithSteps(w: TestWorkspace, name = '웰컴 메일') {
  return w.write(async (x) => {
    const [id] = await insertSequences(x, [{ name, description: `${name} 설명` }]);
    const steps = await insertSequenceSteps(x, [
      {
        sequenceId: id!,
        index: 0,
        type: 'sendEmail',
        executeImmediately: true,
        businessDay: 0,
        executionTime: null,
      },
      {
        sequenceId: id!,
        index: 2,
        type: 'sendEmail',
        executeImmediately: false,
        businessDay: 3,
        executionTime: '1000',
      },
      {
        sequenceId: id!,
        index: 1,
        type: 'createTodo',
        executeImmediately: false,
        businessDay: 2,
        executionTime: '0930',
      },
    ]);
    return { id: id!, steps };
  });
}

describe('GET /v2/sequence and /v2/sequence/{sequenceId}', () => {
  it('lists sequences oldest first with `_id`, name, description and createdAt, and pages them', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await sequenceWithSteps(ws, `시퀀스 ${i}`)).id);
    const res = await get(app, ws.token, '/v2/sequence');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['sequenceList', 'nextCursor']);
    const first = res.json.data.sequenceList[0] as Rec;
    expect(Object.keys(first)).toEqual(['_id', 'name', 'description', 'createdAt']);
    expect(first).toMatchObject({ _id: made[0], name: '시퀀스 0', description: '시퀀스 0 설명' });
    expect(res.json.data.nextCursor).toBeNull();
    const walked = await walk(app, ws.token, '/v2/sequence?limit=2', 'sequenceList');
    expect(walked.pages).toBe(3);
    expect(walked.records.map((r) => r._id)).toEqual(made);
    expect(new Set(walked.cursors).size).toBe(walked.cursors.length);
  });

  it('is `[]` with a null cursor for a workspace without sequences', async () => {
    const res = await get(app, ws.token, '/v2/sequence');
    expect(res.json).toEqual({ success: true, data: { sequenceList: [], nextCursor: null } });
  });

  it('reads one sequence, and answers `null` with 200 for one the workspace lacks', async () => {
    const { id } = await sequenceWithSteps(ws);
    const res = await get(app, ws.token, `/v2/sequence/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['sequence']);
    expect(res.json.data.sequence).toMatchObject({ _id: id, name: '웰컴 메일' });
    const missing = await get(app, ws.token, `/v2/sequence/${UNKNOWN}`);
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual({ success: true, data: { sequence: null } });
    const bad = await get(app, ws.token, '/v2/sequence/bad%20id');
    expect(bad.status).toBe(400);
    expect(bad.json.success).toBe(false);
    expect(bad.json.message).toContain('sequenceId');
  });

  it('refuses a cursor of another list', async () => {
    for (let i = 0; i < 3; i++) await sequenceWithSteps(ws, `시퀀스 ${i}`);
    const page = await get(app, ws.token, '/v2/sequence?limit=1');
    const cursor = page.json.data.nextCursor as string;
    const { id } = await sequenceWithSteps(ws, '다른');
    const res = await get(app, ws.token, `/v2/sequence/${id}/step?cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('cursor');
  });
});

describe('GET /v2/sequence/{sequenceId}/step', () => {
  it('lists steps in step order with the live keys, and pages them', async () => {
    const { id, steps } = await sequenceWithSteps(ws);
    const res = await get(app, ws.token, `/v2/sequence/${id}/step`);
    expect(res.status, res.text).toBe(200);
    const list = res.json.data.stepList as Rec[];
    expect(Object.keys(list[0]!)).toEqual([
      'id',
      'type',
      'index',
      'executeImmediately',
      'businessDay',
      'executionTime',
    ]);
    expect(list).toEqual([
      {
        id: steps[0],
        type: 'sendEmail',
        index: 0,
        executeImmediately: true,
        businessDay: 0,
        executionTime: null,
      },
      {
        id: steps[2],
        type: 'createTodo',
        index: 1,
        executeImmediately: false,
        businessDay: 2,
        executionTime: '0930',
      },
      {
        id: steps[1],
        type: 'sendEmail',
        index: 2,
        executeImmediately: false,
        businessDay: 3,
        executionTime: '1000',
      },
    ]);
    const walked = await walk(app, ws.token, `/v2/sequence/${id}/step?limit=1`, 'stepList');
    expect(walked.records).toEqual(list);
    expect(walked.pages).toBe(3);
  });

  it('is `[]` for a sequence the workspace lacks (another workspace’s included)', async () => {
    const other = await testWorkspace(store, '다른 워크스페이스');
    const { id } = await sequenceWithSteps(other);
    for (const seq of [UNKNOWN, id]) {
      const res = await get(app, ws.token, `/v2/sequence/${seq}/step`);
      expect(res.json).toEqual({ success: true, data: { stepList: [], nextCursor: null } });
    }
    expect(
      (await get(app, other.token, `/v2/sequence/${id}/step`)).json.data.stepList,
    ).toHaveLength(3);
  });
});

describe('enrollments and their timeline', () => {
  it('lists a sequence’s enrollments with the person each writes to, oldest first', async () => {
    const { id } = await sequenceWithSteps(ws);
    const { a, b, e1, e2, e3 } = await ws.write(async (w) => {
      const a = await makePerson(w, { name: '가' });
      const b = await makePerson(w, { name: '나' });
      const deal = await makeDeal(w, { peopleId: b });
      const e1 = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'people',
        subjectId: a,
        enrolledAt: '2024-01-01T00:00:00.000Z',
      });
      const e2 = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'deal',
        subjectId: deal,
        enrolledAt: '2024-01-02T00:00:00.000Z',
      });
      const e3 = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'people',
        subjectId: b,
        enrolledAt: '2024-01-03T00:00:00.000Z',
      });
      return { a, b, e1, e2, e3 };
    });
    const res = await get(app, ws.token, `/v2/sequence/${id}/enrollment`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['sequenceEnrollmentList', 'nextCursor']);
    expect(res.json.data.sequenceEnrollmentList).toEqual([
      { _id: e1, peopleId: a, createdAt: '2024-01-01T00:00:00.000Z' },
      { _id: e2, peopleId: b, createdAt: '2024-01-02T00:00:00.000Z' },
      { _id: e3, peopleId: b, createdAt: '2024-01-03T00:00:00.000Z' },
    ]);
    const walked = await walk(
      app,
      ws.token,
      `/v2/sequence/${id}/enrollment?limit=2`,
      'sequenceEnrollmentList',
    );
    expect(walked.records).toEqual(res.json.data.sequenceEnrollmentList);
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await get(app, other.token, `/v2/sequence/${id}/enrollment`);
    expect(theirs.json.data.sequenceEnrollmentList).toEqual([]);
  });

  it('reads an enrollment’s timeline oldest first; 400 in the live API’s words otherwise', async () => {
    const { id } = await sequenceWithSteps(ws);
    const { enrollment, idle, emailId } = await ws.write(async (w) => {
      const person = await makePerson(w);
      const enrollment = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'people',
        subjectId: person,
      });
      const idle = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'people',
        subjectId: await makePerson(w),
      });
      const emailId = '01890000-0000-7000-8000-00000000e001';
      await insertTimelineEvents(w, [
        {
          enrollmentId: enrollment,
          eventType: 'emailLinkClick',
          stepIndex: 0,
          date: '2024-02-01T03:00:00.000Z',
          emailId,
          linkUrl: 'https://example.com/pricing',
          linkName: '요금제 보기',
        },
        {
          enrollmentId: enrollment,
          eventType: 'sendEmail',
          stepIndex: 0,
          date: '2024-02-01T01:00:00.000Z',
          emailId,
        },
        {
          enrollmentId: enrollment,
          eventType: 'emailOpen',
          stepIndex: 0,
          date: '2024-02-01T02:00:00.000Z',
          emailId,
        },
      ]);
      return { enrollment, idle, emailId };
    });
    const res = await get(app, ws.token, `/v2/sequence/enrollment/${enrollment}/timeline`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['timelineList', 'nextCursor']);
    const list = res.json.data.timelineList as Rec[];
    expect(list.map((e) => e.eventType)).toEqual(['sendEmail', 'emailOpen', 'emailLinkClick']);
    expect(Object.keys(list[0]!)).toEqual([
      'eventType',
      'stepIndex',
      'date',
      'emailId',
      'linkUrl',
      'linkName',
    ]);
    expect(list[0]).toEqual({
      eventType: 'sendEmail',
      stepIndex: 0,
      date: '2024-02-01T01:00:00.000Z',
      emailId,
      linkUrl: null,
      linkName: null,
    });
    expect(list[2]).toMatchObject({
      linkUrl: 'https://example.com/pricing',
      linkName: '요금제 보기',
    });
    const walked = await walk(
      app,
      ws.token,
      `/v2/sequence/enrollment/${enrollment}/timeline?limit=1`,
      'timelineList',
    );
    expect(walked.records).toEqual(list);

    const noStep = await get(app, ws.token, `/v2/sequence/enrollment/${idle}/timeline`);
    expect(noStep.status).toBe(400);
    expect(noStep.json).toMatchObject({
      success: false,
      message: 'sequenceEnrollStep이 존재하지 않습니다.',
    });
    const other = await testWorkspace(store, '다른 워크스페이스');
    for (const [token, enroll] of [
      [ws.token, UNKNOWN],
      [other.token, enrollment],
    ] as const) {
      const missing = await get(app, token, `/v2/sequence/enrollment/${enroll}/timeline`);
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({
        success: false,
        message: 'sequenceEnroll이 존재하지 않습니다.',
      });
    }
  });
});

/** The SEQUENCE group of a person as `GET /v2/people/{id}` shows it. */
async function sequenceFields(id: string): Promise<Rec> {
  const res = await get(app, ws.token, `/v2/people/${id}`);
  const person = res.json.data.people[0] as Rec;
  return Object.fromEntries(
    [
      '최근 등록한 시퀀스',
      '최근 시퀀스 등록일',
      '누적 시퀀스 등록수',
      '현재 진행중인 시퀀스 여부',
      '등록된 시퀀스 목록',
    ].map((k) => [k, person[k]]),
  );
}

describe('POST /v2/sequence/{sequenceId}/enrollment and /v2/sequence/enrollment/{enrollId}/delete', () => {
  it('enrolls a person: 201 with the enrollment, read back through the person, its organization and the list', async () => {
    const { id } = await sequenceWithSteps(ws, '웰컴');
    const { person, org } = await ws.write(async (w) => {
      const org = await makeOrganization(w, { name: '한빛' });
      return { org, person: await makePerson(w, { name: '홍길동', organizationId: org }) };
    });
    expect(await sequenceFields(person)).toEqual({
      '최근 등록한 시퀀스': null,
      '최근 시퀀스 등록일': null,
      '누적 시퀀스 등록수': 0,
      '현재 진행중인 시퀀스 여부': false,
      '등록된 시퀀스 목록': null,
    });
    const updatedAt = async () =>
      ((await get(app, ws.token, `/v2/people/${person}`)).json.data.people[0] as Rec)['수정 날짜'];
    const updatedBefore = await updatedAt();
    const before = (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList.length;
    const res = await post(app, ws.token, `/v2/sequence/${id}/enrollment`, { peopleId: person });
    expect(res.status, res.text).toBe(201);
    const enrollment = res.json.data.sequenceEnrollment as Rec;
    expect(Object.keys(res.json.data)).toEqual(['sequenceEnrollment']);
    expect(Object.keys(enrollment)).toEqual(['_id', 'peopleId', 'createdAt']);
    expect(enrollment.peopleId).toBe(person);
    expect(await sequenceFields(person)).toEqual({
      '최근 등록한 시퀀스': { id, name: '웰컴' },
      '최근 시퀀스 등록일': enrollment.createdAt,
      '누적 시퀀스 등록수': 1,
      '현재 진행중인 시퀀스 여부': true,
      '등록된 시퀀스 목록': [{ id, name: '웰컴' }],
    });
    // Derived fields: the person's 수정 날짜 stays (docs/decisions.md, Derived fields).
    expect(await updatedAt()).toBe(updatedBefore);
    const organization = (await get(app, ws.token, `/v2/organization/${org}`)).json.data
      .organization[0] as Rec;
    expect(organization['등록된 시퀀스 목록']).toEqual([{ id, name: '웰컴' }]);
    const list = await get(app, ws.token, `/v2/sequence/${id}/enrollment`);
    expect(list.json.data.sequenceEnrollmentList).toEqual([enrollment]);

    // Events: 수정 of the person's sequence fields by the token's user, of the organization by the system.
    const events = (
      (await get(app, ws.token, '/v2/event?limit=100')).json.data.eventList as Rec[]
    ).slice(before);
    const personEvents = events.filter((e) => e.objectId === person);
    expect(personEvents.map((e) => e.fieldName).sort()).toEqual(
      [
        '최근 등록한 시퀀스',
        '최근 시퀀스 등록일',
        '누적 시퀀스 등록수',
        '현재 진행중인 시퀀스 여부',
        '등록된 시퀀스 목록',
      ].sort(),
    );
    expect(new Set(personEvents.map((e) => e.source))).toEqual(new Set(['API']));
    expect(personEvents.find((e) => e.fieldName === '누적 시퀀스 등록수')).toMatchObject({
      event: '수정',
      beforeField: 0,
      afterField: 1,
    });
    const orgEvents = events.filter((e) => e.objectId === org);
    expect(orgEvents).toHaveLength(1);
    expect(orgEvents[0]).toMatchObject({ fieldName: '등록된 시퀀스 목록', source: '시스템' });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(1);

    // Unenroll: the person's fields return to never enrolled; the list is empty.
    const removed = await post(app, ws.token, `/v2/sequence/enrollment/${enrollment._id}/delete`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toEqual({ success: true });
    expect(await sequenceFields(person)).toEqual({
      '최근 등록한 시퀀스': null,
      '최근 시퀀스 등록일': null,
      '누적 시퀀스 등록수': 0,
      '현재 진행중인 시퀀스 여부': false,
      '등록된 시퀀스 목록': null,
    });
    const orgAfter = (await get(app, ws.token, `/v2/organization/${org}`)).json.data
      .organization[0] as Rec;
    expect(orgAfter['등록된 시퀀스 목록']).toEqual([]);
    expect(
      (await get(app, ws.token, `/v2/sequence/${id}/enrollment`)).json.data.sequenceEnrollmentList,
    ).toEqual([]);
    const again = await post(app, ws.token, `/v2/sequence/enrollment/${enrollment._id}/delete`);
    expect(again.status).toBe(404);
  });

  it('keeps earlier enrollments: a second sequence is the newest, an ended one may be followed by a new one', async () => {
    const first = await sequenceWithSteps(ws, '첫째');
    const second = await sequenceWithSteps(ws, '둘째');
    const person = await ws.write((w) => makePerson(w));
    await ws.write((w) =>
      makeEnrollment(w, {
        sequenceId: first.id,
        subjectType: 'people',
        subjectId: person,
        enrolledAt: '2024-01-01T00:00:00.000Z',
        active: false,
      }),
    );
    expect(
      (await post(app, ws.token, `/v2/sequence/${second.id}/enrollment`, { peopleId: person }))
        .status,
    ).toBe(201);
    expect(
      (await post(app, ws.token, `/v2/sequence/${first.id}/enrollment`, { peopleId: person }))
        .status,
    ).toBe(201);
    const fields = await sequenceFields(person);
    expect(fields['최근 등록한 시퀀스']).toEqual({ id: first.id, name: '첫째' });
    expect(fields['누적 시퀀스 등록수']).toBe(3);
    expect(fields['등록된 시퀀스 목록']).toEqual([
      { id: first.id, name: '첫째' },
      { id: second.id, name: '둘째' },
    ]);
  });

  it('refuses bad input in shape A and writes nothing', async () => {
    const { id } = await sequenceWithSteps(ws);
    const other = await testWorkspace(store, '다른 워크스페이스');
    const { person, theirPerson, theirSequence } = {
      person: await ws.write((w) => makePerson(w)),
      theirPerson: await other.write((w) => makePerson(w)),
      theirSequence: (await sequenceWithSteps(other)).id,
    };
    const enrolled = await post(app, ws.token, `/v2/sequence/${id}/enrollment`, {
      peopleId: person,
    });
    expect(enrolled.status).toBe(201);
    const theirEnrollment = (
      await post(app, other.token, `/v2/sequence/${theirSequence}/enrollment`, {
        peopleId: theirPerson,
      })
    ).json.data.sequenceEnrollment._id as string;
    const snapshot = await tableSnapshot(store);
    const cases: [string, unknown, number, string][] = [
      [
        `/v2/sequence/${id}/enrollment`,
        { peopleId: person },
        409,
        '이미 이 시퀀스를 진행 중인 고객입니다',
      ],
      [`/v2/sequence/${id}/enrollment`, { peopleId: UNKNOWN }, 404, '고객을 찾을 수 없습니다'],
      [`/v2/sequence/${id}/enrollment`, { peopleId: theirPerson }, 404, '고객을 찾을 수 없습니다'],
      [
        `/v2/sequence/${UNKNOWN}/enrollment`,
        { peopleId: person },
        404,
        '시퀀스를 찾을 수 없습니다',
      ],
      [
        `/v2/sequence/${theirSequence}/enrollment`,
        { peopleId: person },
        404,
        '시퀀스를 찾을 수 없습니다',
      ],
      [`/v2/sequence/${id}/enrollment`, {}, 400, "'peopleId' 값이 필요합니다"],
      [`/v2/sequence/${id}/enrollment`, { peopleId: 7 }, 400, "'peopleId'"],
      [`/v2/sequence/${id}/enrollment`, { peopleId: 'a b' }, 404, '고객을 찾을 수 없습니다'],
      [`/v2/sequence/${id}/enrollment`, [person], 400, 'JSON 객체'],
      ['/v2/sequence/bad%20id/enrollment', { peopleId: person }, 400, "'sequenceId'"],
      [
        `/v2/sequence/enrollment/${UNKNOWN}/delete`,
        undefined,
        404,
        '시퀀스 등록을 찾을 수 없습니다',
      ],
      [
        `/v2/sequence/enrollment/${theirEnrollment}/delete`,
        undefined,
        404,
        '시퀀스 등록을 찾을 수 없습니다',
      ],
      ['/v2/sequence/enrollment/bad%20id/delete', undefined, 400, "'enrollId'"],
    ];
    for (const [url, body, status, message] of cases) {
      const res = await post(app, ws.token, url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(message);
    }
    expect(await tableSnapshot(store)).toEqual(snapshot);
  });

  it('refuses a read-only token’s enroll and unenroll (403), and lets it read', async () => {
    const { id } = await sequenceWithSteps(ws);
    const person = await ws.write((w) => makePerson(w));
    const enrolled = await post(app, ws.token, `/v2/sequence/${id}/enrollment`, {
      peopleId: person,
    });
    const { token } = await createToken(store, ws.workspaceId, ws.userId, '읽기', {
      readOnly: true,
    });
    const snapshot = await tableSnapshot(store);
    const enroll = await post(app, token, `/v2/sequence/${id}/enrollment`, {
      peopleId: await ws.write((w) => makePerson(w)),
    });
    expect(enroll.status).toBe(403);
    const after = await tableSnapshot(store);
    const unenroll = await post(
      app,
      token,
      `/v2/sequence/enrollment/${enrolled.json.data.sequenceEnrollment._id}/delete`,
    );
    expect(unenroll.status).toBe(403);
    expect(await tableSnapshot(store)).toEqual(after);
    expect(after[`people of ${ws.workspaceId}`]).toBe(snapshot[`people of ${ws.workspaceId}`]! + 1);
    expect(
      (await get(app, token, `/v2/sequence/${id}/enrollment`)).json.data.sequenceEnrollmentList,
    ).toHaveLength(1);
  });

  it('deleting a deal takes its ended enrollments’ timelines with it', async () => {
    const { id } = await sequenceWithSteps(ws);
    const { deal } = await ws.write(async (w) => {
      const deal = await makeDeal(w, { peopleId: await makePerson(w) });
      const enrollment = await makeEnrollment(w, {
        sequenceId: id,
        subjectType: 'deal',
        subjectId: deal,
        active: false,
      });
      await insertTimelineEvents(w, [
        { enrollmentId: enrollment, eventType: 'sendEmail', stepIndex: 0, date: w.now },
      ]);
      return { deal };
    });
    const res = await post(app, ws.token, `/v2/deal/${deal}/delete`);
    expect(res.status, res.text).toBe(200);
    const left = await store.db
      .selectFrom('sequence_timeline')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('hostile input to the sequence reads and enroll', () => {
  it('answers over-long ids, bad cursors and limits with a 400 in shape A', async () => {
    const { id } = await sequenceWithSteps(ws);
    const long = 'a'.repeat(600);
    const cases: [string, string][] = [
      [`/v2/sequence/${long}`, '요청 경로가 올바르지 않습니다'],
      [`/v2/sequence/${long}/step`, '요청 경로가 올바르지 않습니다'],
      [`/v2/sequence/${long}/enrollment`, '요청 경로가 올바르지 않습니다'],
      [`/v2/sequence/enrollment/${long}/timeline`, '요청 경로가 올바르지 않습니다'],
      ['/v2/sequence?cursor=garbage', "'cursor'"],
      [`/v2/sequence/${id}/step?cursor=%25%25`, "'cursor'"],
      [`/v2/sequence/${id}/enrollment?cursor=${'x'.repeat(5000)}`, "'cursor'"],
      [`/v2/sequence/${id}/step?limit=-1`, "'limit'"],
      [`/v2/sequence/${id}/enrollment?limit=abc`, "'limit'"],
    ];
    for (const [url, message] of cases) {
      const res = await get(app, ws.token, url);
      expect(res.status, `${url.slice(0, 80)}: ${res.text}`).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(message);
      expect(res.json.reason).toBeTypeOf('string');
    }
  });

  it('refuses an over-long id or body, and enrolls a person once under concurrent requests', async () => {
    const { id } = await sequenceWithSteps(ws);
    const person = await ws.write((w) => makePerson(w));
    const snapshot = await tableSnapshot(store);
    const refused: [string, unknown, number][] = [
      [`/v2/sequence/${id}/enrollment`, { peopleId: 'a'.repeat(600) }, 400],
      [`/v2/sequence/${id}/enrollment`, { peopleId: 'x'.repeat(2_000_000) }, 413],
      [`/v2/sequence/${'a'.repeat(600)}/enrollment`, { peopleId: person }, 400],
      [`/v2/sequence/enrollment/${'a'.repeat(600)}/delete`, undefined, 400],
    ];
    for (const [url, body, status] of refused) {
      const res = await post(app, ws.token, url, body);
      expect(res.status, `${url.slice(0, 80)}: ${res.text}`).toBe(status);
      expect(res.json.success).toBe(false);
    }
    expect(await tableSnapshot(store)).toEqual(snapshot);
    const race = await Promise.all(
      [1, 2, 3, 4].map(() =>
        post(app, ws.token, `/v2/sequence/${id}/enrollment`, { peopleId: person }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const list = await get(app, ws.token, `/v2/sequence/${id}/enrollment`);
    expect(list.json.data.sequenceEnrollmentList).toHaveLength(1);
  });
});

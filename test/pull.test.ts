/**
 * `salescrm pull` between two servers on loopback: a source with the demo, an empty target.
 * After a pull every read of the OpenAPI document answers the same bytes on both
 * (`pull-compare.ts` names what may differ); after writes on the source, a second pull
 * brings the copy level again. The demo has custom objects, e-mails and recordings of deals
 * and leads; files are uploaded first (one of several chunks on a custom object, one named
 * by an attachment field and attached to nothing), a custom object gets a recording and a
 * thread of notes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { pull } from '../src/ingest/pull/run-pull.ts';
import { CHUNK_BYTES } from '../src/resources/files/writes.ts';
import { listen } from './client-server.ts';
import { get, post, type TestStore, testApp, testStore } from './helpers.ts';
import { type FormPart, multipartBody, SAMPLE_FILES } from './multipart.ts';
import { compareWorkspaces, dealToDelete, firstDifference, type Side } from './pull-compare.ts';

describe('pull from another server into a new workspace', () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let sourceApp: FastifyInstance;
  let targetApp: FastifyInstance;
  let url: string;
  let source: Side;
  let copy: Side;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'salescrm-pull-'));
    sourceStore = await testStore();
    targetStore = await testStore();
    const demo = await createDemoWorkspace(sourceStore, { seed: 11, people: 50 });
    sourceApp = await testApp(sourceStore);
    url = await listen(sourceApp);
    targetApp = await testApp(targetStore);
    source = { app: sourceApp, token: demo.token, workspaceId: demo.workspaceId };
    await addContent(sourceApp, demo.token);
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await targetApp?.close();
    await sourceStore?.dispose();
    await targetStore?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('copies the workspace: every read answers the same bytes', async () => {
    const result = await pull(targetStore, { from: url, token: source.token, stateDir });
    expect(result.token).toBeDefined();
    copy = { app: targetApp, token: result.token!, workspaceId: result.workspaceId };
    expect(result.refused).toEqual([]);
    expect([result.leftOut, result.leftOutReasons]).toEqual([0, []]);
    expect(result.counts.person).toBe(50);
    for (const type of ['customObjectDefinition', 'customObject', 'file', 'email', 'recording'])
      expect(result.counts[type], type).toBeGreaterThan(0);
    expect(result.counts.fileChunk).toBeGreaterThan(result.counts.file!);
    // The demo's recordings of deals and leads: their activities do not name them.
    expect(Object.keys(result.skipped)).toEqual(['recordingNotNamedByItsActivity']);
    const { reads, differences } = await compareWorkspaces(source, copy);
    expect(reads).toBeGreaterThan(300);
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
  }, 120_000);

  it('brings the copy level again after creates, updates, deletes, a merge and a new field', async () => {
    const people = (await get(sourceApp, source.token, '/v2/people?limit=100')).json.data
      .peopleList as { id: string }[];
    const deals = (await get(sourceApp, source.token, '/v2/deal?limit=100')).json.data.dealList as {
      id: string;
      '현재 진행중인 시퀀스 여부': boolean;
    }[];
    const field = await post(sourceApp, source.token, '/v2/field/people', {
      name: '가져온 뒤 추가한 필드',
      type: 'string',
    });
    expect(field.status, field.text).toBe(201);
    const created = await post(sourceApp, source.token, '/v2/people', {
      name: '새 고객',
      memo: '두 번째 가져오기 전에 만든 고객',
      fieldList: [{ name: '가져온 뒤 추가한 필드', stringValue: '값' }],
    });
    expect(created.status, created.text).toBe(201);
    const updated = await post(sourceApp, source.token, `/v2/people/${people[0]!.id}`, {
      name: '이름을 바꾼 고객',
      memo: '이름 변경',
    });
    expect(updated.status, updated.text).toBe(200);
    const gone = await dealToDelete(sourceApp, source.token, deals);
    const deleted = await post(sourceApp, source.token, `/v2/deal/${gone.id}/delete`);
    expect(deleted.status, deleted.text).toBe(200);
    const merged = await post(sourceApp, source.token, `/v2/people/${people[1]!.id}/merge`, {
      mergedId: people[2]!.id,
    });
    expect(merged.status, merged.text).toBe(200);

    const result = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
    });
    expect(result.token).toBeUndefined();
    expect(result.workspaceId).toBe(copy.workspaceId);
    expect([result.leftOut, result.leftOutReasons]).toEqual([0, []]);
    expect(result.counts.person).toBe(50);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
    const copied = await get(targetApp, copy.token, `/v2/people/${people[2]!.id}`);
    expect(copied.status).toBe(404);
  }, 120_000);

  it('waits out 429s and retries 5xx and network errors; leaves out what names a record made while it read, and brings both the next time', async () => {
    let made: string | undefined;
    let n = 0;
    const limited = (reason: string, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify({ success: false, message: '요청이 너무 많습니다.', reason }), {
        status: 429,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const changingAndFlaky: typeof fetch = async (input, init) => {
      n++;
      // A 429 with the wait only in its reason (as the live API words it), one with
      // Retry-After; 5xx answers and a connection reset.
      if (n === 3) return limited('1초 후 재시도해주세요.');
      if (n === 9) return limited('1초 후 재시도해주세요.', { 'retry-after': '1' });
      if (n === 15 || n === 40) return new Response('{"success":false}', { status: 503 });
      if (n === 27) return new Response('bad gateway', { status: 502 });
      if (n === 33) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      // A person made on the source once the people list has been read, before its notes
      // and activities are: they name a person the walk did not see.
      if (made === undefined && String(input).includes('/v2/memo')) {
        const created = await post(sourceApp, source.token, '/v2/people', {
          name: '읽는 중에 생긴 고객',
          memo: '가져오는 중에 남긴 노트',
        });
        made = created.json.data.people.id;
      }
      return fetch(input, init);
    };
    const first = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
      fetch: changingAndFlaky,
    });
    expect([first.rateLimited, first.retried]).toEqual([2, 4]);
    expect(made).toBeDefined();
    expect(first.leftOut).toBeGreaterThan(0);
    expect(first.leftOutReasons.join()).toContain(made!);
    expect((await get(targetApp, copy.token, `/v2/people/${made}`)).status).toBe(404);
    const second = await pull(targetStore, {
      from: url,
      token: source.token,
      workspaceId: copy.workspaceId,
      stateDir,
    });
    expect([second.leftOut, second.rateLimited, second.retried]).toEqual([0, 0, 0]);
    const { differences } = await compareWorkspaces(source, copy, { idsPerRead: 8 });
    expect(differences.slice(0, 5).map(firstDifference)).toEqual([]);
  }, 120_000);

  it('names a list the source refuses or does not serve, and copies the rest', async () => {
    const refusing: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname;
      // A source without custom objects (404 of the list) or files (405 of each record's).
      if (path === '/v2/custom-object')
        return new Response('{"message":"Route GET:/v2/custom-object not found"}', {
          status: 404,
          headers: { 'content-type': 'application/json' },
        });
      if (path === '/v2/file') return new Response('', { status: 405 });
      if (path === '/v2/webForm' || path === '/v2/todo')
        return new Response(
          JSON.stringify({
            success: false,
            message: '권한이 없습니다.',
            reason: '권한이 없습니다.',
          }),
          { status: 403, headers: { 'content-type': 'application/json' } },
        );
      return fetch(input, init);
    };
    const result = await pull(targetStore, {
      from: url,
      token: source.token,
      stateDir,
      fetch: refusing,
    });
    expect(result.refused).toEqual([
      '/v2/todo: 403 권한이 없습니다.',
      '/v2/webForm: 403 권한이 없습니다.',
      '/v2/custom-object: 404 Route GET:/v2/custom-object not found',
      ...['people', 'organization', 'deal', 'lead', 'product', 'quote'].map(
        () => '/v2/file: 405 HTTP 405',
      ),
    ]);
    expect(result.counts.todo).toBeUndefined();
    expect(result.counts.webForm).toBeUndefined();
    expect(result.counts.customObject).toBeUndefined();
    // The file named by an attachment field is still read by its id.
    expect(result.counts.file).toBe(1);
    expect(result.counts.person).toBe(51);
  }, 120_000);
});

/** Uploads a file (on a record, or on nothing); answers its id. */
async function upload(app: FastifyInstance, token: string, parts: FormPart[]): Promise<string> {
  const { payload, contentType } = multipartBody(parts);
  const res = await app.inject({
    method: 'POST',
    url: '/v2/file',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return JSON.parse(res.body).data.id;
}

/**
 * Files, a recording and notes on the demo's custom objects: a file of several chunks and
 * an image on one, a person's attachment field naming a file attached to nothing, a
 * recording and a note with a reply on another.
 */
async function addContent(app: FastifyInstance, token: string): Promise<void> {
  const objects = (await get(app, token, '/v2/custom-object?limit=2')).json.data
    .customObjectList as { id: string }[];
  const on = (id: string): FormPart[] => [
    { name: 'objectType', value: 'customObject' },
    { name: 'objectId', value: id },
  ];
  const big = Buffer.alloc(2 * CHUNK_BYTES + 1_234);
  for (let i = 0; i < big.length; i++) big[i] = 32 + ((i * 7) % 95);
  await upload(app, token, [
    ...on(objects[0]!.id),
    { name: 'file', filename: '계약서.txt', data: big },
  ]);
  await upload(app, token, [
    ...on(objects[0]!.id),
    { name: 'file', filename: '서명.png', data: SAMPLE_FILES.png },
  ]);
  const logo = await upload(app, token, [
    { name: 'file', filename: '로고.png', data: SAMPLE_FILES.png },
  ]);
  const field = await post(app, token, '/v2/field/people', {
    name: '첨부 자료',
    type: 'multiAttachment',
  });
  expect(field.status, field.text).toBe(201);
  const person = (await get(app, token, '/v2/people?limit=1')).json.data.peopleList[0] as {
    id: string;
  };
  const attached = await post(app, token, `/v2/people/${person.id}`, {
    fieldList: [{ name: '첨부 자료', fileValueIdList: [logo] }],
  });
  expect(attached.status, attached.text).toBe(200);
  const audio = await upload(app, token, [
    ...on(objects[1]!.id),
    { name: 'file', filename: '통화.mp3', data: SAMPLE_FILES.mp3 },
  ]);
  const recording = await post(app, token, '/v2/recording', {
    fileId: audio,
    objectType: 'customObject',
    objectId: objects[1]!.id,
    title: '계약 검토 통화',
    duration: 95,
    coreSummary: '계약 조건을 검토했다.',
    transcriptSegmentList: [
      { startTime: 0, endTime: 2_000, text: '안녕하세요', speakerId: 'a', confidence: 0.9 },
      { startTime: 2_500, endTime: 4_000, text: '네 반갑습니다', speakerId: 'b', confidence: null },
    ],
    speakerInfoList: [
      { speakerId: 'a', label: '영업 담당' },
      { speakerId: 'b', label: '고객' },
    ],
  });
  expect(recording.status, recording.text).toBe(201);
  const note = await post(app, token, `/v2/custom-object/${objects[1]!.id}/memo`, {
    text: '검토 부탁드립니다',
  });
  expect(note.status, note.text).toBe(201);
  const reply = await post(app, token, `/v2/custom-object/${objects[1]!.id}/memo`, {
    text: '확인했습니다',
    parentId: note.json.data.memo.id,
  });
  expect(reply.status, reply.text).toBe(201);
}

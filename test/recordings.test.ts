/**
 * Recordings (docs/decisions.md, Recordings): `POST /v2/recording` keeps a recording whose audio
 * was uploaded with `POST /v2/file`; `GET /v2/recording/{recordingId}` and `…/transcript` read it
 * as the live API does; `POST /v2/recording/{recordingId}/delete` removes it with its audio and
 * its activity. Refusals write nothing; a deal's delete and a person's merge take its recordings.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makeDeal, makePerson, makePipeline } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
} from './helpers.ts';
import { multipartBody, SAMPLE_FILES } from './multipart.ts';
import { tableSnapshot } from './table-snapshot.ts';

type Rec = Record<string, unknown>;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let personId: string;
let dealId: string;
appWithWorkspace((made) => ({ store, app, ws } = made));
beforeEach(async () => {
  ({ personId, dealId } = await ws.write(async (w) => {
    const pipeline = await makePipeline(w);
    const personId = await makePerson(w, { name: '김고객' });
    const dealId = await makeDeal(w, {
      name: '도입 딜',
      peopleId: personId,
      pipelineId: pipeline.id,
      stageId: pipeline.stageIds[0]!,
    });
    return { personId, dealId };
  }));
});

/** Uploads an MP3 (attached to `target` when given); answers the file's id. */
async function uploadAudio(
  target?: { objectType: string; objectId: string },
  token = ws.token,
): Promise<string> {
  const parts = target
    ? [
        { name: 'objectType', value: target.objectType },
        { name: 'objectId', value: target.objectId },
      ]
    : [];
  const { payload, contentType } = multipartBody([
    ...parts,
    { name: 'file', filename: '통화.mp3', data: SAMPLE_FILES.mp3 },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/v2/file',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return JSON.parse(res.body).data.id;
}

const SEGMENTS = [
  {
    startTime: 0,
    endTime: 4200,
    text: '안녕하세요, 문의 주신 건입니다.',
    speakerId: 'a',
    confidence: 0.9,
  },
  { startTime: 4200, endTime: 9000, text: '네, 일정부터 여쭤볼게요.', speakerId: 'b' },
];
const SPEAKERS = [
  { speakerId: 'a', label: '영업 담당' },
  { speakerId: 'b', label: '김고객' },
];

function body(fileId: string, more: Rec = {}): Rec {
  return {
    fileId,
    objectType: 'deal',
    objectId: dealId,
    title: '도입 상담 통화',
    duration: 754.5,
    coreSummary: '도입 일정과 예산을 확인함.',
    transcriptSegmentList: SEGMENTS,
    speakerInfoList: SPEAKERS,
    ...more,
  };
}

async function createRecording(more: Rec = {}): Promise<{ id: string; fileId: string }> {
  const fileId = await uploadAudio();
  const res = await post(app, ws.token, '/v2/recording', body(fileId, more));
  expect(res.status, res.text).toBe(201);
  return { id: res.json.data.recording.id, fileId };
}

describe('a recording kept and read back', () => {
  it('answers 201 with its id, title and creation time, and reads back as the live API shows it', async () => {
    const fileId = await uploadAudio();
    const created = await post(app, ws.token, '/v2/recording', body(fileId));
    expect(created.status, created.text).toBe(201);
    const { id, name, createdAt } = created.json.data.recording;
    expect(name).toBe('도입 상담 통화');
    const read = await get(app, ws.token, `/v2/recording/${id}`);
    expect(read.status, read.text).toBe(200);
    const owner = await store.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', ws.userId)
      .executeTakeFirstOrThrow();
    expect(read.json).toEqual({
      success: true,
      data: {
        recording: {
          id,
          title: '도입 상담 통화',
          duration: 754.5,
          source: 'upload',
          coreSummary: '도입 일정과 예산을 확인함.',
          createdAt,
          owner: { id: owner.id, name: owner.name },
        },
      },
    });
    expect(Object.keys(read.json.data.recording)).toEqual([
      'id',
      'title',
      'duration',
      'source',
      'coreSummary',
      'createdAt',
      'owner',
    ]);
  });

  it('reads the transcript: segments in order with confidence null when not given, then speakers', async () => {
    const { id } = await createRecording();
    const res = await get(app, ws.token, `/v2/recording/${id}/transcript`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({
      recordingTranscript: {
        transcriptSegmentList: [SEGMENTS[0], { ...SEGMENTS[1], confidence: null }],
        speakerInfoList: SPEAKERS,
      },
    });
    expect(Object.keys(res.json.data.recordingTranscript.transcriptSegmentList[1])).toEqual([
      'startTime',
      'endTime',
      'text',
      'speakerId',
      'confidence',
    ]);
  });

  it('keeps a recording without a transcript or summary, and the source it is given', async () => {
    const fileId = await uploadAudio();
    const res = await post(app, ws.token, '/v2/recording', {
      fileId,
      objectType: 'people',
      objectId: personId,
      title: '짧은 통화',
      duration: 30,
      source: 'zoom',
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.recording.id;
    const read = await get(app, ws.token, `/v2/recording/${id}`);
    expect(read.json.data.recording).toMatchObject({ source: 'zoom', coreSummary: null });
    const transcript = await get(app, ws.token, `/v2/recording/${id}/transcript`);
    expect(transcript.json.data.recordingTranscript).toEqual({
      transcriptSegmentList: [],
      speakerInfoList: [],
    });
  });

  it('adds a recordingCreate activity to the record, and attaches the audio to it', async () => {
    const { fileId } = await createRecording();
    const activities = await get(app, ws.token, `/v2/deal/activity?dealId=${dealId}`);
    expect(activities.json.data.dealActivityList.map((a: Rec) => a.type)).toContain(
      'recordingCreate',
    );
    const files = await get(app, ws.token, `/v2/file?objectType=deal&objectId=${dealId}`);
    expect(files.json.data.fileList.map((f: Rec) => f.id)).toEqual([fileId]);
  });

  it('names the recording by recordingId on a custom object’s activity list', async () => {
    await ws.write((w) => defineCustomObject(w, { name: '상담', fields: [] }));
    const object = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionName: '상담',
      fieldList: [{ name: '이름', stringValue: '1차 상담' }],
    });
    expect(object.status, object.text).toBe(201);
    const objectId = object.json.data.customObject.id;
    const fileId = await uploadAudio({ objectType: 'customObject', objectId });
    const res = await post(app, ws.token, '/v2/recording', {
      ...body(fileId),
      objectType: 'customObject',
      objectId,
    });
    expect(res.status, res.text).toBe(201);
    const list = await get(app, ws.token, `/v2/custom-object/activity?customObjectId=${objectId}`);
    const recorded = list.json.data.customObjectActivityList.filter(
      (a: Rec) => a.type === 'recordingCreate',
    );
    expect(recorded.map((a: Rec) => a.recordingId)).toEqual([res.json.data.recording.id]);
    // The other activities name none.
    const others = list.json.data.customObjectActivityList.filter(
      (a: Rec) => a.type !== 'recordingCreate',
    );
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((a: Rec) => a.recordingId === null)).toBe(true);
    // Deleting the custom object takes its recordings, as a deal's delete takes the deal's.
    const recordingId = res.json.data.recording.id;
    const deleted = await post(app, ws.token, `/v2/custom-object/${objectId}/delete`, {});
    expect(deleted.status, deleted.text).toBe(200);
    expect((await get(app, ws.token, `/v2/recording/${recordingId}`)).status).toBe(404);
  });
});

describe('refusals', () => {
  it('answers 404 for a recording the workspace does not have, on both reads', async () => {
    for (const path of ['/v2/recording/nope', '/v2/recording/nope/transcript']) {
      const res = await get(app, ws.token, path);
      expect(res.status, path).toBe(404);
      expect(res.json).toMatchObject({ success: false });
      expect(JSON.stringify(res.json)).toContain('녹음을 찾을 수 없습니다');
    }
  });

  it('keeps recordings to their workspace', async () => {
    const { id } = await createRecording();
    const other = await testWorkspace(store);
    expect((await get(app, other.token, `/v2/recording/${id}`)).status).toBe(404);
    expect((await post(app, other.token, `/v2/recording/${id}/delete`)).status).toBe(404);
    // Nor may another workspace's recording take this workspace's file.
    const fileId = await uploadAudio();
    const res = await post(app, other.token, '/v2/recording', {
      ...body(fileId),
      objectType: 'people',
      objectId: await other.write((w) => makePerson(w, { name: '다른 고객' })),
    });
    expect(res.status, res.text).toBe(404);
  });

  it('refuses a malformed id in the path with a 400 naming it', async () => {
    const res = await get(app, ws.token, '/v2/recording/%20bad%20');
    expect(res.status).toBe(400);
    expect(res.text).toContain('recordingId');
  });

  it.each([
    [
      'a segment naming no speaker',
      { transcriptSegmentList: [{ ...SEGMENTS[0], speakerId: 'z' }] },
      400,
    ],
    [
      'a segment ending before it starts',
      { transcriptSegmentList: [{ ...SEGMENTS[0], endTime: 1, startTime: 5 }] },
      400,
    ],
    ['two speakers with one id', { speakerInfoList: [SPEAKERS[0], SPEAKERS[0]] }, 400],
    ['a negative duration', { duration: -1 }, 400],
    ['a blank title', { title: '  ' }, 400],
    ['a record type recordings are not of', { objectType: 'product' }, 400],
    ['a record the workspace does not have', { objectId: 'missing-deal' }, 404],
    ['a file the workspace does not have', { fileId: 'missing-file' }, 404],
  ] as const)('refuses %s, writing nothing', async (_what, more, status) => {
    const fileId = await uploadAudio();
    const before = await tableSnapshot(store);
    const res = await post(app, ws.token, '/v2/recording', body(fileId, more));
    expect(res.status, res.text).toBe(status);
    expect(res.json.success).toBe(false);
    expect(await tableSnapshot(store)).toEqual(before);
  });

  it('refuses a file attached to another record (400), and a file another recording holds (409)', async () => {
    const elsewhere = await uploadAudio({ objectType: 'people', objectId: personId });
    const attached = await post(app, ws.token, '/v2/recording', body(elsewhere));
    expect(attached.status, attached.text).toBe(400);
    expect(attached.text).toContain('fileId');
    const { fileId } = await createRecording();
    const twice = await post(app, ws.token, '/v2/recording', body(fileId));
    expect(twice.status, twice.text).toBe(409);
  });

  it('refuses to delete a recording’s audio file on its own (409)', async () => {
    const { id, fileId } = await createRecording();
    const res = await post(app, ws.token, `/v2/file/${fileId}/delete`);
    expect(res.status, res.text).toBe(409);
    expect((await get(app, ws.token, `/v2/recording/${id}`)).status).toBe(200);
  });
});

describe('delete, and what a record’s delete and merge do', () => {
  it('deletes the recording, its activity and its audio; a second delete is a 404', async () => {
    const { id, fileId } = await createRecording();
    const res = await post(app, ws.token, `/v2/recording/${id}/delete`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await get(app, ws.token, `/v2/recording/${id}`)).status).toBe(404);
    expect((await get(app, ws.token, `/v2/recording/${id}/transcript`)).status).toBe(404);
    expect((await get(app, ws.token, `/v2/file/${fileId}/content`)).status).toBe(404);
    const activities = await get(app, ws.token, `/v2/deal/activity?dealId=${dealId}`);
    expect(activities.json.data.dealActivityList.map((a: Rec) => a.type)).not.toContain(
      'recordingCreate',
    );
    expect((await post(app, ws.token, `/v2/recording/${id}/delete`)).status).toBe(404);
  });

  it('deletes a deal’s recordings with the deal', async () => {
    const { id } = await createRecording();
    const res = await post(app, ws.token, `/v2/deal/${dealId}/delete`);
    expect(res.status, res.text).toBe(200);
    expect((await get(app, ws.token, `/v2/recording/${id}`)).status).toBe(404);
    const left = await store.db
      .selectFrom('recordings')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(left).toEqual([]);
  });

  it('moves a merged person’s recordings to the kept one', async () => {
    const otherId = await ws.write((w) => makePerson(w, { name: '김고객 (중복)' }));
    const fileId = await uploadAudio();
    const created = await post(app, ws.token, '/v2/recording', {
      ...body(fileId),
      objectType: 'people',
      objectId: otherId,
    });
    expect(created.status, created.text).toBe(201);
    const merged = await post(app, ws.token, `/v2/people/${personId}/merge`, { mergedId: otherId });
    expect(merged.status, merged.text).toBe(200);
    const row = await store.db
      .selectFrom('recordings')
      .select(['subject_type', 'subject_id'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', created.json.data.recording.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ subject_type: 'people', subject_id: personId });
    expect(
      (await get(app, ws.token, `/v2/recording/${created.json.data.recording.id}`)).status,
    ).toBe(200);
  });
});

/**
 * The MCP tools of notes, files, e-mails, webhooks and sequences' steps and timelines, through the SDK's client over
 * Streamable HTTP: each answer checked against the API's own, each write read back through
 * the API, refusals answered as tool errors, and a read-only token offered none of the writes.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { insertCustomObject } from '../src/resources/custom-objects/writes.ts';
import { insertSequenceSteps, insertTimelineEvents } from '../src/resources/sequences/writes.ts';
import { createToken } from '../src/resources/workspaces/writes.ts';
import { makeDeal, makeEnrollment, makePerson, makePipeline, makeSequence } from './factories.ts';
import {
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { callTool, httpClient, type Json, READ_TOOLS, WRITE_TOOLS } from './mcp-client.ts';
import { SAMPLE_FILES } from './multipart.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { type Receiver, startReceiver } from './webhook-fixtures.ts';

describe('the MCP tools of notes, files, e-mails and webhooks', { timeout: 120_000 }, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let smtp: SmtpSink;
  let receiver: Receiver;
  let url: string;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let readOnlyToken: string;
  let client: Client;
  let personId: string;
  let dealId: string;
  let objectId: string;
  let emailId: string;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    other = await testWorkspace(store, '다른 워크스페이스');
    readOnlyToken = (await createToken(store, ws.workspaceId, ws.userId, 'ro', { readOnly: true }))
      .token;
    ({ personId, dealId, objectId } = await ws.write(async (w) => {
      const personId = await makePerson(w, { name: '메모 고객', email: 'memo@example.com' });
      const pipeline = await makePipeline(w);
      const dealId = await makeDeal(w, {
        name: '파일 딜',
        peopleId: personId,
        pipelineId: pipeline.id,
        stageId: pipeline.stageIds[0]!,
      });
      const contract = await defineCustomObject(w, { name: '계약서', fields: [] });
      const objectId = await insertCustomObject(w, {
        definitionId: contract.id,
        name: '메모 계약서',
      });
      return { personId, dealId, objectId };
    }));
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    app = await testApp(store, { smtpUrl: smtp.url, webhookAllowPrivate: true });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    client = await httpClient(url, ws.token);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await receiver?.close();
    await smtp?.close();
    await store?.dispose();
  });

  it('offers a read-only token the reads alone: none that writes, sends or uploads', async () => {
    const all = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(all).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    const ro = await httpClient(url, readOnlyToken);
    try {
      const tools = (await ro.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
      for (const name of ['list_notes', 'get_email', 'get_file', 'list_webhooks']) {
        expect(tools.find((t) => t.name === name)?.annotations?.readOnlyHint, name).toBe(true);
      }
      const listed = await callTool(ro, 'list_webhooks');
      expect(listed.isError).toBe(false);
      const refused = await callTool(ro, 'send_email', {
        to: [{ email: 'x@example.com' }],
        subject: 'x',
        htmlBody: 'x',
      });
      expect(refused.isError).toBe(true);
    } finally {
      await ro.close();
    }
    const annotations = Object.fromEntries(
      (await client.listTools()).tools.map((t) => [t.name, t.annotations]),
    );
    // What reaches outside the workspace says so.
    expect(annotations.send_email?.openWorldHint).toBe(true);
    expect(annotations.create_webhook?.openWorldHint).toBe(true);
    expect(annotations.upload_file?.readOnlyHint).toBe(false);
  });

  it("adds notes and replies, and lists a record's notes as the API does", async () => {
    const first = await callTool(client, 'add_note', {
      type: 'people',
      id: personId,
      text: '첫 통화 완료',
    });
    expect(first.isError, JSON.stringify(first.json)).toBe(false);
    const noteId = first.json.data.memo.id;
    const reply = await callTool(client, 'add_note', {
      type: 'people',
      id: personId,
      text: '다음 주 재통화',
      parentId: noteId,
    });
    expect(reply.isError, JSON.stringify(reply.json)).toBe(false);
    expect(reply.json.data.memo).toMatchObject({ parentId: noteId, peopleId: personId });

    const listed = await callTool(client, 'list_notes', { type: 'people', id: personId });
    const api = await get(app, ws.token, `/v2/memo?peopleId=${personId}`);
    expect(listed.json.records).toEqual(api.json.data.memoList);
    expect(listed.json.records.map((m: Json) => [m.text, m.parentId])).toEqual([
      ['첫 통화 완료', null],
      ['다음 주 재통화', noteId],
    ]);
    expect(listed.json.hasMore).toBe(false);

    const paged = await callTool(client, 'list_notes', { type: 'people', id: personId, limit: 1 });
    expect(paged.json.records.map((m: Json) => m.id)).toEqual([noteId]);
    expect(paged.json.hasMore).toBe(true);
    const rest = await callTool(client, 'list_notes', {
      type: 'people',
      id: personId,
      cursor: paged.json.nextCursor,
    });
    expect(rest.json.records.map((m: Json) => m.id)).toEqual([reply.json.data.memo.id]);

    const all = await callTool(client, 'list_notes');
    expect(all.json.records).toEqual((await get(app, ws.token, '/v2/memo')).json.data.memoList);
  });

  it("lists a custom object's notes, a page of them at a time", async () => {
    const ids: string[] = [];
    for (const text of ['계약 검토', '법무 확인', '서명 완료']) {
      const res = await callTool(client, 'add_note', { type: 'custom-object', id: objectId, text });
      expect(res.isError, JSON.stringify(res.json)).toBe(false);
      ids.push(res.json.data.memo.id);
    }
    const page = await callTool(client, 'list_notes', {
      type: 'custom-object',
      id: objectId,
      limit: 2,
    });
    expect(page.isError, JSON.stringify(page.json)).toBe(false);
    const listed = await get(app, ws.token, `/v2/memo?customObjectId=${objectId}`);
    expect(page.json.records).toEqual(listed.json.data.memoList.slice(0, 2));
    expect(page.json.records.map((m: Json) => m.text)).toEqual(['계약 검토', '법무 확인']);
    expect(page.json.hasMore).toBe(true);
    const rest = await callTool(client, 'list_notes', {
      type: 'custom-object',
      id: objectId,
      cursor: page.json.nextCursor,
    });
    expect(rest.json).toMatchObject({ nextCursor: null, hasMore: false });
    expect(rest.json.records.map((m: Json) => m.id)).toEqual([ids[2]]);
  });

  it('refuses notes of a record that is not there, or of a type without an id', async () => {
    for (const type of ['people', 'deal', 'custom-object']) {
      const res = await callTool(client, 'list_notes', { type, id: 'nope-1' });
      expect(res.isError, type).toBe(true);
      expect(res.json.status, type).toBe(404);
    }
    const half = await callTool(client, 'list_notes', { type: 'people' });
    expect(half.isError).toBe(true);
    expect(half.json.message).toMatch(/'type' and 'id' go together/);
  });

  it('uploads files to a record, lists them and reads them back: text and images shown', async () => {
    const text = '회의록\n다음 단계: 계약서 검토\n';
    const uploaded = await callTool(client, 'upload_file', {
      name: '회의록.txt',
      contentBase64: Buffer.from(text).toString('base64'),
      type: 'deal',
      id: dealId,
      memo: '회의록 첨부',
    });
    expect(uploaded.isError, JSON.stringify(uploaded.json)).toBe(false);
    const fileId = uploaded.json.data.id;
    expect(uploaded.json.data.name).toBe('회의록.txt');
    const image = await callTool(client, 'upload_file', {
      name: '로고.png',
      contentBase64: SAMPLE_FILES.png.toString('base64'),
      type: 'deal',
      id: dealId,
    });
    expect(image.isError, JSON.stringify(image.json)).toBe(false);
    const pdf = await callTool(client, 'upload_file', {
      name: '견적서.pdf',
      contentBase64: SAMPLE_FILES.pdf.toString('base64'),
    });
    expect(pdf.isError, JSON.stringify(pdf.json)).toBe(false);

    const listed = await callTool(client, 'list_files', { type: 'deal', id: dealId });
    const api = await get(app, ws.token, `/v2/file?objectType=deal&objectId=${dealId}`);
    expect(listed.json.records).toEqual(api.json.data.fileList);
    expect(listed.json.records.map((f: Json) => f.id)).toEqual([fileId, image.json.data.id]);
    const deal = await get(app, ws.token, `/v2/deal/${dealId}`);
    expect(deal.json.data.deal[0]['최근 작성된 노트']).toBe('회의록 첨부');

    const read = (await client.callTool({ name: 'get_file', arguments: { id: fileId } })) as {
      content: { type: string; text?: string; data?: string; mimeType?: string }[];
    };
    expect(JSON.parse(read.content[0]!.text!)).toEqual({
      id: fileId,
      name: '회의록.txt',
      contentType: 'text/plain; charset=utf-8',
      size: Buffer.byteLength(text),
      truncated: false,
    });
    expect(read.content[1]).toEqual({ type: 'text', text });
    const picture = (await client.callTool({
      name: 'get_file',
      arguments: { id: image.json.data.id },
    })) as typeof read;
    expect(picture.content[1]).toEqual({
      type: 'image',
      data: SAMPLE_FILES.png.toString('base64'),
      mimeType: 'image/png',
    });
    const described = await callTool(client, 'get_file', { id: pdf.json.data.id });
    expect(described.json).toMatchObject({
      name: '견적서.pdf',
      contentType: 'application/pdf',
      size: SAMPLE_FILES.pdf.length,
    });
    expect(described.json.content).toMatch(/not shown/);
  });

  it('refuses an upload the API refuses, bytes that are not base64, and a file not there', async () => {
    const wrongKind = await callTool(client, 'upload_file', {
      name: '가짜.pdf',
      contentBase64: Buffer.from('PDF가 아닙니다').toString('base64'),
    });
    expect(wrongKind.isError).toBe(true);
    expect(wrongKind.json.status).toBe(415);
    const noRecord = await callTool(client, 'upload_file', {
      name: '메모.txt',
      contentBase64: Buffer.from('x').toString('base64'),
      type: 'deal',
      id: 'nope-1',
    });
    expect(noRecord.json.status).toBe(404);
    const notBase64 = await callTool(client, 'upload_file', {
      name: '메모.txt',
      contentBase64: '이건 base64 아님',
    });
    expect(notBase64.isError).toBe(true);
    expect(JSON.stringify(notBase64.json)).toMatch(/contentBase64/);
    const missing = await callTool(client, 'get_file', { id: 'nope-1' });
    expect(missing.isError).toBe(true);
    expect(missing.json.status).toBe(404);
  });

  it('sends an e-mail with an attachment once per idempotency key, and reads it back', async () => {
    const file = await callTool(client, 'upload_file', {
      name: '제안서.pdf',
      contentBase64: SAMPLE_FILES.pdf.toString('base64'),
    });
    const args = {
      to: [{ email: 'memo@example.com', name: '메모 고객' }],
      cc: ['boss@example.com'],
      subject: '제안서 보내 드립니다',
      htmlBody: '<p>안녕하세요, 제안서를 <b>첨부</b>합니다.</p>',
      attachmentIds: [file.json.data.id],
      idempotencyKey: 'mcp-send-1',
    };
    const sent = await callTool(client, 'send_email', args);
    expect(sent.isError, JSON.stringify(sent.json)).toBe(false);
    emailId = sent.json.data.id;
    const again = await callTool(client, 'send_email', args);
    expect(again.json.data.id).toBe(emailId);

    const read = await callTool(client, 'get_email', { id: emailId });
    expect(read.isError, JSON.stringify(read.json)).toBe(false);
    const api = await get(app, ws.token, `/v2/email/${emailId}`);
    expect(read.json).toEqual(api.json.data.email);
    expect(read.json).toMatchObject({
      subject: '제안서 보내 드립니다',
      to: [{ email: 'memo@example.com', name: '메모 고객' }],
      cc: [{ email: 'boss@example.com', name: null }],
    });
    // The send is an activity of the person it went to, naming the e-mail.
    const activity = await get(
      app,
      ws.token,
      `/v2/people/activity?peopleId=${personId}&types=email`,
    );
    expect(activity.json.data.peopleActivityList.map((a: Json) => a.emailId)).toEqual([emailId]);

    const unknown = await callTool(client, 'get_email', { id: 'nope-1' });
    expect(unknown.isError).toBe(true);
    expect(unknown.json.status).toBe(400);
    const bad = await callTool(client, 'send_email', {
      to: [{ email: '주소 아님' }],
      subject: 'x',
      htmlBody: 'x',
    });
    expect(bad.isError).toBe(true);
    expect(bad.json.status).toBe(400);
  });

  it('reads a recorded call with its transcript as lines of time, speaker and text', async () => {
    const audio = await callTool(client, 'upload_file', {
      name: '통화.mp3',
      contentBase64: SAMPLE_FILES.mp3.toString('base64'),
    });
    expect(audio.isError, JSON.stringify(audio.json)).toBe(false);
    const created = await post(app, ws.token, '/v2/recording', {
      fileId: audio.json.data.id,
      objectType: 'deal',
      objectId: dealId,
      title: '도입 상담 통화',
      duration: 3725,
      coreSummary: '예산 확인',
      transcriptSegmentList: [
        { startTime: 0, endTime: 4200, text: '안녕하세요.', speakerId: 'a', confidence: 0.9 },
        { startTime: 3_661_000, endTime: 3_665_000, text: '네, 좋습니다.', speakerId: 'b' },
      ],
      speakerInfoList: [
        { speakerId: 'a', label: '영업 담당' },
        { speakerId: 'b', label: '김고객' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.recording.id;

    const res = await client.callTool({ name: 'get_recording', arguments: { id } });
    expect(res.isError ?? false).toBe(false);
    const [facts, transcript] = res.content as { type: string; text: string }[];
    const api = await get(app, ws.token, `/v2/recording/${id}`);
    expect(JSON.parse(facts!.text)).toEqual({
      ...api.json.data.recording,
      segments: 2,
      truncated: false,
    });
    expect(transcript!.text).toBe('[0:00] 영업 담당: 안녕하세요.\n[1:01:01] 김고객: 네, 좋습니다.');

    const unknown = await callTool(client, 'get_recording', { id: 'nope-1' });
    expect(unknown.isError).toBe(true);
    expect(unknown.json.status).toBe(404);
  });

  it('creates a webhook, lists it and its deliveries, and deletes it with confirm', async () => {
    const created = await callTool(client, 'create_webhook', {
      url: receiver.url,
      objectTypeList: ['people'],
      eventList: ['생성'],
    });
    expect(created.isError, JSON.stringify(created.json)).toBe(false);
    const webhook = created.json.data.webhook;
    expect(webhook.secret).toMatch(/^whsec_/);
    // The URL was verified with a signed POST before the webhook was kept.
    expect(receiver.receipts.length).toBeGreaterThan(0);

    const listed = await callTool(client, 'list_webhooks');
    const api = await get(app, ws.token, '/v2/webhook');
    expect(listed.json).toEqual({
      records: api.json.data.webhookList,
      nextCursor: null,
      hasMore: false,
    });
    expect(listed.json.records.map((w: Json) => w.id)).toEqual([webhook.id]);
    expect(JSON.stringify(listed.json)).not.toContain(webhook.secret);
    const deliveries = await callTool(client, 'list_webhooks', { webhookId: webhook.id });
    expect(deliveries.isError, JSON.stringify(deliveries.json)).toBe(false);
    expect(deliveries.json.records).toEqual(
      (await get(app, ws.token, `/v2/webhook/${webhook.id}/delivery`)).json.data.deliveryList,
    );

    const asked = await callTool(client, 'delete_record', { type: 'webhook', id: webhook.id });
    expect(asked.json).toMatchObject({ deleted: false, wouldDelete: { id: webhook.id } });
    expect((await get(app, ws.token, '/v2/webhook')).json.data.webhookList).toHaveLength(1);
    const deleted = await callTool(client, 'delete_record', {
      type: 'webhook',
      id: webhook.id,
      confirm: true,
    });
    expect(deleted.json).toEqual({ deleted: true, type: 'webhook', id: webhook.id });
    expect((await get(app, ws.token, '/v2/webhook')).json.data.webhookList).toEqual([]);

    const refused = await callTool(client, 'create_webhook', {
      url: 'ftp://example.com/hook',
      objectTypeList: ['people'],
    });
    expect(refused.isError).toBe(true);
    expect(refused.json.status).toBe(400);
  });

  it('deletes a file with confirm', async () => {
    const file = await callTool(client, 'upload_file', {
      name: '지울 파일.txt',
      contentBase64: Buffer.from('지울 내용').toString('base64'),
      type: 'people',
      id: personId,
    });
    const id = file.json.data.id;
    const asked = await callTool(client, 'delete_record', { type: 'file', id });
    expect(asked.json).toMatchObject({ deleted: false, wouldDelete: { type: 'file', id } });
    expect((await callTool(client, 'get_file', { id })).isError).toBe(false);
    const deleted = await callTool(client, 'delete_record', { type: 'file', id, confirm: true });
    expect(deleted.json).toEqual({ deleted: true, type: 'file', id });
    expect((await callTool(client, 'get_file', { id })).json.status).toBe(404);
  });

  it("lists a sequence's steps, and an enrollment's timeline", async () => {
    const { sequenceId, enrollmentId, fresh } = await ws.write(async (w) => {
      const sequenceId = await makeSequence(w, '후속 시퀀스');
      await insertSequenceSteps(w, [
        {
          sequenceId,
          index: 0,
          type: 'email',
          executeImmediately: true,
          businessDay: 0,
          executionTime: null,
        },
        {
          sequenceId,
          index: 1,
          type: 'email',
          executeImmediately: false,
          businessDay: 2,
          executionTime: '0930',
        },
      ]);
      const enrollmentId = await makeEnrollment(w, {
        sequenceId,
        subjectType: 'people',
        subjectId: personId,
      });
      await insertTimelineEvents(w, [
        { enrollmentId, eventType: 'sendEmail', stepIndex: 0, date: '2030-01-01T00:00:00.000Z' },
        { enrollmentId, eventType: 'emailOpen', stepIndex: 0, date: '2030-01-01T01:00:00.000Z' },
      ]);
      const other = await makePerson(w);
      const fresh = await makeEnrollment(w, {
        sequenceId,
        subjectType: 'people',
        subjectId: other,
      });
      return { sequenceId, enrollmentId, fresh };
    });
    const steps = await callTool(client, 'list_sequences', { sequenceId, steps: true });
    expect(steps.isError, JSON.stringify(steps.json)).toBe(false);
    const apiSteps = await get(app, ws.token, `/v2/sequence/${sequenceId}/step`);
    expect(steps.json.records).toEqual(apiSteps.json.data.stepList);
    expect(steps.json.records.map((s: Json) => s.executionTime)).toEqual([null, '0930']);
    const timeline = await callTool(client, 'list_sequences', { enrollmentId });
    const apiTimeline = await get(
      app,
      ws.token,
      `/v2/sequence/enrollment/${enrollmentId}/timeline`,
    );
    expect(timeline.json.records).toEqual(apiTimeline.json.data.timelineList);
    expect(timeline.json.records.map((e: Json) => e.eventType)).toEqual(['sendEmail', 'emailOpen']);
    // Before its first step, and for an enrollment not there, the API's 400s.
    const early = await callTool(client, 'list_sequences', { enrollmentId: fresh });
    expect(early.json).toMatchObject({
      status: 400,
      message: 'sequenceEnrollStep이 존재하지 않습니다.',
    });
    const none = await callTool(client, 'list_sequences', { enrollmentId: 'nope-1' });
    expect(none.json).toMatchObject({
      status: 400,
      message: 'sequenceEnroll이 존재하지 않습니다.',
    });
    const mixed = await callTool(client, 'list_sequences', { sequenceId, enrollmentId });
    expect(mixed.isError).toBe(true);
    const alone = await callTool(client, 'list_sequences', { steps: true });
    expect(alone.json.message).toMatch(/'steps' needs 'sequenceId'/);
  });

  it("finds none of another workspace's notes, files, e-mails or webhooks", async () => {
    const file = await callTool(client, 'upload_file', {
      name: '우리 파일.txt',
      contentBase64: Buffer.from('우리 것').toString('base64'),
    });
    const theirs = await httpClient(url, other.token);
    try {
      const notes = await callTool(theirs, 'list_notes', { type: 'people', id: personId });
      expect(notes.json.status).toBe(404);
      const objectNotes = await callTool(theirs, 'list_notes', {
        type: 'custom-object',
        id: objectId,
      });
      expect(objectNotes.json.status).toBe(404);
      const reply = await callTool(theirs, 'add_note', { type: 'people', id: personId, text: 'x' });
      expect(reply.json.status).toBe(404);
      expect((await callTool(theirs, 'get_file', { id: file.json.data.id })).json.status).toBe(404);
      expect((await callTool(theirs, 'get_email', { id: emailId })).json.status).toBe(400);
      const all = await callTool(theirs, 'list_notes');
      expect(all.json.records).toEqual([]);
      expect((await callTool(theirs, 'list_webhooks')).json.records).toEqual([]);
    } finally {
      await theirs.close();
    }
  });
});

import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { differenceLine } from '../src/cli/verify-run.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { rowValues } from '../src/ingest/import-rows.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { FORMAT_OF } from '../src/ingest/transfer-format.ts';
import { addMemo } from '../src/resources/commands.ts';
import { defineCustomField, setCustomValues } from '../src/resources/custom-fields/writes.ts';
import { beginUpload, CHUNK_BYTES, insertChunk } from '../src/resources/files/writes.ts';
import { insertTodos } from '../src/resources/todos/writes.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { get, post, rowCount, testApp, testStore } from './helpers.ts';
import { type FormPart, multipartBody, SAMPLE_FILES } from './multipart.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

/** The differences `salescrm verify` finds in a workspace, as it prints them. */
async function verifyDifferences(store: TestStore, workspaceId: string): Promise<string[]> {
  const out: string[] = [];
  await verifyWorkspace(store, workspaceId, { onDifference: (d) => out.push(differenceLine(d)) });
  return out;
}

/** Every list endpoint a workspace answers, walked page by page. */
const LISTS = [
  '/v2/people',
  '/v2/organization',
  '/v2/deal',
  '/v2/lead',
  '/v2/product',
  '/v2/user',
  '/v2/team',
  '/v2/todo',
  '/v2/memo',
  '/v2/webForm',
  '/v2/sequence',
  '/v2/people/activity',
  '/v2/organization/activity',
  '/v2/lead/activity',
  '/v2/deal/activity',
  '/v2/people/history',
  '/v2/organization/history',
  '/v2/deal/history',
  '/v2/lead/history',
  '/v2/custom-object',
  '/v2/custom-object/activity',
  '/v2/custom-object/history',
  '/v2/custom-object-definitions',
  '/v2/pipeline',
];

/** POST `/v2/file` of `parts` (multipart) with a bearer token. */
async function upload(app: FastifyInstance, token: string, parts: FormPart[]) {
  const { payload, contentType } = multipartBody(parts);
  const res = await app.inject({
    method: 'POST',
    url: '/v2/file',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return JSON.parse(res.body).data.id as string;
}

/** A text file of `size` bytes (UTF-8, no NUL), different at every position. */
function textOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = 32 + ((i * 7 + (i >> 10)) % 90);
  return bytes;
}

/** What the first round trip added through the API beyond the demo: files, an e-mail, notes. */
interface Added {
  contractId: string;
  ticketId: string;
  /** Files by name: on a custom object (three chunks), on a deal, on nothing. */
  files: { big: string; pdf: string; loose: string; unfinished: string };
  bigBytes: Buffer;
  emailId: string;
}

/**
 * Adds to the demo workspace what the demo lacks: notes, a todo and history on custom
 * objects, a person's Ref field to a custom object, uploaded files (one of three chunks), an
 * upload left unfinished, and a sent e-mail with an attachment and an idempotency key.
 */
async function addBeyondTheDemo(
  store: TestStore,
  app: FastifyInstance,
  workspaceId: string,
  token: string,
): Promise<Added> {
  const firstId = async (table: 'people' | 'deals') =>
    (
      await store.db
        .selectFrom(table)
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  const objects = await store.db
    .selectFrom('custom_objects as o')
    .innerJoin('custom_object_definitions as d', (j) =>
      j.onRef('d.workspace_id', '=', 'o.workspace_id').onRef('d.id', '=', 'o.definition_id'),
    )
    .select(['o.id', 'd.name', 'o.pipeline_id'])
    .where('o.workspace_id', '=', workspaceId)
    .orderBy('o.id')
    .execute();
  const contractId = objects.find((o) => o.name === '계약서')!.id;
  const ticket = objects.find((o) => o.name === '티켓')!;
  const stages = await store.db
    .selectFrom('pipeline_stages')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('pipeline_id', '=', ticket.pipeline_id!)
    .orderBy('position')
    .execute();
  const changed = await post(app, token, `/v2/custom-object/${ticket.id}`, {
    pipelineId: ticket.pipeline_id,
    pipelineStageId: stages[3]!.id,
    memo: '고객과 통화 후 종료',
    fieldList: [
      { name: '이름', stringValue: '로그인 오류 (해결)' },
      { name: '우선순위', stringValue: '긴급' },
    ],
  });
  expect(changed.status, changed.text).toBe(200);
  const personId = await firstId('people');
  const admin = (await firstAdmin(store, workspaceId))!;
  await writeWorkspace(store, workspaceId, async (w) => {
    await addMemo(w, 'customObject', contractId, '계약서 검토 요청', admin);
    await insertTodos(w, [
      {
        subjectType: 'customObject' as 'deal',
        subjectId: contractId,
        title: '서명본 받기',
        ownerId: admin,
        dueAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
    const field = await defineCustomField(w, {
      recordType: 'people',
      name: '관련 계약서',
      type: 'customObject',
    });
    await setCustomValues(w, 'people', personId, { [field]: contractId }, admin);
  });
  const dealId = await firstId('deals');
  const bigBytes = textOfSize(2 * CHUNK_BYTES + 12_345);
  const big = await upload(app, token, [
    { name: 'objectType', value: 'customObject' },
    { name: 'objectId', value: contractId },
    { name: 'memo', value: '계약서 원본' },
    { name: 'file', filename: '계약서 원본.txt', data: bigBytes },
  ]);
  const pdf = await upload(app, token, [
    { name: 'objectType', value: 'deal' },
    { name: 'objectId', value: dealId },
    { name: 'file', filename: '견적서.pdf', data: SAMPLE_FILES.pdf },
  ]);
  const loose = await upload(app, token, [
    { name: 'memo', value: '어디에도 붙지 않은 파일' },
    { name: 'file', filename: '로고.png', data: SAMPLE_FILES.png },
  ]);
  const unfinished = await beginUpload(store, workspaceId, {
    name: '올리다 만 파일.txt',
    contentType: 'text/plain',
    ownerId: admin,
  });
  await insertChunk(store, workspaceId, unfinished, 0, Buffer.from('반쯤'));
  const sent = await app.inject({
    method: 'POST',
    url: '/v2/email',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': 'move-test-1',
    },
    payload: JSON.stringify({
      emailProvider: 'gmail',
      toAddressList: [{ email: 'kim@example.com', name: '김철수' }],
      ccAddressList: [{ email: 'lee@example.com' }],
      subject: '계약서 보내 드립니다',
      htmlBody: '<p>안녕하세요,</p><p>계약서를 <b>첨부</b>합니다.</p>',
      attachmentIdList: [pdf],
    }),
  });
  expect(sent.statusCode, sent.body).toBe(201);
  return {
    contractId,
    ticketId: ticket.id,
    files: { big, pdf, loose, unfinished },
    bigBytes,
    emailId: JSON.parse(sent.body).data.id,
  };
}

/**
 * Cursors are bound to their workspace (docs/decisions.md, Cursors): the one thing that may differ
 * (a note's `cursorId` in the memo list is one).
 */
function withoutCursors(text: string): string {
  return text.replace(/"(nextCursor|nextCurosr|cursorId)":"[^"]*"/g, '"$1":"…"');
}

/** Walks `url` in both workspaces at once (each in its app); asserts each page is the same bytes. */
async function comparePages(
  apps: [FastifyInstance, FastifyInstance],
  tokens: [string, string],
  url: string,
): Promise<number> {
  let cursors: [string | null, string | null] = [null, null];
  let pages = 0;
  do {
    const at = (c: string | null) =>
      c ? `${url}${url.includes('?') ? '&' : '?'}cursor=${c}` : url;
    const a = await get(apps[0], tokens[0], at(cursors[0]));
    const b = await get(apps[1], tokens[1], at(cursors[1]));
    expect(a.status, `${url}: ${a.text.slice(0, 200)}`).toBe(200);
    expect(withoutCursors(b.text), url).toBe(withoutCursors(a.text));
    cursors = [a.json.data.nextCursor ?? null, b.json.data.nextCursor ?? null];
    pages++;
  } while (cursors[0]);
  return pages;
}

async function exportToFile(store: TestStore, workspaceId: string, file: string) {
  const out = createWriteStream(file);
  const result = await exportWorkspace(store.path, workspaceId, out);
  out.end();
  await finished(out);
  return result;
}

describe('export then import into a fresh workspace', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let source: { workspaceId: string; token: string };
  let target: { workspaceId: string; token: string };
  let file: string;
  let exported: number;
  let smtp: SmtpSink;
  let added: Added;

  beforeAll(async () => {
    store = await testStore();
    smtp = await startSmtpSink();
    app = await testApp(store, { smtpUrl: smtp.url });
    const demo = await createDemoWorkspace(store, { seed: 7, people: 300 });
    source = { workspaceId: demo.workspaceId, token: demo.token };
    added = await addBeyondTheDemo(store, app, demo.workspaceId, demo.token);
    // Field settings of the field API (migrations 011, 018), which the export must carry too.
    await writeWorkspace(store, demo.workspaceId, async (w) => {
      await defineCustomField(w, {
        recordType: 'people',
        name: '주민번호',
        type: 'string',
        description: '민감한 값',
        showInCreateForm: true,
        isSensitive: true,
      });
      await defineCustomField(w, {
        recordType: 'deal',
        name: '계약 번호',
        type: 'number',
        preventDuplicates: true,
      });
      // A formula field (migration 018): its formula goes with it, its values are computed.
      await defineCustomField(w, {
        recordType: 'deal',
        name: '부가세 포함 금액',
        type: 'number',
        formula: '{{딜.금액}} * 1.1',
      });
    });
    file = `${store.path}.ndjson`;
    exported = (await exportToFile(store, demo.workspaceId, file)).records;
    const workspaceId = await createWorkspace(store, '가져온 워크스페이스');
    const result = await importFiles(store, {
      workspaceId,
      files: [file],
      actorId: '',
    });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const admin = await firstAdmin(store, demo.workspaceId);
    const { token } = await createToken(store, workspaceId, admin!);
    target = { workspaceId, token };
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await store?.dispose();
  });

  it('writes a header, then one line per row, every row of the workspace', () => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({ type: 'header', format: 'salescrm-workspace', version: 1 });
    const total = Object.values(header.counts as Record<string, number>).reduce((a, b) => a + b);
    expect(lines.length - 1).toBe(total);
    expect(total).toBe(exported);
    expect(header.counts.person).toBe(300);
    for (const type of [
      'user',
      'team',
      'pipeline',
      'customField',
      'deal',
      'quoteLine',
      'history',
      'sequence',
      'sequenceStep',
      'sequenceEvent',
      'customObjectDefinition',
      'customObject',
      'file',
      'fileChunk',
      'email',
      'recording',
    ]) {
      expect(header.counts[type], type).toBeGreaterThan(0);
    }
    // Three files (the unfinished upload stays out): three chunks, one and one; besides them,
    // the audio of each of the demo's recordings, a chunk each.
    const audio = header.counts.recording as number;
    expect([header.counts.file - audio, header.counts.fileChunk - audio]).toEqual([3, 5]);
    expect(lines.some((l) => l.includes(added.files.unfinished))).toBe(false);
    const chunks = lines.filter((l) => l.startsWith('{"type":"fileChunk"'));
    expect(Math.max(...chunks.map((l) => l.length))).toBeLessThan(CHUNK_BYTES * 1.4);
  });

  it('gives byte-identical list pages on every list endpoint', async () => {
    for (const url of LISTS) await comparePages([app, app], [source.token, target.token], url);
  }, 120_000);

  it('gives byte-identical single records, deal quotes, web-form submissions and sequences', async () => {
    const tokens: [string, string] = [source.token, target.token];
    const ids = async (
      table: 'people' | 'organizations' | 'deals' | 'leads' | 'web_forms' | 'sequences',
    ) =>
      (
        await store.db
          .selectFrom(table)
          .select('id')
          .where('workspace_id', '=', source.workspaceId)
          .execute()
      ).map((r) => r.id);
    const urls = [
      ...(await ids('people')).slice(0, 60).map((id) => `/v2/people/${id}`),
      ...(await ids('organizations')).slice(0, 30).map((id) => `/v2/organization/${id}`),
      ...(await ids('deals'))
        .slice(0, 40)
        .flatMap((id) => [`/v2/deal/${id}`, `/v2/deal/${id}/quote`]),
      ...(await ids('leads'))
        .slice(0, 30)
        .flatMap((id) => [`/v2/lead/${id}`, `/v2/lead/${id}/quote`]),
      ...(await ids('web_forms')).map((id) => `/v2/webForm/${id}/submit`),
      ...(await ids('sequences')).flatMap((id) => [
        `/v2/sequence/${id}`,
        `/v2/sequence/${id}/step`,
        `/v2/sequence/${id}/enrollment`,
      ]),
      ...(
        await store.db
          .selectFrom('sequence_timeline')
          .select('enrollment_id')
          .distinct()
          .where('workspace_id', '=', source.workspaceId)
          .limit(30)
          .execute()
      ).map((r) => `/v2/sequence/enrollment/${r.enrollment_id}/timeline`),
    ];
    for (const url of urls) await comparePages([app, app], tokens, url);
  }, 120_000);

  it('gives byte-identical custom objects, their definitions, fields, notes and files', async () => {
    const tokens: [string, string] = [source.token, target.token];
    const objects = await store.db
      .selectFrom('custom_objects')
      .select(['id', 'definition_id'])
      .where('workspace_id', '=', source.workspaceId)
      .execute();
    expect(objects.length).toBeGreaterThan(20);
    const definitions = [...new Set(objects.map((o) => o.definition_id))];
    const dealId = (
      await store.db
        .selectFrom('files')
        .select('subject_id')
        .where('id', '=', added.files.pdf)
        .executeTakeFirstOrThrow()
    ).subject_id!;
    const urls = [
      ...objects.map((o) => `/v2/custom-object/${o.id}`),
      ...definitions.map((id) => `/v2/custom-object?customObjectDefinitionId=${id}`),
      ...definitions.map((id) => `/v2/field/custom-object?customObjectDefinitionId=${id}`),
      `/v2/custom-object/activity?customObjectId=${added.ticketId}`,
      `/v2/custom-object/history?customObjectId=${added.ticketId}`,
      `/v2/file?objectType=customObject&objectId=${added.contractId}`,
      `/v2/file?objectType=deal&objectId=${dealId}`,
      `/v2/email/${added.emailId}`,
    ];
    for (const url of urls) await comparePages([app, app], tokens, url);
    const contract = await get(app, target.token, `/v2/custom-object/${added.contractId}`);
    expect(contract.json.data.customObject['최근 작성된 노트']).toBe('계약서 원본');
    const files = await get(
      app,
      target.token,
      `/v2/file?objectType=customObject&objectId=${added.contractId}`,
    );
    expect(files.json.data.fileList.map((f: { id: string }) => f.id)).toEqual([added.files.big]);
  });

  it('serves every file byte for byte, with its headers', async () => {
    for (const id of [added.files.big, added.files.pdf, added.files.loose]) {
      const download = (token: string) =>
        app.inject({
          method: 'GET',
          url: `/v2/file/${id}/content`,
          headers: { authorization: `Bearer ${token}` },
        });
      const a = await download(source.token);
      const b = await download(target.token);
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(b.rawPayload.equals(a.rawPayload), id).toBe(true);
      for (const h of ['content-type', 'content-length', 'content-disposition'])
        expect(b.headers[h], h).toBe(a.headers[h]);
    }
    const big = await app.inject({
      method: 'GET',
      url: `/v2/file/${added.files.big}/content`,
      headers: { authorization: `Bearer ${target.token}` },
    });
    expect(big.rawPayload.equals(added.bigBytes)).toBe(true);
    const chunks = await store.db
      .selectFrom('file_chunks')
      .select(['seq', 'data'])
      .where('workspace_id', '=', target.workspaceId)
      .where('file_id', '=', added.files.big)
      .orderBy('seq')
      .execute();
    expect(chunks.map((c) => [c.seq, c.data.length])).toEqual([
      [0, CHUNK_BYTES],
      [1, CHUNK_BYTES],
      [2, 12_345],
    ]);
    const unfinished = await get(app, target.token, `/v2/file/${added.files.unfinished}/content`);
    expect(unfinished.status).toBe(404);
  });

  it('gives byte-identical recordings, transcripts and their audio', async () => {
    const recordings = await store.db
      .selectFrom('recordings')
      .select(['id', 'file_id', 'subject_type', 'subject_id'])
      .where('workspace_id', '=', source.workspaceId)
      .execute();
    // The demo records some of its meetings.
    expect(recordings.length).toBeGreaterThan(0);
    const tokens: [string, string] = [source.token, target.token];
    for (const r of recordings) {
      await comparePages([app, app], tokens, `/v2/recording/${r.id}`);
      await comparePages([app, app], tokens, `/v2/recording/${r.id}/transcript`);
      const audio = (token: string) =>
        app.inject({
          method: 'GET',
          url: `/v2/file/${r.file_id}/content`,
          headers: { authorization: `Bearer ${token}` },
        });
      const [a, b] = [await audio(source.token), await audio(target.token)];
      expect(a.statusCode).toBe(200);
      expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    }
    const copied = await store.db
      .selectFrom('recordings')
      .select(['id', 'file_id', 'subject_type', 'subject_id'])
      .where('workspace_id', '=', target.workspaceId)
      .execute();
    const byId = (rows: typeof recordings) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(byId(copied)).toEqual(byId(recordings));
  });

  it('keeps the sent e-mail with its idempotency key and attachments', async () => {
    const key = (workspaceId: string) =>
      store.db
        .selectFrom('emails')
        .select(['id', 'idempotency_key', 'request_hash', 'attachment_ids'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute();
    expect(await key(target.workspaceId)).toEqual(await key(source.workspaceId));
    // The demo's e-mails (behind its activities) were sent by no request: no key.
    const keys = (await key(target.workspaceId)).map((e) => e.idempotency_key);
    expect(keys.filter((k) => k !== null)).toEqual(['move-test-1']);
  });

  it('gives the same field definitions, with their settings', async () => {
    for (const type of [
      'people',
      'organization',
      'deal',
      'lead',
      'product',
      'quote',
      'todo',
      'custom-object',
    ]) {
      const a = await get(app, source.token, `/v2/field/${type}`);
      const b = await get(app, target.token, `/v2/field/${type}`);
      expect(b.text, type).toBe(a.text);
    }
    const settings = (workspaceId: string) =>
      store.db
        .selectFrom('custom_fields')
        .select([
          'name',
          'description',
          'show_in_create_form',
          'is_sensitive',
          'prevent_duplicates',
        ])
        .where('workspace_id', '=', workspaceId)
        .where('name', 'in', ['주민번호', '계약 번호'])
        .orderBy('name')
        .execute();
    const imported = await settings(target.workspaceId);
    expect(imported).toEqual(await settings(source.workspaceId));
    expect(
      imported.map((r) => [
        r.name,
        r.description,
        Number(r.show_in_create_form),
        Number(r.is_sensitive),
        Number(r.prevent_duplicates),
      ]),
    ).toEqual([
      ['계약 번호', null, 0, 0, 1],
      ['주민번호', '민감한 값', 1, 1, 0],
    ]);
  });

  it('reads a custom field line of an earlier export, without the settings, with none set', () => {
    const f = FORMAT_OF.get('customField')!;
    const line = {
      type: 'customField',
      id: 'field0000000000000001',
      record_type: 'people',
      name: '옛 필드',
      kind: 'string',
      position: 0,
      required: false,
      options: null,
      created_at: '2024-04-08T00:00:00.000Z',
    };
    expect(f.check.Check(line)).toBe(true);
    const row = rowValues(f, line, 'ws1', 'API');
    const at = (column: string) => row[1 + f.columns.findIndex((c) => c.name === column)];
    expect([
      at('description'),
      at('show_in_create_form'),
      at('is_sensitive'),
      at('prevent_duplicates'),
    ]).toEqual([null, 0, 0, 0]);
    expect(f.check.Check({ ...line, is_sensitive: 'yes' })).toBe(false);
  });

  it('exports the imported workspace as the same lines', async () => {
    const again = `${store.path}.again.ndjson`;
    await exportToFile(store, target.workspaceId, again);
    const body = (f: string) => readFileSync(f, 'utf8').split('\n').slice(1).join('\n');
    expect(body(again)).toBe(body(file));
  });

  it('refuses a second import of the same file: every line a duplicate, nothing written', async () => {
    const before = await store.db
      .selectFrom('workspaces')
      .select('data_version')
      .where('id', '=', target.workspaceId)
      .executeTakeFirstOrThrow();
    const result = await importFiles(store, {
      workspaceId: target.workspaceId,
      files: [file],
      actorId: '',
      maxReported: 5,
    });
    expect(result.committed).toBe(false);
    expect(result.rejects).toHaveLength(5);
    expect(result.rejectCount).toBeGreaterThan(exported / 2);
    expect(result.rejects[0]).toMatchObject({ line: 2 });
    expect(result.rejects[0]!.reason).toMatch(/duplicate id/);
    const after = await store.db
      .selectFrom('workspaces')
      .select('data_version')
      .where('id', '=', target.workspaceId)
      .executeTakeFirstOrThrow();
    expect(after.data_version).toBe(before.data_version);
  });

  it('leaves both workspaces verifying clean: every stored JSON as the base tables render it', async () => {
    expect(await verifyDifferences(store, source.workspaceId)).toEqual([]);
    expect(await verifyDifferences(store, target.workspaceId)).toEqual([]);
  });
});

/** The indexes of a SQLite database, by name, with their SQL. */
function indexesOf(store: TestStore): Promise<{ name: string; sql: string | null }[]> {
  return store.db
    .selectFrom('sqlite_master' as never)
    .select(['name' as never, 'sql' as never])
    .where('type' as never, '=', 'index' as never)
    .orderBy('name' as never)
    .execute() as never;
}

describe('export then import into a new database (the workspace alone in it)', () => {
  let source: TestStore;
  let fresh: TestStore;
  let sourceApp: FastifyInstance;
  let freshApp: FastifyInstance;
  let tokens: [string, string];
  let file: string;
  let indexesBefore: { name: string; sql: string | null }[];
  let freshWorkspaceId: string;

  beforeAll(async () => {
    source = await testStore();
    const demo = await createDemoWorkspace(source, { seed: 11, people: 200 });
    file = `${source.path}.ndjson`;
    await exportToFile(source, demo.workspaceId, file);
    fresh = await testStore();
    const workspaceId = await createWorkspace(fresh, '새 데이터베이스');
    freshWorkspaceId = workspaceId;
    indexesBefore = await indexesOf(fresh);
    const result = await importFiles(fresh, { workspaceId, files: [file], actorId: '' });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const admin = await firstAdmin(source, demo.workspaceId);
    const { token } = await createToken(fresh, workspaceId, admin!);
    tokens = [demo.token, token];
    sourceApp = await testApp(source);
    freshApp = await testApp(fresh);
  }, 120_000);

  afterAll(async () => {
    await sourceApp?.close();
    await freshApp?.close();
    await source?.dispose();
    await fresh?.dispose();
  });

  it('ends with every index the database had, as it was', async () => {
    expect(indexesBefore.length).toBeGreaterThan(30);
    expect(await indexesOf(fresh)).toEqual(indexesBefore);
  });

  it('gives the same list pages, walked through those indexes', async () => {
    for (const url of [
      '/v2/people',
      '/v2/deal',
      '/v2/deal/activity',
      '/v2/memo',
      '/v2/lead/history',
    ]) {
      await comparePages([sourceApp, freshApp], tokens, url);
    }
  });

  it('leaves the imported workspace verifying clean', async () => {
    expect(await verifyDifferences(fresh, freshWorkspaceId)).toEqual([]);
  });

  it('indexes the rows a second file brings to a table already indexed', async () => {
    const other = await testStore();
    try {
      const workspaceId = await createWorkspace(other, '두 파일');
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      // The last activities go in a second file: the first one's history lines come after
      // its activities, so the activities' indexes exist when the second file is read.
      const activities = lines.filter((l) => l.startsWith('{"type":"activity"'));
      const late = new Set(activities.slice(-25));
      expect(late.size).toBe(25);
      const first = `${other.path}.1.ndjson`;
      const second = `${other.path}.2.ndjson`;
      writeFileSync(first, `${lines.filter((l) => !late.has(l)).join('\n')}\n`);
      writeFileSync(second, `${[...late].join('\n')}\n`);
      const result = await importFiles(other, {
        workspaceId,
        files: [first, second],
        actorId: '',
      });
      expect(result.rejects).toEqual([]);
      expect(result.committed).toBe(true);
      expect(await indexesOf(other)).toEqual(indexesBefore);
      const admin = await firstAdmin(other, workspaceId);
      const { token } = await createToken(other, workspaceId, admin!);
      const app = await testApp(other);
      try {
        await comparePages([sourceApp, app], [tokens[0], token], '/v2/deal/activity');
      } finally {
        await app.close();
      }
    } finally {
      await other.dispose();
    }
  });

  it('keeps the indexes when a refused file imports nothing', async () => {
    const other = await testStore();
    try {
      const workspaceId = await createWorkspace(other, '거절');
      const before = await indexesOf(other);
      const bad = `${other.path}.bad.ndjson`;
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      lines.push('{"type":"person","id":"not an id"}');
      writeFileSync(bad, `${lines.join('\n')}\n`);
      const result = await importFiles(other, { workspaceId, files: [bad], actorId: '' });
      expect(result.committed).toBe(false);
      expect(result.rejects).toHaveLength(1);
      expect(await indexesOf(other)).toEqual(before);
      const people = await other.db
        .selectFrom('people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(people.n)).toBe(0);
    } finally {
      await other.dispose();
    }
  });
});

describe('refusals of custom object, file and e-mail lines', () => {
  let store: TestStore;
  const at = '2024-04-08T05:25:26.020Z';
  const first = Buffer.alloc(CHUNK_BYTES, 0x61);
  const rest = Buffer.from('마지막 조각');
  /** A small export: a custom object on its pipeline, its field and note, a file of two chunks, an e-mail. */
  type Line = Record<string, unknown>;
  const good = (): Line[] => [
    {
      type: 'user',
      id: 'user-1',
      name: '관리자',
      email: 'admin@example.com',
      status: 'active',
      role: 'admin',
      created_at: at,
      updated_at: at,
    },
    {
      type: 'pipeline',
      id: 'pipe-1',
      kind: 'customObject',
      name: '처리',
      position: 0,
      created_at: at,
    },
    { type: 'pipelineStage', id: 'stage-1', pipeline_id: 'pipe-1', name: '접수', position: 0 },
    {
      type: 'customObjectDefinition',
      id: 'def-1',
      name: '티켓',
      pipeline_id: 'pipe-1',
      position: 0,
      created_at: at,
    },
    {
      type: 'customField',
      id: 'field-1',
      record_type: 'customObject',
      name: '유형',
      kind: 'string',
      position: 0,
      required: false,
      options: null,
      created_at: at,
      custom_object_definition_id: 'def-1',
    },
    {
      type: 'customObject',
      id: 'obj-1',
      definition_id: 'def-1',
      record_number: 1,
      name: '로그인 문의',
      pipeline_id: 'pipe-1',
      stage_id: 'stage-1',
      owner_id: 'user-1',
      team_ids: [],
      custom: { 'field-1': '문의' },
      created_at: at,
      updated_at: at,
    },
    {
      type: 'note',
      id: 'note-1',
      subject_type: 'customObject',
      subject_id: 'obj-1',
      text: '확인 중',
      author_id: 'user-1',
      created_at: at,
      updated_at: at,
    },
    {
      type: 'file',
      id: 'file-1',
      name: '로그.txt',
      content_type: 'text/plain; charset=utf-8',
      size: first.length + rest.length,
      chunk_count: 2,
      status: 'ready',
      subject_type: 'customObject',
      subject_id: 'obj-1',
      memo: null,
      owner_id: 'user-1',
      created_at: at,
    },
    { type: 'fileChunk', file_id: 'file-1', seq: 0, data: first.toString('base64') },
    { type: 'fileChunk', file_id: 'file-1', seq: 1, data: rest.toString('base64') },
    {
      type: 'email',
      id: 'mail-1',
      status: 'delivery',
      subject: '안내',
      from_address: { email: 'admin@example.com', name: '관리자' },
      to_list: [{ email: 'kim@example.com', name: null }],
      cc_list: [],
      bcc_list: [],
      html_body: '<p>안내</p>',
      text_body: '안내',
      attachment_ids: ['file-1'],
      message_id: '<m1@example.com>',
      sender_id: 'user-1',
      idempotency_key: 'key-1',
      request_hash: 'abc',
      created_at: at,
    },
  ];

  /** Imports `lines` into a new workspace: the result and the rows written. */
  async function importLines(lines: Line[]) {
    const workspaceId = await createWorkspace(store, '거절 검사');
    const path = `${store.path}.${workspaceId}.ndjson`;
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const result = await importFiles(store, { workspaceId, files: [path], actorId: '' });
    let written = 0;
    for (const table of ['custom_objects', 'files', 'file_chunks', 'emails', 'users'] as const) {
      written += await rowCount(store, table, workspaceId);
    }
    return { result, written, workspaceId };
  }

  /**
   * `lines` refused, nothing written: first on line `line` (1-based), for `reason` (lines
   * that name what a refused line brings are refused after it).
   */
  async function refused(lines: Line[], line: number, reason: RegExp) {
    const { result, written } = await importLines(lines);
    expect(result.committed).toBe(false);
    expect(result.rejects[0]!.line).toBe(line);
    expect(result.rejects[0]!.reason).toMatch(reason);
    expect(result.rejects[0]!.reason).not.toContain('\n');
    expect(written).toBe(0);
  }

  const index = (lines: Line[], type: string, n = 0) =>
    lines.map((l, i) => [l, i] as const).filter(([l]) => l.type === type)[n]![1];
  const replaced = (type: string, change: Line, n = 0) => {
    const lines = good();
    const i = index(lines, type, n);
    lines[i] = { ...lines[i], ...change };
    return { lines, line: i + 1 };
  };

  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('imports the good lines whole: the file reads back byte for byte', async () => {
    const { result, workspaceId } = await importLines(good());
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const chunks = await store.db
      .selectFrom('file_chunks')
      .select('data')
      .where('workspace_id', '=', workspaceId)
      .orderBy('seq')
      .execute();
    expect(Buffer.concat(chunks.map((c) => c.data)).equals(Buffer.concat([first, rest]))).toBe(
      true,
    );
    expect(await verifyDifferences(store, workspaceId)).toEqual([]);
  });

  it('refuses a record of an unknown definition', async () => {
    const { lines, line } = replaced('customObject', { definition_id: 'def-none' });
    await refused(
      lines,
      line,
      /^customObject 'obj-1': 'definition_id': no customObjectDefinition 'def-none'$/,
    );
  });

  it('refuses a custom object field of an unknown definition, and a field of another one', async () => {
    const a = replaced('customField', { custom_object_definition_id: 'def-none' });
    await refused(a.lines, a.line, /no customObjectDefinition 'def-none'/);
    const b = replaced('customField', { record_type: 'people' });
    await refused(b.lines, b.line, /'custom_object_definition_id' is for customObject fields only/);
  });

  it('refuses a formula field the API would not make, and a value written for one', async () => {
    const list = replaced('customField', { kind: 'user', formula: '"a"' });
    await refused(list.lines, list.line, /'formula' on a user field/);
    const required = replaced('customField', { formula: '"a"', required: true });
    await refused(required.lines, required.line, /'required' on a formula field/);
    const unclosed = replaced('customField', { formula: '{{티켓.유형' });
    await refused(unclosed.lines, unclosed.line, /'formula' at character 1: .*'}}'/);
    const deep = replaced('customField', { formula: '('.repeat(2_000) });
    await refused(deep.lines, deep.line, /'formula' at character \d+: /);
    // The custom object's value for the field, which is a formula now: its value is computed.
    const written = replaced('customField', { formula: '"a"' });
    await refused(written.lines, index(written.lines, 'customObject') + 1, /수식 필드/);
  });

  it('takes attachments of files later in the file, and refuses those of no file or on a todo', async () => {
    const attached = (value: unknown) => {
      const lines = good();
      const field = index(lines, 'customField');
      lines[field] = { ...lines[field], kind: 'multiAttachment' };
      const object = index(lines, 'customObject');
      lines[object] = { ...lines[object], custom: { 'field-1': value } };
      return { lines, line: object + 1 };
    };
    // The file's line comes after the record's: its id is checked at the end.
    const ok = await importLines(attached(['file-1']).lines);
    expect(ok.result.rejects).toEqual([]);
    expect(ok.result.committed).toBe(true);
    const [object] = await store.db
      .selectFrom('custom_objects')
      .select('body')
      .where('workspace_id', '=', ok.workspaceId)
      .execute();
    expect(JSON.parse(String(object!.body)).유형).toEqual([{ id: 'file-1', name: '로그.txt' }]);
    expect(await verifyDifferences(store, ok.workspaceId)).toEqual([]);

    const none = attached(['file-1', 'file-none']);
    await refused(
      none.lines,
      none.line,
      /^customObject 'obj-1': '유형' 필드: no file 'file-none'$/,
    );
    const todo = replaced('customField', {
      record_type: 'todo',
      custom_object_definition_id: '',
      kind: 'multiAttachment',
    });
    await refused(todo.lines, todo.line, /a todo field cannot be multiAttachment/);
  });

  it('refuses numbers past what the columns hold (PostgreSQL would fail the import)', async () => {
    const number = replaced('customObject', { record_number: 3_000_000_000 });
    await refused(number.lines, number.line, /^customObject: \/record_number: .*2147483647/);
    const size = 10 ** 15;
    const huge = replaced('file', { size, chunk_count: Math.ceil(size / CHUNK_BYTES) });
    await refused(huge.lines, huge.line, /^file: \/chunk_count: .*2147483647/);
  });

  it('refuses a record number taken in its definition, and a stage of another pipeline', async () => {
    const lines = good();
    const i = index(lines, 'customObject');
    lines.splice(i + 1, 0, { ...lines[i], id: 'obj-2' });
    await refused(lines, i + 2, /'record_number' 1 is taken in definition 'def-1'/);
    const b = replaced('customObject', { pipeline_id: null });
    await refused(b.lines, b.line, /'stage_id' without 'pipeline_id'/);
  });

  it('refuses a note of an unknown custom object', async () => {
    const { lines, line } = replaced('note', { subject_id: 'obj-none' });
    await refused(lines, line, /^note 'note-1': 'subject_id': no customObject 'obj-none'$/);
  });

  it('refuses a chunk of an unknown file', async () => {
    const { lines, line } = replaced('fileChunk', { file_id: 'file-none' });
    await refused(lines, line, /^fileChunk: 'file_id': no file 'file-none'$/);
  });

  it('refuses chunks out of order', async () => {
    const lines = good();
    const i = index(lines, 'fileChunk');
    [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
    const { result, written } = await importLines(lines);
    expect(result.committed).toBe(false);
    expect(written).toBe(0);
    expect(result.rejects[0]).toMatchObject({
      line: i + 1,
      reason:
        "fileChunk: chunk 1 of file 'file-1' where chunk 0 was due: chunks come in order from 0",
    });
  });

  it('refuses a short chunk before the last, and bytes that are not base64', async () => {
    const a = replaced('fileChunk', { data: rest.toString('base64') });
    const { result } = await importLines(a.lines);
    expect(result.committed).toBe(false);
    expect(result.rejects[0]).toMatchObject({ line: a.line + 1 });
    expect(result.rejects[0]!.reason).toMatch(/follows a chunk of 16 bytes/);
    const b = replaced('fileChunk', { data: 'abc' }, 1);
    await refused(b.lines, b.line, /'data' of chunk 1 is not base64/);
  });

  it('refuses a file whose chunks do not make the whole file, naming the file line', async () => {
    const lines = good();
    const chunk = index(lines, 'fileChunk', 1);
    lines.splice(chunk, 1);
    await refused(
      lines,
      index(lines, 'file') + 1,
      /^file 'file-1': its chunks hold 1 of 2 chunks, 262144 of 262160 bytes$/,
    );
    const b = replaced('file', { size: CHUNK_BYTES * 3 });
    await refused(b.lines, b.line, /'chunk_count' 2 does not hold 'size' 786432/);
  });

  it('with --skip-invalid, leaves out a file short of a chunk, and the chunks it had', async () => {
    const lines = good();
    lines.splice(index(lines, 'fileChunk', 1), 1);
    const workspaceId = await createWorkspace(store, '건너뛰기');
    const path = `${store.path}.${workspaceId}.ndjson`;
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const result = await importFiles(store, {
      workspaceId,
      files: [path],
      actorId: '',
      skipInvalid: true,
      rejectsPath: `${path}.rejects`,
    });
    expect(result.committed).toBe(true);
    expect(result.rejects).toEqual([expect.objectContaining({ line: index(lines, 'file') + 1 })]);
    expect([result.counts.file, result.counts.fileChunk, result.counts.customObject]).toEqual([
      0, 0, 1,
    ]);
    const left = await store.db
      .selectFrom('file_chunks')
      .select('seq')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses an e-mail whose idempotency key another e-mail has', async () => {
    const lines = good();
    const i = index(lines, 'email');
    lines.push({ ...lines[i], id: 'mail-2' });
    await refused(lines, lines.length, /'idempotency_key' 'key-1' is another e-mail's/);
  });

  it('imports an earlier export: no custom object lines, fields without their definition column', async () => {
    const lines: Line[] = good().filter(
      (l) =>
        !['customObjectDefinition', 'customObject', 'note', 'file', 'fileChunk', 'email'].includes(
          l.type as string,
        ) && l.kind !== 'customObject',
    );
    const field = {
      type: 'customField',
      id: 'field-2',
      record_type: 'people',
      name: '옛 필드',
      kind: 'string',
      position: 0,
      required: false,
      options: null,
      created_at: at,
    };
    const { result, workspaceId } = await importLines([
      ...lines.filter((l) => l.type !== 'customField' && l.type !== 'pipelineStage'),
      field,
    ]);
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const row = await store.db
      .selectFrom('custom_fields')
      .select('custom_object_definition_id')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    expect(row.custom_object_definition_id).toBe('');
  });
});

/**
 * A demo workspace moved whole on the test's store (SQLite or PostgreSQL): exported, imported
 * into a fresh workspace of the same database, and read back through every read of custom
 * objects, files and e-mails, each answer the same bytes as the source's (cursors aside),
 * ids kept. The demo has no files: some are uploaded first, on a custom object, a deal, a
 * person and on nothing, and an e-mail is sent with one attached.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { exportWorkspace } from '../src/ingest/export.ts';
import { importFiles } from '../src/ingest/run-import.ts';
import { CHUNK_BYTES } from '../src/resources/files/writes.ts';
import { createToken, createWorkspace, firstAdmin } from '../src/resources/workspaces/writes.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { get, post, type TestStore, testApp, testStore } from './helpers.ts';
import { type FormPart, multipartBody, SAMPLE_FILES } from './multipart.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/** Cursors are bound to their workspace: the one thing the two answers may differ in. */
function withoutCursors(text: string): string {
  return text.replace(/"(nextCursor|nextCurosr|cursorId)":"[^"]*"/g, '"$1":"…"');
}

describe('a demo workspace exported and imported reads the same', { timeout: 180_000 }, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let smtp: SmtpSink;
  let dir: string;
  let source: string;
  let target: string;
  let targetId: string;
  let definitions: { id: string; name: string }[];
  let objects: { id: string }[];
  let files: { id: string; objectType: string | null; objectId: string | null }[];
  let emailIds: string[];

  /** GETs `url` of both workspaces, page by page; asserts the same bytes, returns the pages. */
  async function same(url: string): Promise<unknown[]> {
    const pages: unknown[] = [];
    let cursors: [string | null, string | null] = [null, null];
    do {
      const at = (c: string | null) =>
        c ? `${url}${url.includes('?') ? '&' : '?'}cursor=${c}` : url;
      const a = await get(app, source, at(cursors[0]));
      const b = await get(app, target, at(cursors[1]));
      expect(a.status, `${url}: ${a.text.slice(0, 300)}`).toBe(200);
      expect(withoutCursors(b.text), url).toBe(withoutCursors(a.text));
      pages.push(a.json);
      cursors = [a.json.data?.nextCursor ?? null, b.json.data?.nextCursor ?? null];
    } while (cursors[0]);
    return pages;
  }

  async function upload(parts: FormPart[]): Promise<string> {
    const { payload, contentType } = multipartBody(parts);
    const res = await app.inject({
      method: 'POST',
      url: '/v2/file',
      headers: { authorization: `Bearer ${source}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return JSON.parse(res.body).data.id;
  }

  beforeAll(async () => {
    store = await testStore();
    smtp = await startSmtpSink();
    app = await testApp(store, { smtpUrl: smtp.url });
    dir = mkdtempSync(join(tmpdir(), 'salescrm-move-'));
    const demo = await createDemoWorkspace(store, { seed: 5, people: 150 });
    source = demo.token;

    const list = await get(app, source, '/v2/custom-object-definitions');
    definitions = list.json.data.customObjectDefinitionList;
    objects = (
      await store.db
        .selectFrom('custom_objects')
        .select('id')
        .where('workspace_id', '=', demo.workspaceId)
        .orderBy('id')
        .execute()
    ).map((o) => ({ id: o.id }));
    const first = async (table: 'people' | 'deals') =>
      (
        await store.db
          .selectFrom(table)
          .select('id')
          .where('workspace_id', '=', demo.workspaceId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [personId, dealId] = [await first('people'), await first('deals')];
    const big = Buffer.alloc(CHUNK_BYTES + 4_321);
    for (let i = 0; i < big.length; i++) big[i] = 32 + ((i * 11) % 95);
    files = [];
    const attach = async (
      objectType: string | null,
      objectId: string | null,
      filename: string,
      data: Buffer,
    ) => {
      const target: FormPart[] =
        objectType === null
          ? []
          : [
              { name: 'objectType', value: objectType },
              { name: 'objectId', value: objectId! },
            ];
      const id = await upload([...target, { name: 'file', filename, data }]);
      files.push({ id, objectType, objectId });
      return id;
    };
    await attach('customObject', objects[0]!.id, '계약서 원본.txt', big);
    await attach('customObject', objects[0]!.id, '서명.png', SAMPLE_FILES.png);
    const pdf = await attach('deal', dealId, '견적서.pdf', SAMPLE_FILES.pdf);
    await attach('people', personId, '명함.jpg', SAMPLE_FILES.jpg);
    await attach(null, null, '로고.png', SAMPLE_FILES.png);
    const sent = await app.inject({
      method: 'POST',
      url: '/v2/email',
      headers: {
        authorization: `Bearer ${source}`,
        'content-type': 'application/json',
        'idempotency-key': 'move-1',
      },
      payload: JSON.stringify({
        emailProvider: 'gmail',
        toAddressList: [{ email: 'kim@example.com', name: '김철수' }],
        subject: '견적서 보내 드립니다',
        htmlBody: '<p>견적서를 <b>첨부</b>합니다.</p>',
        attachmentIdList: [pdf],
      }),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // A note answering another on a custom object: a thread of the notes' list.
    const note = await post(app, source, `/v2/custom-object/${objects[1]!.id}/memo`, {
      text: '검토 부탁드립니다',
    });
    expect(note.status, note.text).toBe(201);
    const reply = await post(app, source, `/v2/custom-object/${objects[1]!.id}/memo`, {
      text: '확인했습니다',
      parentId: note.json.data.memo.id,
    });
    expect(reply.status, reply.text).toBe(201);
    emailIds = (
      await store.db
        .selectFrom('emails')
        .select('id')
        .where('workspace_id', '=', demo.workspaceId)
        .orderBy('id')
        .execute()
    ).map((e) => e.id);

    const file = join(dir, 'workspace.ndjson');
    const out = createWriteStream(file);
    await exportWorkspace(store.path || store.url, demo.workspaceId, out);
    out.end();
    await finished(out);
    const workspaceId = await createWorkspace(store, '옮겨 온 워크스페이스');
    targetId = workspaceId;
    const result = await importFiles(store, { workspaceId, files: [file], actorId: '' });
    expect(result.rejects).toEqual([]);
    expect(result.committed).toBe(true);
    const admin = (await firstAdmin(store, demo.workspaceId))!;
    target = (await createToken(store, workspaceId, admin)).token;
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await store?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has custom objects, files and e-mails to compare', () => {
    expect(definitions.length).toBeGreaterThan(1);
    expect(objects.length).toBeGreaterThan(20);
    expect(emailIds.length).toBeGreaterThan(10);
  });

  it('lists the same custom object definitions, records, fields and pipelines', async () => {
    await same('/v2/custom-object-definitions');
    await same('/v2/custom-object');
    await same('/v2/custom-object?limit=7');
    await same('/v2/field/custom-object');
    await same('/v2/pipeline');
    for (const d of definitions) {
      await same(`/v2/custom-object?customObjectDefinitionId=${d.id}`);
      await same(`/v2/custom-object?customObjectDefinitionName=${encodeURIComponent(d.name)}`);
      await same(`/v2/field/custom-object?customObjectDefinitionId=${d.id}`);
    }
  });

  it('reads the same custom objects, their activities, history, notes and links', async () => {
    await same('/v2/custom-object/activity');
    await same('/v2/custom-object/history');
    await same('/v2/memo');
    for (const { id } of objects) {
      await same(`/v2/custom-object/${id}`);
      await same(`/v2/custom-object/activity?customObjectId=${id}`);
      await same(`/v2/custom-object/history?customObjectId=${id}`);
      for (const to of ['memo', 'people', 'organization', 'deal', 'lead']) {
        await same(`/v2/object/custom-object/${id}/association/${to}/primary`);
      }
      for (const to of ['people', 'organization', 'deal', 'lead', 'custom-object']) {
        await same(`/v2/object/custom-object/${id}/association/${to}/custom`);
      }
    }
  });

  it("lists the same files of each record, and serves each file's bytes and headers", async () => {
    for (const f of files) {
      if (f.objectType !== null) {
        await same(`/v2/file?objectType=${f.objectType}&objectId=${f.objectId}`);
        await same(`/v2/file?objectType=${f.objectType}&objectId=${f.objectId}&limit=1`);
      }
      const [a, b] = await Promise.all(
        [source, target].map((token) =>
          app.inject({
            method: 'GET',
            url: `/v2/file/${f.id}/content`,
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
      expect(a!.statusCode, f.id).toBe(200);
      expect(b!.statusCode, f.id).toBe(200);
      expect(b!.rawPayload.equals(a!.rawPayload), f.id).toBe(true);
      for (const h of ['content-type', 'content-length', 'content-disposition']) {
        expect(b!.headers[h], `${f.id} ${h}`).toBe(a!.headers[h]);
      }
    }
  });

  it('leaves the imported workspace verifying clean: its stored JSON as its rows render it', async () => {
    const differences: unknown[] = [];
    await verifyWorkspace(store, targetId, { onDifference: (d) => differences.push(d) });
    expect(differences).toEqual([]);
  });

  it('reads the same e-mails, and the activities that name them', async () => {
    for (const id of emailIds) await same(`/v2/email/${id}`);
    for (const type of ['people', 'organization', 'deal', 'lead']) {
      await same(`/v2/${type}/activity?types=email`);
    }
  });
});

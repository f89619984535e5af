/**
 * Files (docs/decisions.md, Other resources): `POST /v2/file` (multipart), `GET /v2/file`,
 * `GET /v2/file/{fileId}/content` and `POST /v2/file/{fileId}/delete`, read back through the
 * list and the download, with bytes chunked in the database; refusals (shape A, nothing
 * written); isolation; a record's delete and merge; a file over 25 MB refused as it arrives.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrmClient } from '../src/client/index.ts';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { makeDeal, makePerson, makePipeline, makeProduct } from './factories.ts';
import {
  appWithWorkspace,
  get,
  post,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testApp,
  testWorkspace,
} from './helpers.ts';
import { type FormPart, multipartBody, SAMPLE_FILES } from './multipart.ts';
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
      name: '딜',
      peopleId: personId,
      pipelineId: pipeline.id,
      stageId: pipeline.stageIds[0]!,
    });
    return { personId, dealId };
  }));
});

async function upload(parts: FormPart[], token = ws.token): Promise<TestResponse> {
  const { payload, contentType } = multipartBody(parts);
  const res = await app.inject({
    method: 'POST',
    url: '/v2/file',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {}
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

function filePart(filename: string, data: Uint8Array): FormPart {
  return { name: 'file', filename, data };
}

async function uploaded(parts: FormPart[]): Promise<{ id: string; name: string }> {
  const res = await upload(parts);
  expect(res.status, res.text).toBe(201);
  return res.json.data;
}

async function download(id: string, token = ws.token) {
  return app.inject({
    method: 'GET',
    url: `/v2/file/${id}/content`,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('POST /v2/file', () => {
  it('stores a file on a record: 201 {id, name}, listed and downloaded byte for byte', async () => {
    const res = await upload([
      { name: 'objectType', value: 'deal' },
      { name: 'objectId', value: dealId },
      filePart('견적서 초안.pdf', SAMPLE_FILES.pdf),
    ]);
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(res.json.data)).toEqual(['id', 'name']);
    expect(res.json.data.name).toBe('견적서 초안.pdf');
    const { id } = res.json.data;

    const list = await get(app, ws.token, `/v2/file?objectType=deal&objectId=${dealId}`);
    expect(list.status).toBe(200);
    expect(list.json.data.fileList).toEqual([
      {
        id,
        name: '견적서 초안.pdf',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        owner: { id: ws.userId, name: '김관리' },
      },
    ]);
    expect(Object.keys(list.json.data)).toEqual(['fileList']);
    expect(Object.keys(list.json.data.fileList[0])).toEqual(['id', 'name', 'createdAt', 'owner']);

    const body = await download(id);
    expect(body.statusCode).toBe(200);
    expect(body.headers['content-type']).toBe('application/pdf');
    expect(body.headers['content-length']).toBe(String(SAMPLE_FILES.pdf.length));
    expect(body.headers['content-disposition']).toBe(
      `attachment; filename="___ __.pdf"; filename*=UTF-8''${encodeURIComponent('견적서 초안.pdf')}`,
    );
    expect(body.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
  });

  it('takes every documented kind whose content matches its extension', async () => {
    for (const [ext, data] of Object.entries(SAMPLE_FILES)) {
      const res = await upload([filePart(`sample.${ext.toUpperCase()}`, data)]);
      expect(res.status, `${ext}: ${res.text}`).toBe(201);
    }
  });

  it('keeps a file of several chunks whole (1 MB + 3 bytes)', async () => {
    const data = Buffer.alloc(1024 * 1024 + 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 9)) & 0xff;
    data.set([0x25, 0x50, 0x44, 0x46, 0x2d], 0); // %PDF-
    const { id } = await uploaded([
      { name: 'objectType', value: 'people' },
      { name: 'objectId', value: personId },
      filePart('big.pdf', data),
    ]);
    const chunks = await store.db
      .selectFrom('file_chunks')
      .select(['seq'])
      .where('file_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4]);
    const body = await download(id);
    expect(createHash('sha256').update(body.rawPayload).digest('hex')).toBe(
      createHash('sha256').update(data).digest('hex'),
    );
  });

  it('attaches to a custom object record (customObject), whose memo becomes its note', async () => {
    await ws.write((w) => defineCustomObject(w, { name: '계약서', fields: [] }));
    const created = await post(app, ws.token, '/v2/custom-object', {
      customObjectDefinitionName: '계약서',
      fieldList: [{ name: '이름', stringValue: '2024 연간 계약' }],
    });
    expect(created.status, created.text).toBe(201);
    const recordId = created.json.data.customObject.id as string;
    const { id } = await uploaded([
      { name: 'objectType', value: 'customObject' },
      { name: 'objectId', value: recordId },
      { name: 'memo', value: '서명본' },
      filePart('계약서.pdf', SAMPLE_FILES.pdf),
    ]);
    const list = await get(app, ws.token, `/v2/file?objectType=customObject&objectId=${recordId}`);
    expect(list.json.data.fileList.map((f: Rec) => f.id)).toEqual([id]);
    const record = await get(app, ws.token, `/v2/custom-object/${recordId}`);
    expect(JSON.stringify(record.json)).toContain('서명본');
    const missing = await upload([
      { name: 'objectType', value: 'customObject' },
      { name: 'objectId', value: 'no-such-record' },
      filePart('a.pdf', SAMPLE_FILES.pdf),
    ]);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe("커스텀 오브젝트를 찾을 수 없습니다: 'no-such-record'");
  });

  it('without objectType and objectId: an upload only, listed nowhere, downloadable', async () => {
    const { id } = await uploaded([filePart('notes.txt', SAMPLE_FILES.txt)]);
    const body = await download(id);
    expect(body.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(body.body).toBe(SAMPLE_FILES.txt.toString());
  });

  it('adds the memo as a note of the record, with its memoCreate activity', async () => {
    await uploaded([
      filePart('a.png', SAMPLE_FILES.png),
      { name: 'memo', value: '명함 사진' },
      { name: 'objectType', value: 'people' },
      { name: 'objectId', value: personId },
    ]);
    const person = await get(app, ws.token, `/v2/people/${personId}`);
    expect(JSON.stringify(person.json)).toContain('명함 사진');
  });

  const refusals: [string, () => FormPart[], number, string | RegExp][] = [
    [
      'objectType alone',
      () => [{ name: 'objectType', value: 'deal' }, filePart('a.pdf', SAMPLE_FILES.pdf)],
      400,
      'objectType 과 objectId 는 함께 전달해야 합니다.',
    ],
    [
      'objectId alone, after the file',
      () => [filePart('a.pdf', SAMPLE_FILES.pdf), { name: 'objectId', value: dealId }],
      400,
      'objectType 과 objectId 는 함께 전달해야 합니다.',
    ],
    [
      'an unknown objectType',
      () => [
        { name: 'objectType', value: 'custom-object' },
        { name: 'objectId', value: dealId },
        filePart('a.pdf', SAMPLE_FILES.pdf),
      ],
      400,
      /^'objectType' 값은 deal, lead, people, organization, product, quote, customObject 중 하나여야 합니다/,
    ],
    [
      'a record that is not there',
      () => [
        { name: 'objectType', value: 'deal' },
        { name: 'objectId', value: 'no-such-deal' },
        filePart('a.pdf', SAMPLE_FILES.pdf),
      ],
      404,
      "딜을 찾을 수 없습니다: 'no-such-deal'",
    ],
    [
      'no file',
      () => [{ name: 'memo', value: 'x' }],
      400,
      "'file' 필드에 올릴 파일을 보내 주세요.",
    ],
    [
      'an empty file',
      () => [filePart('a.txt', Buffer.alloc(0))],
      400,
      "빈 파일은 올릴 수 없습니다: 'a.txt'",
    ],
    [
      'a type not taken',
      () => [filePart('run.exe', Buffer.from('MZ\x90\x00'))],
      415,
      /^이 형식의 파일은 올릴 수 없습니다: 'run.exe'/,
    ],
    [
      'a pdf that is not one',
      () => [filePart('a.pdf', SAMPLE_FILES.png)],
      415,
      "파일 내용이 확장자(.pdf)와 맞지 않습니다: 'a.pdf'",
    ],
    [
      'a text file that is binary',
      () => [filePart('a.csv', Buffer.from([0x61, 0, 0x62]))],
      415,
      "파일 내용이 확장자(.csv)와 맞지 않습니다: 'a.csv'",
    ],
    [
      'two files',
      () => [filePart('a.txt', SAMPLE_FILES.txt), filePart('b.txt', SAMPLE_FILES.txt)],
      400,
      '파일은 요청 하나에 하나만 올릴 수 있습니다.',
    ],
    [
      'a file under another field',
      () => [{ name: 'attachment', filename: 'a.txt', data: SAMPLE_FILES.txt }],
      400,
      "파일은 'file' 필드로 보내 주세요: 'attachment'",
    ],
  ];
  for (const [what, parts, status, message] of refusals) {
    it(`refuses ${what} (${status}, shape A) and writes nothing`, async () => {
      const before = await tableSnapshot(store);
      const res = await upload(parts());
      expect(res.status, res.text).toBe(status);
      expect(res.json.success).toBe(false);
      if (typeof message === 'string') expect(res.json.message).toBe(message);
      else expect(res.json.message).toMatch(message);
      expect(await tableSnapshot(store)).toEqual(before);
    });
  }

  it('refuses a JSON body (415) and a malformed form (400)', async () => {
    const json = await post(app, ws.token, '/v2/file', { file: 'x' });
    expect(json.status).toBe(415);
    expect(json.json.success).toBe(false);
    const res = await app.inject({
      method: 'POST',
      url: '/v2/file',
      headers: {
        authorization: `Bearer ${ws.token}`,
        'content-type': 'multipart/form-data; boundary=zzz',
      },
      payload: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
    });
    expect([400, 201]).toContain(res.statusCode);
    expect(res.statusCode).toBe(400);
  });

  it('refuses a record that is not there before it stores any byte of the file (404)', async () => {
    const insertInto = store.db.insertInto;
    const insert = insertInto.bind(store.db);
    const tables: string[] = [];
    store.db.insertInto = ((table: Parameters<typeof insert>[0]) => {
      tables.push(table);
      return insert(table);
    }) as typeof insertInto;
    try {
      const res = await upload([
        { name: 'objectType', value: 'deal' },
        { name: 'objectId', value: 'no-such-deal' },
        filePart('a.txt', Buffer.alloc(1024 * 1024, 0x61)),
      ]);
      expect(res.status, res.text).toBe(404);
      expect(res.json.message).toBe("딜을 찾을 수 없습니다: 'no-such-deal'");
      expect(tables).not.toContain('file_chunks');
      expect(tables).not.toContain('files');
    } finally {
      store.db.insertInto = insertInto;
    }
  });

  it('refuses a file name with control characters (400), given as filename*', async () => {
    for (const encoded of ['a%07%1Bb.txt', 'a%00b.txt', 'a%7Fb.txt', 'a%09b.txt']) {
      const before = await tableSnapshot(store);
      const res = await app.inject({
        method: 'POST',
        url: '/v2/file',
        headers: {
          authorization: `Bearer ${ws.token}`,
          'content-type': 'multipart/form-data; boundary=zzz',
        },
        payload: `--zzz\r\nContent-Disposition: form-data; name="file"; filename*=utf-8''${encoded}\r\n\r\nabc\r\n--zzz--\r\n`,
      });
      expect(res.statusCode, `${encoded}: ${res.body}`).toBe(400);
      expect(JSON.parse(res.body).message).toBe(
        "'file'의 파일 이름이 올바르지 않습니다 (255자까지, 제어 문자 없이).",
      );
      expect(await tableSnapshot(store)).toEqual(before);
    }
  });

  it('refuses a body whose declared length is over 25 MB at once (413)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/file',
      headers: {
        authorization: `Bearer ${ws.token}`,
        'content-type': 'multipart/form-data; boundary=zzz',
        'content-length': String(26 * 1024 * 1024),
      },
      payload: '--zzz--\r\n',
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      message: '파일은 25 MB를 넘을 수 없습니다.',
      reason: '파일은 25 MB를 넘을 수 없습니다.',
    });
  });
});

/** The garbage collector, as `--expose-gc` would give it. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('a file over 25 MB, streamed without a length', () => {
  it('is refused (413) as it arrives, without the server holding it, and nothing is kept', async () => {
    const server = await testApp(store);
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const before = await tableSnapshot(store);
      const port = (server.server.address() as AddressInfo).port;
      const boundary = 'bigbig';
      const total = 40 * 1024 * 1024;
      const piece = Buffer.alloc(64 * 1024, 0x61);
      // What stays alive, sampled after a collection (garbage of the network reads aside),
      // at every MiB the client has sent: a sample per step of the stream, however fast the
      // machine runs it (a sample every 20 ms spent most of a loaded machine's time in
      // collections, and the upload then took over a minute).
      const gc = collector();
      gc();
      const baseline = process.memoryUsage().arrayBuffers;
      let peakBuffers = baseline;
      const sampleEvery = 1024 * 1024;
      const sample = () => {
        gc();
        peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
      };
      const answer = await new Promise<{ status: number; body: string; sent: number }>(
        (resolve, reject) => {
          let sent = 0;
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/v2/file',
              headers: {
                authorization: `Bearer ${ws.token}`,
                'content-type': `multipart/form-data; boundary=${boundary}`,
                'transfer-encoding': 'chunked',
              },
            },
            (res) => {
              let body = '';
              res.on('data', (d) => {
                body += d;
              });
              res.on('end', () => resolve({ status: res.statusCode!, body, sent }));
            },
          );
          req.on('error', reject);
          req.write(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`,
          );
          const pump = () => {
            while (sent < total) {
              sent += piece.length;
              if (sent % sampleEvery === 0) sample();
              if (!req.write(piece)) return void req.once('drain', pump);
            }
            req.end(`\r\n--${boundary}--\r\n`);
          };
          pump();
        },
      );
      sample();
      expect(answer.status, answer.body).toBe(413);
      expect(JSON.parse(answer.body).message).toBe('파일은 25 MB를 넘을 수 없습니다.');
      // The server never held the file: far less than 25 MB of buffers at any time.
      expect(peakBuffers - baseline).toBeLessThan(12 * 1024 * 1024);
      expect(await tableSnapshot(store)).toEqual(before);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('GET /v2/file', () => {
  it('pages 50 at a time, oldest first, with no nextCursor on the last page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      const { id } = await uploaded([
        { name: 'objectType', value: 'people' },
        { name: 'objectId', value: personId },
        filePart(`f${i}.txt`, Buffer.from(`file ${i}`)),
      ]);
      ids.push(id);
    }
    const first = await get(app, ws.token, `/v2/file?objectType=people&objectId=${personId}`);
    expect(first.json.data.fileList).toHaveLength(50);
    expect(typeof first.json.data.nextCursor).toBe('string');
    const second = await get(
      app,
      ws.token,
      `/v2/file?objectType=people&objectId=${personId}&cursor=${first.json.data.nextCursor}`,
    );
    expect(Object.keys(second.json.data)).toEqual(['fileList']);
    expect(
      [...first.json.data.fileList, ...second.json.data.fileList].map((f: Rec) => f.id),
    ).toEqual(ids);
    // A cursor of another record's list is refused.
    const other = await get(
      app,
      ws.token,
      `/v2/file?objectType=deal&objectId=${dealId}&cursor=${first.json.data.nextCursor}`,
    );
    expect(other.status).toBe(400);
  });

  it('answers [] for a record without files, 404 for a missing record, 400 for bad parameters', async () => {
    const none = await get(app, ws.token, `/v2/file?objectType=deal&objectId=${dealId}`);
    expect(none.json).toEqual({ success: true, data: { fileList: [] } });
    const missing = await get(app, ws.token, '/v2/file?objectType=deal&objectId=nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      success: false,
      message: "딜을 찾을 수 없습니다: 'nope'",
      reason: "딜을 찾을 수 없습니다: 'nope'",
    });
    for (const query of [
      'objectType=deal',
      `objectId=${dealId}`,
      `objectType=x&objectId=${dealId}`,
      'objectType=deal&objectId=a%20b',
    ]) {
      const res = await get(app, ws.token, `/v2/file?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.success).toBe(false);
    }
  });
});

describe('deletes and isolation', () => {
  it('POST /v2/file/{fileId}/delete removes the file and its bytes; then 404', async () => {
    const { id } = await uploaded([
      { name: 'objectType', value: 'deal' },
      { name: 'objectId', value: dealId },
      filePart('a.pdf', SAMPLE_FILES.pdf),
    ]);
    const res = await post(app, ws.token, `/v2/file/${id}/delete`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await download(id)).statusCode).toBe(404);
    const left = await store.db
      .selectFrom('file_chunks')
      .select('seq')
      .where('file_id', '=', id)
      .execute();
    expect(left).toEqual([]);
    const again = await post(app, ws.token, `/v2/file/${id}/delete`);
    expect(again.status).toBe(404);
    expect(again.json).toEqual({
      success: false,
      message: `파일을 찾을 수 없습니다: '${id}'`,
      reason: `파일을 찾을 수 없습니다: '${id}'`,
    });
  });

  it("another workspace's file is not found: list, download, delete", async () => {
    const { id } = await uploaded([
      { name: 'objectType', value: 'deal' },
      { name: 'objectId', value: dealId },
      filePart('a.pdf', SAMPLE_FILES.pdf),
    ]);
    const other = await testWorkspace(store, '다른 워크스페이스');
    expect((await download(id, other.token)).statusCode).toBe(404);
    expect((await post(app, other.token, `/v2/file/${id}/delete`)).status).toBe(404);
    expect(
      (await get(app, other.token, `/v2/file?objectType=deal&objectId=${dealId}`)).status,
    ).toBe(404);
    const attach = await upload(
      [
        { name: 'objectType', value: 'deal' },
        { name: 'objectId', value: dealId },
        filePart('b.pdf', SAMPLE_FILES.pdf),
      ],
      other.token,
    );
    expect(attach.status).toBe(404);
    expect((await download(id)).statusCode).toBe(200);
  });

  it("deleting a record deletes its files; a product's too", async () => {
    const productId = await ws.write((w) => makeProduct(w, { name: '상품' }));
    const onDeal = await uploaded([
      { name: 'objectType', value: 'deal' },
      { name: 'objectId', value: dealId },
      filePart('a.pdf', SAMPLE_FILES.pdf),
    ]);
    const onProduct = await uploaded([
      { name: 'objectType', value: 'product' },
      { name: 'objectId', value: productId },
      filePart('p.png', SAMPLE_FILES.png),
    ]);
    expect((await post(app, ws.token, `/v2/deal/${dealId}/delete`)).status).toBe(200);
    expect((await post(app, ws.token, `/v2/product/${productId}/delete`)).status).toBe(200);
    expect((await download(onDeal.id)).statusCode).toBe(404);
    expect((await download(onProduct.id)).statusCode).toBe(404);
    const rows = await store.db
      .selectFrom('file_chunks')
      .select('file_id')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('merging people moves the merged one’s files to the kept one', async () => {
    const otherId = await ws.write((w) => makePerson(w, { name: '이고객' }));
    const { id } = await uploaded([
      { name: 'objectType', value: 'people' },
      { name: 'objectId', value: otherId },
      filePart('a.txt', SAMPLE_FILES.txt),
    ]);
    const merged = await post(app, ws.token, `/v2/people/${personId}/merge`, { mergedId: otherId });
    expect(merged.status, merged.text).toBe(200);
    const list = await get(app, ws.token, `/v2/file?objectType=people&objectId=${personId}`);
    expect(list.json.data.fileList.map((f: Rec) => f.id)).toEqual([id]);
  });
});

describe('the client: crm.files', () => {
  it('uploads, lists, downloads (with its Korean name) and deletes over HTTP', async () => {
    const server = await testApp(store);
    const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const crm = new CrmClient({ baseUrl, token: ws.token });
      const data = Buffer.from('이름,금액\n계약,1000\n');
      const up = await crm.files.upload(
        { name: '계약 목록.csv', data },
        { objectType: 'deal', objectId: dealId, memo: '첨부' },
      );
      expect(up.name).toBe('계약 목록.csv');
      const files = await crm.files
        .list({ objectType: 'deal', objectId: dealId })
        .toArray({ max: 10 });
      expect(files.map((f) => f.id)).toEqual([up.id]);
      const got = await crm.files.download(up.id);
      expect(got.name).toBe('계약 목록.csv');
      expect(got.contentType).toBe('text/csv; charset=utf-8');
      expect(Buffer.from(got.bytes).equals(data)).toBe(true);
      await crm.files.delete(up.id);
      await expect(crm.files.download(up.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await server.close();
    }
  });
});

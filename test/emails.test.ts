/**
 * E-mail (docs/decisions.md, Other resources): `POST /v2/email` sends through a real SMTP server in
 * this process (smtp-server), which records what it received; the sent e-mail reads back through
 * `GET /v2/email/{emailId}` and the people's activity; attachments come from files;
 * `Idempotency-Key` sends once; refusals write nothing; without SMTP_URL it is a 503.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CrmClient } from '../src/client/index.ts';
import { loadConfig } from '../src/config.ts';
import { makeFile, makePerson } from './factories.ts';
import {
  appWithWorkspace,
  get,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testApp,
  testWorkspace,
} from './helpers.ts';
import { tableSnapshot } from './table-snapshot.ts';

/** A message as the SMTP server received it. */
interface Received {
  from: string;
  recipients: string[];
  raw: Buffer;
}

let received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;
/** When set, the server refuses every message with this reply. */
let refuseWith: string | undefined;
/** Connections opened to the server. */
let connections = 0;

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseWith)
          return callback(Object.assign(new Error(refuseWith), { responseCode: 550 }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
});
appWithWorkspace((made) => ({ store, app, ws } = made), {
  config: () => ({ smtpUrl: `smtp://127.0.0.1:${smtpPort}` }),
});
beforeEach(() => {
  received = [];
  refuseWith = undefined;
});

async function send(
  body: unknown,
  headers: Record<string, string> = {},
  on: FastifyInstance = app,
): Promise<TestResponse> {
  const res = await on.inject({
    method: 'POST',
    url: '/v2/email',
    headers: {
      authorization: `Bearer ${ws.token}`,
      'content-type': 'application/json',
      ...headers,
    },
    payload: JSON.stringify(body),
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {}
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

const basic = {
  emailProvider: 'gmail',
  toAddressList: [{ email: 'kim@example.com', name: '김철수' }],
  subject: '견적서 보내 드립니다',
  htmlBody: '<p>안녕하세요,</p><p>견적서를 <b>첨부</b>합니다.</p>',
};

describe('POST /v2/email', () => {
  it('sends through SMTP: 201 {id, messageId}; the server got the subject, recipients and body', async () => {
    const res = await send({
      ...basic,
      ccAddressList: [{ email: 'lee@example.com' }],
      bccAddressList: [{ email: 'boss@example.com', name: '대표' }],
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.json.data)).toEqual(['id', 'messageId']);
    expect(res.json.data.messageId).toMatch(/^<.+@.+>$/);
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.from).toBe('admin@example.com');
    expect(message!.recipients.sort()).toEqual(
      ['boss@example.com', 'kim@example.com', 'lee@example.com'].sort(),
    );
    const parsed = await simpleParser(message!.raw);
    expect(parsed.subject).toBe('견적서 보내 드립니다');
    expect(parsed.messageId).toBe(res.json.data.messageId);
    expect(parsed.text?.trim()).toBe('안녕하세요,\n견적서를 첨부합니다.');
    expect(parsed.html).toBe(basic.htmlBody);
    // Bcc is not in the headers.
    expect(message!.raw.toString()).not.toContain('boss@example.com');
  });

  it('attaches files byte for byte (Korean names), from their chunks', async () => {
    const big = Buffer.alloc(600 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    big.set(Buffer.from('%PDF-'), 0);
    const [pdf, txt] = await ws.write(async (w) => [
      await makeFile(w, { name: '견적서.pdf', data: big, contentType: 'application/pdf' }),
      await makeFile(w, { name: 'memo.txt', data: Buffer.from('메모') }),
    ]);
    // The factory stores one chunk; the upload path stores many: both are read in order.
    const res = await send({ ...basic, attachmentIdList: [pdf, txt] });
    expect(res.status, res.text).toBe(201);
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['견적서.pdf', 'memo.txt']);
    expect(parsed.attachments[0]!.content.equals(big)).toBe(true);
    expect(parsed.attachments[1]!.content.toString()).toBe('메모');
  });

  it('records the e-mail as an email activity of each person it went to, matched by address', async () => {
    const [kim, lee] = await ws.write(async (w) => [
      await makePerson(w, { name: '김철수', email: 'Kim@Example.com' }),
      await makePerson(w, { name: '이영희', email: 'lee@example.com' }),
      await makePerson(w, { name: '박무관', email: 'park@example.com' }),
    ]);
    const res = await send({
      ...basic,
      ccAddressList: [{ email: 'lee@example.com' }, { email: 'kim@example.com' }],
    });
    expect(res.status, res.text).toBe(201);
    for (const [personId, count] of [
      [kim, 1],
      [lee, 1],
    ] as const) {
      const list = await get(app, ws.token, `/v2/people/activity?peopleId=${personId}&types=email`);
      expect(list.status, list.text).toBe(200);
      const emails = list.json.data.peopleActivityList;
      expect(emails).toHaveLength(count);
      expect(emails[0].type).toBe('email');
      expect(emails[0].emailMessageId).toBe(res.json.data.id);
    }
    const all = await store.db
      .selectFrom('activities')
      .select('subject_id')
      .where('workspace_id', '=', ws.workspaceId)
      .where('type', '=', 'email')
      .execute();
    expect(all.map((a) => a.subject_id).sort()).toEqual([kim, lee].sort());
  });

  it('GET /v2/email/{id} answers the documented keys', async () => {
    const res = await send({ ...basic, ccAddressList: [{ email: 'lee@example.com' }] });
    const got = await get(app, ws.token, `/v2/email/${res.json.data.id}`);
    expect(got.status, got.text).toBe(200);
    const email = got.json.data.email;
    expect(Object.keys(email)).toEqual([
      'id',
      'subject',
      'from',
      'to',
      'cc',
      'bcc',
      'status',
      'messageId',
      'date',
      'snippet',
      'htmlBody',
      'text',
    ]);
    expect(email).toMatchObject({
      id: res.json.data.id,
      subject: basic.subject,
      from: { email: 'admin@example.com', name: '김관리' },
      to: [{ email: 'kim@example.com', name: '김철수' }],
      cc: [{ email: 'lee@example.com', name: null }],
      bcc: [],
      status: 'delivery',
      messageId: res.json.data.messageId,
      snippet: '안녕하세요, 견적서를 첨부합니다.',
      htmlBody: basic.htmlBody,
      text: '안녕하세요,\n견적서를 첨부합니다.',
    });
    const unknown = await get(app, ws.token, '/v2/email/nope');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({
      success: false,
      message: '이메일을 찾을 수 없습니다.',
      reason: '이메일을 찾을 수 없습니다.',
    });
    const other = await testWorkspace(store, '다른 워크스페이스');
    const foreign = await get(app, other.token, `/v2/email/${res.json.data.id}`);
    expect(foreign.status).toBe(400);
  });

  it('Idempotency-Key: a second send with the key answers the first result and sends nothing', async () => {
    const first = await send(basic, { 'idempotency-key': 'order-42' });
    expect(first.status, first.text).toBe(201);
    const before = await tableSnapshot(store);
    const second = await send(basic, { 'idempotency-key': 'order-42' });
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(received).toHaveLength(1);
    expect(await tableSnapshot(store)).toEqual(before);
    // Another body under the key is refused; another key sends again.
    const changed = await send(
      { ...basic, subject: '다른 제목' },
      { 'idempotency-key': 'order-42' },
    );
    expect(changed.status).toBe(409);
    const third = await send(basic, { 'idempotency-key': 'order-43' });
    expect(third.status).toBe(201);
    expect(third.json.data.id).not.toBe(first.json.data.id);
    expect(received).toHaveLength(2);
    // Keys are per workspace.
    const other = await testWorkspace(store, '다른 워크스페이스');
    const theirs = await app.inject({
      method: 'POST',
      url: '/v2/email',
      headers: {
        authorization: `Bearer ${other.token}`,
        'content-type': 'application/json',
        'idempotency-key': 'order-42',
      },
      payload: JSON.stringify(basic),
    });
    expect(theirs.statusCode).toBe(201);
    expect(JSON.parse(theirs.body).data.id).not.toBe(first.json.data.id);
    expect(received).toHaveLength(3);
  });

  it('two sends with one key at once send once', async () => {
    const [a, b] = await Promise.all([
      send(basic, { 'idempotency-key': 'same-moment' }),
      send(basic, { 'idempotency-key': 'same-moment' }),
    ]);
    const statuses = [a.status, b.status].sort();
    // The second either replays the first (201, same id) or finds it still sending (409).
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    if (a.status === 201 && b.status === 201) expect(a.json.data.id).toBe(b.json.data.id);
    expect(received).toHaveLength(1);
  });

  it('a key left sending by a stopped process: 409 within the hour, sent again after it', async () => {
    const first = await send(basic, { 'idempotency-key': 'stopped' });
    expect(first.status, first.text).toBe(201);
    // As a process that stopped between sending and recording leaves it.
    const leave = (createdAt: string) =>
      store.db
        .updateTable('emails')
        .set({ status: 'sending', message_id: null, created_at: createdAt })
        .where('id', '=', first.json.data.id)
        .execute();
    await leave(new Date(Date.now() - 5 * 60 * 1000).toISOString());
    const fresh = await send(basic, { 'idempotency-key': 'stopped' });
    expect(fresh.status).toBe(409);
    expect(received).toHaveLength(1);
    await leave(new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString());
    // Another body under the key is still a conflict, and takes nothing back.
    const other = await send({ ...basic, subject: '다른 제목' }, { 'idempotency-key': 'stopped' });
    expect(other.status).toBe(409);
    const again = await send(basic, { 'idempotency-key': 'stopped' });
    expect(again.status, again.text).toBe(201);
    expect(again.json.data.id).not.toBe(first.json.data.id);
    expect(received).toHaveLength(2);
    const replay = await send(basic, { 'idempotency-key': 'stopped' });
    expect(replay.json).toEqual(again.json);
    expect(received).toHaveLength(2);
  });

  const refusals: [string, () => unknown, Record<string, string>, number, string | RegExp][] = [
    ['no toAddressList', () => ({ ...basic, toAddressList: [] }), {}, 400, /toAddressList/],
    [
      'a bad address',
      () => ({ ...basic, toAddressList: [{ email: 'kim at example' }] }),
      {},
      400,
      /toAddressList\[0\]\.email/,
    ],
    [
      'a header in the subject',
      () => ({ ...basic, subject: 'a\r\nBcc: x@example.com' }),
      {},
      400,
      /subject/,
    ],
    ['an unknown provider', () => ({ ...basic, emailProvider: 'naver' }), {}, 400, /emailProvider/],
    ['no htmlBody', () => ({ ...basic, htmlBody: undefined }), {}, 400, /htmlBody/],
    [
      'a missing attachment',
      () => ({ ...basic, attachmentIdList: ['no-such-file'] }),
      {},
      404,
      "첨부할 파일을 찾을 수 없습니다: 'no-such-file'",
    ],
    [
      'a bad Idempotency-Key',
      () => basic,
      { 'idempotency-key': 'with space' },
      400,
      /Idempotency-Key/,
    ],
  ];
  for (const [what, body, headers, status, message] of refusals) {
    it(`refuses ${what} (${status}), sends and writes nothing`, async () => {
      const before = await tableSnapshot(store);
      const res = await send(body(), headers);
      expect(res.status, res.text).toBe(status);
      expect(res.json.success).toBe(false);
      if (typeof message === 'string') expect(res.json.message).toBe(message);
      else expect(res.json.message).toMatch(message);
      expect(received).toHaveLength(0);
      expect(await tableSnapshot(store)).toEqual(before);
    });
  }

  it('refuses attachments over 25 MB together (400)', async () => {
    const ids = await ws.write(async (w) => {
      const out: string[] = [];
      for (let i = 0; i < 2; i++) out.push(await makeFile(w, { name: `${i}.txt` }));
      // Their recorded sizes say 13 MB each: the check reads sizes, not bytes.
      await w.trx
        .updateTable('files')
        .set({ size: 13 * 1024 * 1024 })
        .where('id', 'in', out)
        .execute();
      return out;
    });
    const res = await send({ ...basic, attachmentIdList: ids });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('첨부 파일은 모두 합해 25 MB를 넘을 수 없습니다.');
    expect(received).toHaveLength(0);
  });

  it('an SMTP server that refuses: 502, nothing kept, the key free again', async () => {
    refuseWith = 'mailbox unavailable';
    const before = await tableSnapshot(store);
    const res = await send(basic, { 'idempotency-key': 'retry-me' });
    expect(res.status, res.text).toBe(502);
    expect(res.json.message).toMatch(/^SMTP 서버가 이메일을 받지 않았습니다: /);
    expect(res.json.message).not.toContain('127.0.0.1');
    expect(await tableSnapshot(store)).toEqual(before);
    refuseWith = undefined;
    const again = await send(basic, { 'idempotency-key': 'retry-me' });
    expect(again.status).toBe(201);
    expect(received).toHaveLength(1);
  });

  it('messages one after another share a connection to the SMTP server (a pool)', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) expect((await send(basic)).status).toBe(201);
    expect(received).toHaveLength(5);
    // The first may reuse a connection an earlier test opened.
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it('without SMTP_URL: 503, nothing written', async () => {
    const plain = await testApp(store);
    try {
      const before = await tableSnapshot(store);
      const res = await send(basic, {}, plain);
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        success: false,
        message: '이메일을 보낼 수 없습니다: 서버에 SMTP_URL이 설정되지 않았습니다.',
        reason: '이메일을 보낼 수 없습니다: 서버에 SMTP_URL이 설정되지 않았습니다.',
      });
      expect(await tableSnapshot(store)).toEqual(before);
    } finally {
      await plain.close();
    }
  });

  it('the client: crm.email.send (with an idempotency key) and crm.email.get', async () => {
    const server = await testApp(store, { smtpUrl: `smtp://127.0.0.1:${smtpPort}` });
    const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const crm = new CrmClient({ baseUrl, token: ws.token });
      const sent = await crm.email.send(basic as never, { idempotencyKey: 'client-1' });
      const again = await crm.email.send(basic as never, { idempotencyKey: 'client-1' });
      expect(again).toEqual(sent);
      expect(received).toHaveLength(1);
      const email = await crm.email.get(sent.id);
      expect(email.subject).toBe(basic.subject);
    } finally {
      await server.close();
    }
  });
});

describe('SMTP settings', () => {
  it('SMTP_URL takes smtp:// and smtps:// only; SMTP_FROM an address or Name <address>', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.com:587' }).smtpUrl).toBe(
      'smtp://u:p@mail.example.com:587',
    );
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:secret@' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ SMTP_FROM: '영업팀 <sales@example.com>' }).smtpFrom).toEqual({
      email: 'sales@example.com',
      name: '영업팀',
    });
    expect(loadConfig({ SMTP_FROM: 'sales@example.com' }).smtpFrom).toEqual({
      email: 'sales@example.com',
      name: null,
    });
    expect(() => loadConfig({ SMTP_FROM: 'not an address' })).toThrow(/SMTP_FROM/);
  });

  it('SMTP_FROM is the From of every message', async () => {
    const server = await testApp(store, {
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      smtpFrom: { email: 'sales@example.com', name: '영업팀' },
    });
    try {
      const res = await send(basic, {}, server);
      expect(res.status).toBe(201);
      expect(received[0]!.from).toBe('sales@example.com');
      const parsed = await simpleParser(received[0]!.raw);
      expect(parsed.from?.value[0]).toEqual({ address: 'sales@example.com', name: '영업팀' });
    } finally {
      await server.close();
    }
  });
});

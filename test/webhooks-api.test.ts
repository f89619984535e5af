import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { webhookHeaders } from '../src/domain/webhook-signature.ts';
import { blockedRange } from '../src/domain/webhook-url.ts';
import { BlockedAddressError, publicOnlyLookup } from '../src/outbound/address-guard.ts';
import {
  get,
  post,
  TEST_DIALECT,
  type TestResponse,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

registerFormats();

const ROOT = join(import.meta.dirname, '..');
const NO_SUCCESS = '웹훅 URL에서 성공 응답을 받지 못했습니다';
const WEBHOOK_KEYS = ['id', 'url', 'objectTypeList', 'eventList', 'fieldList', 'status'];
const DELIVERY_KEYS = [
  'id',
  'eventId',
  'event',
  'objectType',
  'objectId',
  'status',
  'attemptCount',
  'lastStatusCode',
  'lastError',
  'nextAttemptAt',
  'deliveredAt',
];

/** One request a receiver got. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on the loopback that answers by path: `/ok…` 200, `/fail` 500,
 * `/redirect` 302 to `/ok`, `/hang` never.
 */
async function startReceiver(): Promise<{ server: Server; origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      if (path.startsWith('/hang')) return;
      if (path.startsWith('/fail')) res.writeHead(500).end('nope');
      else if (path.startsWith('/redirect')) res.writeHead(302, { location: '/ok' }).end();
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, received };
}

/** A port on the loopback where nothing listens (a server opened and closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The schema errors of an answer against its operation's documented response. */
function schemaErrors(operationId: string, res: TestResponse): string[] {
  const op = OPERATIONS.find((o) => o.operationId === operationId)!;
  return [...Value.Errors(op.response!, res.json)].map((e) => `${e.path}: ${e.message}`);
}

/** The Standard Webhooks signature of a message, computed here from that specification. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('webhook addresses', () => {
  it('only public unicast addresses pass, IPv4-mapped forms judged as their IPv4', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['0.0.0.0', 'unspecified'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.1.2.3', 'private'],
      ['8.8.8.8', undefined],
      ['2606:4700:4700::1111', undefined],
      ['not an address', 'invalid'],
    ];
    for (const [address, range] of cases)
      expect([address, blockedRange(address)]).toEqual([address, range]);
  });

  it('refuses the IPv6 forms that carry an IPv4 address, and IPv6 outside 2000::/3', () => {
    const cases: [string, string | undefined][] = [
      // IPv4-compatible (::/96), as the URL parser writes it and as dns.lookup prints it.
      ['::7f00:1', 'ipv4Compatible'],
      ['::127.0.0.1', 'ipv4Compatible'],
      ['::a9fe:a9fe', 'ipv4Compatible'],
      ['::a00:1', 'ipv4Compatible'],
      ['::808:808', 'ipv4Compatible'],
      ['::8.8.8.8', 'ipv4Compatible'],
      // NAT64, 6to4, Teredo, SIIT: refused whatever IPv4 they carry.
      ['64:ff9b::7f00:1', 'rfc6052'],
      ['64:ff9b::a9fe:a9fe', 'rfc6052'],
      ['64:ff9b::808:808', 'rfc6052'],
      ['64:ff9b:1::a00:1', 'rfc6052'],
      ['2002:7f00:1::1', '6to4'],
      ['2002:a9fe:a9fe::1', '6to4'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo'],
      ['::ffff:0:7f00:1', 'rfc6145'],
      // Mapped: judged as the IPv4 it carries.
      ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['::ffff:808:808', undefined],
      // Unallocated IPv6 space.
      ['4000::1', 'reserved'],
      ['::1:0:0:1', 'reserved'],
      ['2a00:1450:4001:80b::200e', undefined],
    ];
    for (const [address, range] of cases)
      expect([address, blockedRange(address)]).toEqual([address, range]);
  });

  it('the request lookup refuses a name that resolves to the loopback', async () => {
    const error = await new Promise<unknown>((resolve) =>
      publicOnlyLookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as BlockedAddressError).range).toBe('loopback');
  });

  it('WEBHOOK_ALLOW_PRIVATE is off by default, 1 or true turns it on, anything else is refused', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '0' }).webhookAllowPrivate).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('webhook API', () => {
  let store: TestStore;
  /** Private addresses allowed (the receiver is on the loopback), verification in 500 ms. */
  let app: FastifyInstance;
  /** The default: private addresses refused. */
  let strict: FastifyInstance;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store, '웹훅 워크스페이스');
    other = await testWorkspace(store, '다른 워크스페이스');
    receiver = await startReceiver();
    app = await testApp(store, { webhookAllowPrivate: true }, { webhookVerifyTimeoutMs: 500 });
    strict = await testApp(store);
  });
  afterAll(async () => {
    await app?.close();
    await strict?.close();
    receiver?.server.closeAllConnections();
    receiver?.server.close();
    await store?.dispose();
  });

  /** The webhook rows of a workspace, straight from the database. */
  const rowsOf = (workspaceId: string) =>
    store.db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).execute();

  /** Registers a webhook to the receiver's `/ok…` path; returns the answer's webhook. */
  async function register(
    t: TestWorkspace,
    body: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const res = await post(app, t.token, '/v2/webhook', {
      url: `${receiver.origin}/ok`,
      objectTypeList: ['people'],
      ...body,
    });
    expect(res.status, res.text).toBe(201);
    return res.json.data.webhook;
  }

  it('registers a webhook after a signed verification POST: 201 with the secret', async () => {
    const before = receiver.received.length;
    const res = await post(app, ws.token, '/v2/webhook', {
      url: `${receiver.origin}/ok/first`,
      objectTypeList: ['people', 'deal'],
    });
    expect(res.status, res.text).toBe(201);
    expect(schemaErrors('createWebhook', res)).toEqual([]);
    const webhook = res.json.data.webhook;
    expect(Object.keys(res.json)).toEqual(['success', 'data']);
    expect(Object.keys(webhook)).toEqual([...WEBHOOK_KEYS, 'secret', 'createdAt']);
    expect(webhook).toMatchObject({
      url: `${receiver.origin}/ok/first`,
      objectTypeList: ['people', 'deal'],
      eventList: ['생성', '수정', '삭제', '병합'],
      fieldList: null,
      status: 'active',
    });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
    expect(Buffer.from(webhook.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    // The verification request: one POST, signed with the new secret, webhook-id = its id.
    const requests = receiver.received.slice(before);
    expect(requests).toHaveLength(1);
    const [verify] = requests;
    expect(verify!.path).toBe('/ok/first');
    expect(JSON.parse(verify!.body)).toEqual({ event: 'verify', webhookId: webhook.id });
    expect(verify!.body).toBe(`{"event":"verify","webhookId":"${webhook.id}"}`);
    expect(verify!.headers['content-type']).toBe('application/json');
    expect(verify!.headers['webhook-id']).toBe(webhook.id);
    const timestamp = verify!.headers['webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    const signature = verify!.headers['webhook-signature'];
    expect(signature).toBe(expectedSignature(webhook.secret, webhook.id, timestamp, verify!.body));
    expect(signature).toBe(
      webhookHeaders(webhook.id, Number(timestamp), verify!.body, [webhook.secret])[
        'webhook-signature'
      ],
    );

    const [row] = (await rowsOf(ws.workspaceId)).filter((r) => r.id === webhook.id);
    expect(row).toMatchObject({ secret: webhook.secret, status: 'active', failure_streak: 0 });
  });

  it('keeps eventList and fieldList as given', async () => {
    const webhook = await register(ws, {
      objectTypeList: ['lead'],
      eventList: ['수정'],
      fieldList: ['이름', '이메일'],
    });
    expect(webhook).toMatchObject({
      objectTypeList: ['lead'],
      eventList: ['수정'],
      fieldList: ['이름', '이메일'],
    });
    const explicitNull = await register(ws, { fieldList: null });
    expect(explicitNull.fieldList).toBeNull();
  });

  it('a URL that does not answer 2xx in time is a 400 and nothing is saved', async () => {
    const saved = (await rowsOf(ws.workspaceId)).length;
    const dead = await closedPort();
    const cases: [string, string][] = [
      [`${receiver.origin}/fail`, '(HTTP 500)'],
      [`${receiver.origin}/redirect`, '(HTTP 302)'],
      [`http://127.0.0.1:${dead}/closed`, '(연결 실패: ECONNREFUSED)'],
      [`${receiver.origin}/hang`, '(0.5초 안에 응답이 없습니다)'],
    ];
    for (const [url, reason] of cases) {
      const before = receiver.received.length;
      const started = Date.now();
      const res = await post(app, ws.token, '/v2/webhook', { url, objectTypeList: ['deal'] });
      expect([url, res.status]).toEqual([url, 400]);
      expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toBe(`${NO_SUCCESS} ${reason}`);
      expect(Date.now() - started).toBeLessThan(5_000);
      // A redirect is not followed: only the one request arrived.
      if (url.includes('/redirect'))
        expect(receiver.received.slice(before).map((r) => r.path)).toEqual(['/redirect']);
    }
    expect(await rowsOf(ws.workspaceId)).toHaveLength(saved);
  });

  it('refuses URLs of private, loopback and link-local addresses without the setting', async () => {
    const port = new URL(receiver.origin).port;
    const before = receiver.received.length;
    const saved = (await rowsOf(ws.workspaceId)).length;
    const urls = [
      `http://127.0.0.1:${port}/ok`,
      `http://localhost:${port}/ok`,
      `http://[::1]:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      `http://[::127.0.0.1]:${port}/ok`,
      'http://[::a9fe:a9fe]/latest/meta-data',
      'http://[64:ff9b::a9fe:a9fe]/hook',
      'http://[2002:7f00:1::1]/hook',
      'http://10.0.0.1/hook',
      'https://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/hook',
      'http://[fe80::1]/hook',
      'http://[fd00::1]/hook',
      'http://2130706433/hook',
    ];
    for (const url of urls) {
      const res = await post(strict, ws.token, '/v2/webhook', { url, objectTypeList: ['deal'] });
      expect([url, res.status]).toEqual([url, 400]);
      expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
      expect(res.json.message).toContain('공개되지 않은 주소');
    }
    const named = await post(strict, ws.token, '/v2/webhook', {
      url: `http://localhost:${port}/ok`,
      objectTypeList: ['deal'],
    });
    expect(named.json.message).toContain("'localhost' →");
    // Nothing was sent to the receiver, nothing saved.
    expect(receiver.received.length).toBe(before);
    expect(await rowsOf(ws.workspaceId)).toHaveLength(saved);
  });

  it('answers a bad body with a 400 naming the key, and saves nothing', async () => {
    const url = `${receiver.origin}/ok`;
    const before = receiver.received.length;
    const saved = (await rowsOf(ws.workspaceId)).length;
    const cases: [unknown, string][] = [
      [{ objectTypeList: ['deal'] }, "'url'"],
      [{ url: 'ftp://example.com/hook', objectTypeList: ['deal'] }, "'url'"],
      [{ url: 'not a url', objectTypeList: ['deal'] }, "'url'"],
      [{ url: '', objectTypeList: ['deal'] }, "'url'"],
      [{ url: `https://example.com/${'x'.repeat(2_000)}`, objectTypeList: ['deal'] }, "'url'"],
      [{ url: 42, objectTypeList: ['deal'] }, "'url'"],
      [{ url }, "'objectTypeList'"],
      [{ url, objectTypeList: [] }, "'objectTypeList'"],
      [{ url, objectTypeList: 'deal' }, "'objectTypeList'"],
      [{ url, objectTypeList: ['person'] }, "'objectTypeList[0]'"],
      [{ url, objectTypeList: ['deal', 'deal'] }, "'objectTypeList'"],
      [{ url, objectTypeList: ['deal'], eventList: [] }, "'eventList'"],
      [{ url, objectTypeList: ['deal'], eventList: ['생성', '보기'] }, "'eventList[1]'"],
      [{ url, objectTypeList: ['deal'], eventList: ['생성', '생성'] }, "'eventList'"],
      [{ url, objectTypeList: ['deal'], fieldList: [1] }, "'fieldList"],
      [{ url, objectTypeList: ['deal'], fieldList: [] }, "'fieldList'"],
      [{ url, objectTypeList: ['deal'], fieldList: '이름' }, "'fieldList'"],
      [[1, 2], '요청 본문은 JSON 객체여야 합니다'],
      ['text', '요청 본문은 JSON 객체여야 합니다'],
    ];
    for (const [body, names] of cases) {
      const res = await post(app, ws.token, '/v2/webhook', body);
      const label = JSON.stringify(body).slice(0, 80);
      expect([label, res.status]).toEqual([label, 400]);
      expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
      expect([label, res.json.message]).toEqual([label, expect.stringContaining(names)]);
    }
    const broken = await app.inject({
      method: 'POST',
      url: '/v2/webhook',
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      payload: '{"url": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(receiver.received.length).toBe(before);
    expect(await rowsOf(ws.workspaceId)).toHaveLength(saved);
  });

  it('needs a token like every /v2 route', async () => {
    expect((await get(app, null, '/v2/webhook')).status).toBe(401);
    expect((await post(app, null, '/v2/webhook', {})).status).toBe(401);
    expect((await post(app, 'nope', '/v2/webhook/x/delete')).status).toBe(401);
  });

  it('lists and reads webhooks without their secrets', async () => {
    const t = await testWorkspace(store, '목록');
    const first = await register(t, { objectTypeList: ['organization'] });
    const second = await register(t, { objectTypeList: ['deal'], eventList: ['삭제'] });
    const list = await get(app, t.token, '/v2/webhook');
    expect(list.status).toBe(200);
    expect(schemaErrors('listWebhooks', list)).toEqual([]);
    expect(Object.keys(list.json.data)).toEqual(['webhookList']);
    const { webhookList } = list.json.data;
    expect(webhookList.map((w: { id: string }) => w.id)).toEqual([first.id, second.id]);
    for (const w of webhookList) expect(Object.keys(w)).toEqual([...WEBHOOK_KEYS, 'createdAt']);
    expect(list.text).not.toContain('whsec_');

    const one = await get(app, t.token, `/v2/webhook/${second.id}`);
    expect(one.status).toBe(200);
    expect(schemaErrors('getWebhook', one)).toEqual([]);
    const { secret: _secret, ...withoutSecret } = second;
    expect(one.json).toEqual({ success: true, data: { webhook: withoutSecret } });
    expect(one.text).not.toContain('whsec_');

    // Another workspace sees none of them.
    expect((await get(app, other.token, '/v2/webhook')).json.data.webhookList).toEqual([]);
  });

  it('answers 400 for a malformed id and 404 for an id of another workspace, writing nothing', async () => {
    const mine = await register(ws);
    const theirs = await register(other);
    const [delivery] = await store.db
      .insertInto('webhook_deliveries')
      .values(deliveryRow(other.workspaceId, theirs.id as string, 'theirs-delivery', 1, 'failed'))
      .returning('id')
      .execute();
    const id = theirs.id as string;
    const calls: [string, string, unknown?][] = [
      ['GET', `/v2/webhook/${id}`],
      ['POST', `/v2/webhook/${id}`, { status: 'disabled' }],
      ['POST', `/v2/webhook/${id}/delete`],
      ['POST', `/v2/webhook/${id}/rotate-secret`],
      ['GET', `/v2/webhook/${id}/delivery`],
      ['POST', `/v2/webhook/${id}/delivery/${delivery!.id}/replay`],
      // Its delivery through a webhook of this workspace is not found either.
      ['POST', `/v2/webhook/${mine.id}/delivery/${delivery!.id}/replay`],
    ];
    for (const [method, url, body] of calls) {
      const res =
        method === 'GET' ? await get(app, ws.token, url) : await post(app, ws.token, url, body);
      expect([method, url, res.status]).toEqual([method, url, 404]);
      expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
      expect(res.text).not.toContain(theirs.url as string);
    }
    for (const bad of ['a%20b', 'x'.repeat(65), 'delete', '%ED%95%9C']) {
      for (const url of [
        `/v2/webhook/${bad}`,
        `/v2/webhook/${bad}/delivery`,
        `/v2/webhook/${mine.id}/delivery/${bad}/replay`,
      ]) {
        const res = url.endsWith('replay')
          ? await post(app, ws.token, url)
          : await get(app, ws.token, url);
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.json.message).toContain(url.endsWith('replay') ? "'deliveryId'" : "'webhookId'");
      }
    }
    const [row] = await rowsOf(other.workspaceId).then((rows) => rows.filter((r) => r.id === id));
    expect(row).toMatchObject({ status: 'active', secret: theirs.secret });
    const stored = await store.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('id', '=', delivery!.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('failed');
  });

  it('updates a webhook; only a new URL is verified again, and a failing one changes nothing', async () => {
    const t = await testWorkspace(store, '수정');
    const webhook = await register(t);
    const id = webhook.id as string;
    let before = receiver.received.length;
    const changed = await post(app, t.token, `/v2/webhook/${id}`, {
      objectTypeList: ['deal', 'lead'],
      eventList: ['생성', '삭제'],
      fieldList: ['금액'],
      url: webhook.url,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(schemaErrors('updateWebhook', changed)).toEqual([]);
    expect(Object.keys(changed.json.data.webhook)).toEqual([...WEBHOOK_KEYS, 'createdAt']);
    expect(changed.json.data.webhook).toMatchObject({
      id,
      url: webhook.url,
      objectTypeList: ['deal', 'lead'],
      eventList: ['생성', '삭제'],
      fieldList: ['금액'],
      status: 'active',
      createdAt: webhook.createdAt,
    });
    expect(receiver.received.length).toBe(before);
    expect((await get(app, t.token, `/v2/webhook/${id}`)).json.data.webhook).toEqual(
      changed.json.data.webhook,
    );

    const failing = await post(app, t.token, `/v2/webhook/${id}`, {
      url: `${receiver.origin}/fail`,
      status: 'disabled',
    });
    expect(failing.status).toBe(400);
    expect(failing.json.message).toContain(NO_SUCCESS);
    expect((await get(app, t.token, `/v2/webhook/${id}`)).json.data.webhook).toEqual(
      changed.json.data.webhook,
    );

    before = receiver.received.length;
    const moved = await post(app, t.token, `/v2/webhook/${id}`, {
      url: `${receiver.origin}/ok/moved`,
      fieldList: null,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.data.webhook).toMatchObject({
      url: `${receiver.origin}/ok/moved`,
      fieldList: null,
    });
    const [verify] = receiver.received.slice(before);
    expect(verify!.path).toBe('/ok/moved');
    expect(verify!.headers['webhook-id']).toBe(id);
    const timestamp = verify!.headers['webhook-timestamp'] as string;
    expect(verify!.headers['webhook-signature']).toBe(
      expectedSignature(webhook.secret as string, id, timestamp, verify!.body),
    );

    const privateUrl = await post(strict, t.token, `/v2/webhook/${id}`, {
      url: 'http://10.1.2.3/hook',
    });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.json.message).toContain('공개되지 않은 주소');

    const bad = await post(app, t.token, `/v2/webhook/${id}`, { status: 'paused' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("'status'");
    const empty = await post(app, t.token, `/v2/webhook/${id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.json.data.webhook.url).toBe(`${receiver.origin}/ok/moved`);
  });

  it('disabling and enabling a webhook: active starts the failure count afresh', async () => {
    const t = await testWorkspace(store, '상태');
    const { id } = (await register(t)) as { id: string };
    const disabled = await post(app, t.token, `/v2/webhook/${id}`, { status: 'disabled' });
    expect(disabled.json.data.webhook.status).toBe('disabled');
    await store.db
      .updateTable('webhooks')
      .set({ failure_streak: 10 })
      .where('workspace_id', '=', t.workspaceId)
      .where('id', '=', id)
      .execute();
    const enabled = await post(app, t.token, `/v2/webhook/${id}`, { status: 'active' });
    expect(enabled.json.data.webhook.status).toBe('active');
    const [row] = await rowsOf(t.workspaceId);
    expect(row).toMatchObject({ status: 'active', failure_streak: 0 });
  });

  it('rotates the secret: the new one is shown, the old one kept 24 hours, both sign', async () => {
    const t = await testWorkspace(store, '교체');
    const webhook = await register(t);
    const id = webhook.id as string;
    const started = Date.now();
    const res = await post(app, t.token, `/v2/webhook/${id}/rotate-secret`);
    expect(res.status, res.text).toBe(200);
    expect(schemaErrors('rotateWebhookSecret', res)).toEqual([]);
    const rotated = res.json.data.webhook;
    expect(Object.keys(rotated)).toEqual([...WEBHOOK_KEYS, 'secret', 'createdAt']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    const [row] = await rowsOf(t.workspaceId);
    expect(row!.secret).toBe(rotated.secret);
    expect(row!.previous_secret).toBe(webhook.secret);
    const until = Date.parse(row!.previous_secret_until!);
    expect(until - started).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3_600_000 + 1_000);
    expect((await get(app, t.token, `/v2/webhook/${id}`)).text).not.toContain('whsec_');

    // A new URL is verified with both secrets while the old one lasts.
    const before = receiver.received.length;
    const moved = await post(app, t.token, `/v2/webhook/${id}`, {
      url: `${receiver.origin}/ok/rotated`,
    });
    expect(moved.status, moved.text).toBe(200);
    const [verify] = receiver.received.slice(before);
    const timestamp = verify!.headers['webhook-timestamp'] as string;
    expect(verify!.headers['webhook-signature']).toBe(
      [rotated.secret, webhook.secret]
        .map((s) => expectedSignature(s, id, timestamp, verify!.body))
        .join(' '),
    );
  });

  it('deletes a webhook with its deliveries and their attempts', async () => {
    const t = await testWorkspace(store, '삭제');
    const { id } = (await register(t)) as { id: string };
    const keep = (await register(t)) as { id: string };
    await post(app, t.token, '/v2/people', { name: '삭제 전 고객' });
    const deliveries = () =>
      store.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'webhook_id'])
        .where('workspace_id', '=', t.workspaceId)
        .execute();
    const made = await deliveries();
    expect(made.map((d) => d.webhook_id).sort()).toEqual([id, keep.id].sort());
    await store.db
      .insertInto('webhook_attempts')
      .values(
        made.map((d) => ({
          workspace_id: t.workspaceId,
          delivery_id: d.id,
          attempt: 1,
          started_at: new Date().toISOString(),
          duration_ms: 12,
          status_code: 500,
          error: null,
        })),
      )
      .execute();

    const res = await post(app, t.token, `/v2/webhook/${id}/delete`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"success":true}');
    expect((await get(app, t.token, `/v2/webhook/${id}`)).status).toBe(404);
    expect((await post(app, t.token, `/v2/webhook/${id}/delete`)).status).toBe(404);
    expect((await deliveries()).map((d) => d.webhook_id)).toEqual([keep.id]);
    const attempts = await store.db
      .selectFrom('webhook_attempts')
      .select('delivery_id')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(attempts.map((a) => a.delivery_id)).toEqual(
      made.filter((d) => d.webhook_id === keep.id).map((d) => d.id),
    );
  });

  it('lists deliveries newest first with their events, filtered by status, page by page', async () => {
    const t = await testWorkspace(store, '전송 기록');
    const { id } = (await register(t, { objectTypeList: ['people'], eventList: ['생성'] })) as {
      id: string;
    };
    const people: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(app, t.token, '/v2/people', { name: `고객 ${i}` });
      people.push(res.json.data.people.id);
    }
    // The organization is not subscribed to: no delivery.
    await post(app, t.token, '/v2/organization', { name: '구독 안 한 회사' });

    const first = await get(app, t.token, `/v2/webhook/${id}/delivery?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(schemaErrors('listWebhookDeliveries', first)).toEqual([]);
    expect(Object.keys(first.json.data)).toEqual(['deliveryList', 'nextCursor']);
    const all: Record<string, unknown>[] = [...first.json.data.deliveryList];
    let cursor: string | null = first.json.data.nextCursor;
    const cursors = new Set<string>();
    while (cursor) {
      expect(cursors.has(cursor)).toBe(false);
      cursors.add(cursor);
      const page = await get(app, t.token, `/v2/webhook/${id}/delivery?limit=2&cursor=${cursor}`);
      expect(page.status, page.text).toBe(200);
      all.push(...page.json.data.deliveryList);
      cursor = page.json.data.nextCursor;
    }
    expect(cursors.size).toBe(2);
    expect(all.map((d) => d.objectId)).toEqual([...people].reverse());
    for (const d of all) {
      expect(Object.keys(d)).toEqual(DELIVERY_KEYS);
      expect(d).toMatchObject({
        event: '생성',
        objectType: '고객',
        status: 'pending',
        attemptCount: 0,
        lastStatusCode: null,
        lastError: null,
        deliveredAt: null,
      });
    }
    const events = await store.db
      .selectFrom('events')
      .select(['event_id', 'object_id'])
      .where('workspace_id', '=', t.workspaceId)
      .where('object_type', '=', 'people')
      .execute();
    const eventIds = new Map(events.map((e) => [e.object_id, e.event_id]));
    for (const d of all) expect(d.eventId).toBe(eventIds.get(d.objectId as string));

    // One failed, with its attempts: the status filter finds it alone.
    const failedId = all[3]!.id as string;
    await store.db
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        attempt_count: 10,
        last_status_code: 503,
        last_error: 'HTTP 503',
        next_attempt_at: null,
      })
      .where('workspace_id', '=', t.workspaceId)
      .where('id', '=', failedId)
      .execute();
    const failed = await get(app, t.token, `/v2/webhook/${id}/delivery?status=failed`);
    expect(failed.status).toBe(200);
    expect(failed.json.data).toEqual({
      deliveryList: [
        {
          ...all[3],
          status: 'failed',
          attemptCount: 10,
          lastStatusCode: 503,
          lastError: 'HTTP 503',
          nextAttemptAt: null,
        },
      ],
      nextCursor: null,
    });
    const pending = await get(app, t.token, `/v2/webhook/${id}/delivery?status=pending&limit=100`);
    expect(pending.json.data.deliveryList).toHaveLength(4);
    expect(
      (await get(app, t.token, `/v2/webhook/${id}/delivery?status=delivered`)).json.data,
    ).toEqual({
      deliveryList: [],
      nextCursor: null,
    });

    // Bad filters and cursors: 400, naming the parameter.
    const pendingPage = await get(
      app,
      t.token,
      `/v2/webhook/${id}/delivery?status=pending&limit=1`,
    );
    const pendingCursor = pendingPage.json.data.nextCursor as string;
    const bad: [string, string][] = [
      ['?status=bogus', "'status'"],
      ['?status=', "'status'"],
      ['?limit=0', "'limit'"],
      ['?cursor=abc', "'cursor'"],
      [`?cursor=${pendingCursor}`, "'cursor'"],
      [`?status=failed&cursor=${pendingCursor}`, "'cursor'"],
    ];
    for (const [query, names] of bad) {
      const res = await get(app, t.token, `/v2/webhook/${id}/delivery${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.json.message).toContain(names);
    }
    // A cursor of one webhook's log is refused on another's.
    const second = (await register(t)) as { id: string };
    const foreign = await get(
      app,
      t.token,
      `/v2/webhook/${second.id}/delivery?cursor=${first.json.data.nextCursor}`,
    );
    expect(foreign.status).toBe(400);
    const ignored = await get(app, t.token, `/v2/webhook/${id}/delivery?foo=1`);
    expect(ignored.status).toBe(200);
    expect(ignored.headers['x-ignored-parameters']).toBe('foo');

    // Replay: back to pending, due now, its attempt count and attempts kept.
    await store.db
      .insertInto('webhook_attempts')
      .values({
        workspace_id: t.workspaceId,
        delivery_id: failedId,
        attempt: 10,
        started_at: new Date().toISOString(),
        duration_ms: 40,
        status_code: 503,
        error: null,
      })
      .execute();
    const started = Date.now();
    const replay = await post(app, t.token, `/v2/webhook/${id}/delivery/${failedId}/replay`);
    expect(replay.status, replay.text).toBe(202);
    expect(replay.text).toBe('{"success":true}');
    const row = await store.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('workspace_id', '=', t.workspaceId)
      .where('id', '=', failedId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempt_count: 10, last_status_code: 503 });
    expect(Date.parse(row.next_attempt_at!)).toBeGreaterThanOrEqual(started - 1_000);
    expect(Date.parse(row.next_attempt_at!)).toBeLessThanOrEqual(Date.now() + 1_000);
    const attempts = await store.db
      .selectFrom('webhook_attempts')
      .select('attempt')
      .where('workspace_id', '=', t.workspaceId)
      .where('delivery_id', '=', failedId)
      .execute();
    expect(attempts).toHaveLength(1);
    expect(
      (await get(app, t.token, `/v2/webhook/${id}/delivery?status=failed`)).json.data.deliveryList,
    ).toEqual([]);
    // A delivery of another webhook of the workspace is not this webhook's.
    expect(
      (await post(app, t.token, `/v2/webhook/${second.id}/delivery/${failedId}/replay`)).status,
    ).toBe(404);
    expect(
      (await post(app, t.token, `/v2/webhook/${id}/delivery/nosuchdelivery/replay`)).status,
    ).toBe(404);
  });

  it('a disabled webhook gets no deliveries; a deleted one none either', async () => {
    const t = await testWorkspace(store, '꺼진 웹훅');
    const { id } = (await register(t)) as { id: string };
    await post(app, t.token, `/v2/webhook/${id}`, { status: 'disabled' });
    await post(app, t.token, '/v2/people', { name: '조용한 고객' });
    const log = await get(app, t.token, `/v2/webhook/${id}/delivery`);
    expect(log.json.data.deliveryList).toEqual([]);
  });

  it('refuses the 101st webhook of a workspace before calling its URL', async () => {
    const t = await testWorkspace(store, '가득 찬');
    const now = new Date().toISOString();
    await store.db
      .insertInto('webhooks')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          workspace_id: t.workspaceId,
          id: `full-${i}`,
          url: 'https://hooks.example.com/full',
          object_types: '["deal"]',
          events: '["생성"]',
          fields: null,
          status: 'disabled' as const,
          secret: 'whsec_AAAA',
          previous_secret: null,
          previous_secret_until: null,
          failure_streak: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const before = receiver.received.length;
    const res = await post(app, t.token, '/v2/webhook', {
      url: `${receiver.origin}/ok`,
      objectTypeList: ['deal'],
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('100개');
    expect(receiver.received.length).toBe(before);
    expect(await rowsOf(t.workspaceId)).toHaveLength(100);
  });

  // Each run is a process start: on SQLite only, as test/cli.test.ts (the commands are the
  // API's, tested on both stores above).
  describe.skipIf(TEST_DIALECT === 'postgres')('the CLI', { timeout: 120_000 }, () => {
    /** Runs the CLI in a child process against the test store. */
    function cli(args: string[], env: Record<string, string> = {}) {
      return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [...salescrmArgs(), ...args],
          {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: store.url, LOG_LEVEL: 'silent', ...env },
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            resolve({
              code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
              stdout,
              stderr,
            }),
        );
      });
    }

    it('webhook add verifies and prints the secret once; list, deliveries and remove', async () => {
      const t = await testWorkspace(store, 'CLI');
      const workspace = ['--workspace', t.workspaceId];
      const url = `${receiver.origin}/ok/cli`;
      const refused = await cli([
        'webhook',
        'add',
        ...workspace,
        '--url',
        url,
        '--object',
        'people',
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('공개되지 않은 주소');
      // An IPv4-compatible IPv6 address of the loopback: refused too, nothing sent.
      const sentBefore = receiver.received.length;
      const compatible = await cli([
        'webhook',
        'add',
        ...workspace,
        '--url',
        `http://[::127.0.0.1]:${new URL(receiver.origin).port}/ok/cli`,
        '--object',
        'people',
      ]);
      expect(compatible.code).toBe(1);
      expect(compatible.stderr).toContain('공개되지 않은 주소');
      expect(compatible.stderr).toContain('ipv4Compatible');
      expect(receiver.received.length).toBe(sentBefore);

      const allow = { WEBHOOK_ALLOW_PRIVATE: '1' };
      const before = receiver.received.length;
      const added = await cli(
        [
          'webhook',
          'add',
          ...workspace,
          '--url',
          url,
          '--object',
          'people,deal',
          '--event',
          '생성,수정',
          '--field',
          '이름,이메일',
          '--json',
        ],
        allow,
      );
      expect(added.code, added.stderr).toBe(0);
      const webhook = JSON.parse(added.stdout.trim());
      expect(webhook).toMatchObject({
        url,
        objectTypeList: ['people', 'deal'],
        eventList: ['생성', '수정'],
        fieldList: ['이름', '이메일'],
        status: 'active',
      });
      expect(webhook.secret).toMatch(/^whsec_/);
      expect(receiver.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual([
        webhook.id,
      ]);

      const list = await cli(['webhook', 'list', ...workspace]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n')).toEqual([
        [webhook.id, 'active', 'people,deal', '생성,수정', url].join('\t'),
      ]);
      expect(list.stdout).not.toContain('whsec_');

      await post(app, t.token, '/v2/people', { name: 'CLI 고객' });
      const deliveries = await cli(['webhook', 'deliveries', webhook.id, ...workspace, '--json']);
      expect(deliveries.code, deliveries.stderr).toBe(0);
      const log = JSON.parse(deliveries.stdout.trim());
      expect(log.length).toBeGreaterThan(0);
      expect(log[0]).toMatchObject({ objectType: '고객', status: 'pending' });
      const removed = await cli(['webhook', 'remove', webhook.id, ...workspace]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await rowsOf(t.workspaceId)).toEqual([]);
      const again = await cli(['webhook', 'remove', webhook.id, ...workspace]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('웹훅을 찾을 수 없습니다');
    });
  });
});

/** A delivery row to insert directly. */
function deliveryRow(
  workspaceId: string,
  webhookId: string,
  id: string,
  eventSeq: number,
  status: 'pending' | 'delivered' | 'failed',
) {
  return {
    workspace_id: workspaceId,
    id,
    webhook_id: webhookId,
    event_seq: eventSeq,
    status,
    attempt_count: 1,
    last_status_code: 500,
    last_error: null,
    next_attempt_at: null,
    leased_until: null,
    delivered_at: null,
    created_at: new Date().toISOString(),
  };
}

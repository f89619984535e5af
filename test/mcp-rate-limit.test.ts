import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/resources/workspaces/writes.ts';
import type { RateLimiter } from '../src/server/rate-limit.ts';
import { RedisRateLimiter } from '../src/server/redis-rate-limit.ts';
import { type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';
import type { Json } from './mcp-client.ts';
import { REDIS_URL, redisAnswers } from './redis.ts';

const HAS_REDIS = await redisAnswers();

const TOO_MANY = {
  success: false,
  message: '요청이 너무 많습니다.',
  reason: expect.stringMatching(/^\d+초 후 재시도해주세요\.$/),
};

/** `n` JSON-RPC requests of `method`, ids 1..n. */
function batchOf(n: number, method = 'tools/list'): Json[] {
  return Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method }));
}

/** A `tools/call` request. */
function toolCall(id: number, name: string, args: Record<string, unknown> = {}): Json {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** POST /mcp with a bearer token and the headers the protocol asks for. */
async function rpc(app: FastifyInstance, token: string, body: unknown) {
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    payload: JSON.stringify(body),
  });
  let json: Json;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json };
}

/** A tool answer's text, parsed. */
function toolText(answer: Json): Json {
  return JSON.parse(answer.result.content[0].text);
}

/** The 429 of the API's own routes: shape A, `Retry-After` and the limit's headers. */
function expectTooMany(res: Awaited<ReturnType<typeof rpc>>, limit: number) {
  expect(res.status).toBe(429);
  expect(res.json).toEqual(TOO_MANY);
  expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe('0');
}

const limiters: {
  name: string;
  make?: (max: number) => RateLimiter & { close(): Promise<void> };
}[] = [
  { name: 'in memory' },
  ...(HAS_REDIS
    ? [
        {
          name: 'in Redis',
          make: (max: number) =>
            new RedisRateLimiter({
              url: REDIS_URL,
              max,
              windowMs: 60_000,
              prefix: `salescrm-test:${randomUUID()}:`,
              timeoutMs: 1000,
            }),
        },
      ]
    : []),
];

describe.each(limiters)('/mcp and the rate limit, counted $name', ({ make }) => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let readOnlyToken: string;
  const opened: { app: FastifyInstance; limiter?: { close(): Promise<void> } }[] = [];

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store, '한도 MCP');
    other = await testWorkspace(store, '다른 워크스페이스');
    const readOnly = await testWorkspace(store, '읽기 전용');
    readOnlyToken = (
      await createToken(store, readOnly.workspaceId, readOnly.userId, 'ro', { readOnly: true })
    ).token;
  });

  afterAll(async () => {
    for (const { app, limiter } of opened) {
      await app.close();
      await limiter?.close();
    }
    await store?.dispose();
  });

  /** A fresh app (fresh counters) limited to `max` a minute. */
  async function limitedApp(max: number): Promise<FastifyInstance> {
    const limiter = make?.(max);
    if (limiter instanceof RedisRateLimiter) expect(await limiter.connected(5000)).toBe(true);
    const app = await testApp(
      store,
      { rateLimitMax: max, rateLimitWindowMs: 60_000 },
      limiter ? { rateLimiter: limiter } : {},
    );
    opened.push({ app, limiter });
    return app;
  }

  it('counts each message of a batch: N tools/list cost N, then a 429 in shape A', async () => {
    const app = await limitedApp(5);
    const first = await rpc(app, ws.token, batchOf(5));
    expect(first.status).toBe(200);
    expect(first.json).toHaveLength(5);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('0');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expectTooMany(await rpc(app, ws.token, batchOf(1)), 5);
    expectTooMany(await rpc(app, ws.token, batchOf(1, 'initialize')[0]), 5);
    // The API's routes share the count.
    const api = await app.inject({
      method: 'GET',
      url: '/v2/user',
      headers: { authorization: `Bearer ${ws.token}` },
    });
    expect(api.statusCode).toBe(429);
    // Another workspace has its own.
    expect((await rpc(app, other.token, batchOf(5))).status).toBe(200);
  });

  it("counts a read-only token's messages, a notification as one", async () => {
    const app = await limitedApp(5);
    const first = await rpc(app, readOnlyToken, [...batchOf(4), INITIALIZED]);
    expect(first.status).toBe(200);
    expect(first.json).toHaveLength(4);
    expect(first.headers['ratelimit-remaining']).toBe('0');
    expectTooMany(await rpc(app, readOnlyToken, INITIALIZED), 5);
  });

  it('counts a tool call as the API calls it makes (a search 10), as before, and at least one', async () => {
    const app = await limitedApp(12);
    expect((await rpc(app, ws.token, batchOf(1))).status).toBe(200);
    const search = await rpc(
      app,
      ws.token,
      toolCall(2, 'search_records', {
        type: 'people',
        filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EXISTS' }] }],
      }),
    );
    expect(search.status).toBe(200);
    expect(search.json.result.isError).toBeFalsy();
    const users = await rpc(app, ws.token, toolCall(3, 'list_users'));
    expect(users.json.result.isError).toBeFalsy();
    // Twelve counted: the next tool call's API call is refused, and the tool says so.
    const limited = await rpc(app, ws.token, toolCall(4, 'list_users'));
    expect(limited.status).toBe(200);
    expect(limited.json.result.isError).toBe(true);
    expect(toolText(limited.json)).toMatchObject({ status: 429 });
    expect(toolText(limited.json).retryAfterSeconds).toBeGreaterThan(0);
    expectTooMany(await rpc(app, ws.token, batchOf(1)), 12);

    // A tool call that makes no API call (an unknown tool, arguments of the wrong shape,
    // one refused before it runs) costs one.
    const fresh = await limitedApp(4);
    const refused = await rpc(fresh, ws.token, [
      toolCall(1, 'no_such_tool'),
      toolCall(2, 'list_users', { cursor: 7 }),
    ]);
    expect(refused.status).toBe(200);
    expect(refused.json).toHaveLength(2);
    const nul = await rpc(fresh, ws.token, toolCall(3, 'list_users', { cursor: 'a\u0000' }));
    expect(nul.status).toBe(400);
    const last = await rpc(fresh, ws.token, batchOf(1));
    expect(last.status).toBe(200);
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expectTooMany(await rpc(fresh, ws.token, batchOf(1)), 4);
  });

  it('counts a tool call that makes no API call as one even beside one that makes many', async () => {
    const setup = await limitedApp(1000);
    const created = await setup.inject({
      method: 'POST',
      url: '/v2/people',
      headers: { authorization: `Bearer ${ws.token}` },
      payload: { name: '타임라인 고객', memo: '첫 메모' },
    });
    expect(created.statusCode).toBe(201);
    const timeline = toolCall(1, 'get_timeline', {
      type: 'people',
      id: created.json().data.people.id,
    });
    /** What is left of 100 after `body` and one tools/list. */
    const leftAfter = async (body: unknown) => {
      const app = await limitedApp(100);
      const answer = await rpc(app, ws.token, body);
      expect(answer.status).toBe(200);
      return Number((await rpc(app, ws.token, batchOf(1))).headers['ratelimit-remaining']);
    };
    // The timeline reads the record and each of its streams: several API calls.
    const alone = await leftAfter(timeline);
    expect(100 - 1 - alone).toBeGreaterThan(1);
    // Beside it, an unknown tool still costs its one.
    expect(await leftAfter([timeline, toolCall(2, 'no_such_tool')])).toBe(alone - 1);
  });

  it('refuses a batch of more than 100 messages with a JSON-RPC error, counting it once', async () => {
    const app = await limitedApp(2);
    const tooMany = await rpc(app, ws.token, batchOf(101));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch holds at most 100 messages' },
    });
    const next = await rpc(app, ws.token, batchOf(1));
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('0');
    expectTooMany(await rpc(app, ws.token, batchOf(1)), 2);
    // A batch of 100 is answered (with the limit off).
    const open = await testApp(store);
    opened.push({ app: open });
    const hundred = await rpc(open, ws.token, batchOf(100));
    expect(hundred.status).toBe(200);
    expect(hundred.json).toHaveLength(100);
  });
});

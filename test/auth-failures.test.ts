// Failed token checks are throttled per client address (AUTH_FAILURE_LIMIT): past the limit
// an address gets 429 with Retry-After, and its reason names the same seconds.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { buildApp } from '../src/server/app.ts';
import {
  AUTH_FAILURES_MESSAGE,
  AuthFailureCounter,
  clientOf,
} from '../src/server/auth-failures.ts';
import { RedisRateLimiter } from '../src/server/redis-rate-limit.ts';
import { seedEveryType } from './every-type.ts';
import { type TestStore, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { REDIS_URL, redisAnswers } from './redis.ts';

const SHARED_REDIS = await redisAnswers();

/** A token of the right form that no workspace has. */
const randomToken = () => `scrm_${randomBytes(32).toString('base64url')}`;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  json: Record<string, unknown>;
}

/** GET `url` from `address` with `authorization` (none when null). */
async function getFrom(
  app: FastifyInstance,
  address: string,
  authorization: string | null,
  url = '/v2/people',
): Promise<Answer> {
  const res = await app.inject({
    method: 'GET',
    url,
    remoteAddress: address,
    headers: authorization === null ? {} : { authorization },
  });
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(res.body) };
}

const bearer = (token: string) => `Bearer ${token}`;

/** The seconds a 429's reason names (`N초 후 재시도해주세요.`). */
function reasonSeconds(answer: Answer): number {
  const match = /^(\d+)초 후 재시도해주세요\.$/.exec(String(answer.json.reason));
  expect(match, String(answer.json.reason)).not.toBeNull();
  return Number(match![1]);
}

describe('failed token checks from one address', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let dealId: string;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store, '인증 실패');
    dealId = (await seedEveryType(ws, 'A')).deals[0]!;
  });
  afterAll(async () => store?.dispose());

  /** An app as `serve` builds it from `env` (the workspace rate limit off unless told). */
  async function appWith(
    env: Record<string, string>,
    options: { rateLimiter?: RedisRateLimiter } = {},
  ): Promise<FastifyInstance> {
    const config: Config = loadConfig({ RATE_LIMIT_MAX: '0', ...env });
    const app = await buildApp({
      store,
      config: { ...config, logLevel: 'silent', overloadDelayMs: 0 },
      ...options,
    });
    await app.ready();
    return app;
  }

  it('300 random tokens: the first AUTH_FAILURE_LIMIT (30) are 401, the rest 429 with Retry-After and the seconds in reason', async () => {
    const app = await appWith({});
    try {
      const statuses: number[] = [];
      let last: Answer | undefined;
      for (let i = 0; i < 300; i++) {
        last = await getFrom(app, '203.0.113.7', bearer(randomToken()));
        statuses.push(last.status);
      }
      expect(statuses.filter((s) => s === 401)).toHaveLength(30);
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
      expect(Object.keys(last!.json)).toEqual(['success', 'message', 'reason']);
      expect(last!.json.success).toBe(false);
      expect(last!.json.message).toBe(AUTH_FAILURES_MESSAGE);
      const retryAfter = String(last!.headers['retry-after']);
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(reasonSeconds(last!)).toBe(Number(retryAfter));
      // Throttled, the address is refused before its token is looked at: a good token too.
      expect((await getFrom(app, '203.0.113.7', bearer(ws.token))).status).toBe(429);
      // Another address is not.
      expect((await getFrom(app, '198.51.100.9', bearer(ws.token))).status).toBe(200);
      expect((await getFrom(app, '198.51.100.9', bearer(randomToken()))).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('behind a proxy TRUST_PROXY names, counts each client its X-Forwarded-For gives, and only then', async () => {
    /** A failed check from `peer`, forwarded for `client` (none: no header). */
    const guess = (app: FastifyInstance, peer: string, client?: string) =>
      app.inject({
        method: 'GET',
        url: '/v2/people',
        remoteAddress: peer,
        headers: {
          authorization: bearer(randomToken()),
          ...(client ? { 'x-forwarded-for': `${client}, ${peer}` } : {}),
        },
      });
    const proxied = await appWith({ AUTH_FAILURE_LIMIT: '3', TRUST_PROXY: '10.0.0.0/8' });
    try {
      for (let i = 0; i < 3; i++)
        expect((await guess(proxied, '10.1.2.3', '203.0.113.50')).statusCode).toBe(401);
      expect((await guess(proxied, '10.1.2.3', '203.0.113.50')).statusCode).toBe(429);
      // Another client through the same proxy is not refused for the first one's guesses.
      expect((await guess(proxied, '10.1.2.3', '203.0.113.51')).statusCode).toBe(401);
      // A peer that is no listed proxy is counted as itself, whatever it forwards.
      for (let i = 0; i < 3; i++)
        expect((await guess(proxied, '198.51.100.60', `203.0.113.${70 + i}`)).statusCode).toBe(401);
      expect((await guess(proxied, '198.51.100.60', '203.0.113.99')).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY, X-Forwarded-For is ignored: every client of the proxy is the proxy.
    const direct = await appWith({ AUTH_FAILURE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i++)
        expect((await guess(direct, '10.1.2.3', `203.0.113.${80 + i}`)).statusCode).toBe(401);
      expect((await guess(direct, '10.1.2.3', '203.0.113.90')).statusCode).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it('a good token from the address is served while it is under the limit; successes neither count nor reset', async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: '5' });
    try {
      const address = '203.0.113.20';
      for (let i = 0; i < 4; i++)
        expect((await getFrom(app, address, bearer(randomToken()))).status).toBe(401);
      for (let i = 0; i < 20; i++)
        expect((await getFrom(app, address, bearer(ws.token))).status).toBe(200);
      expect((await getFrom(app, address, bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, address, bearer(ws.token))).status).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('a missing or malformed Authorization header is no guess: never counted', async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: '3' });
    try {
      const address = '203.0.113.30';
      for (let i = 0; i < 20; i++) {
        expect((await getFrom(app, address, null)).status).toBe(401);
        expect((await getFrom(app, address, 'Basic dXNlcjpwYXNz')).status).toBe(401);
        expect((await getFrom(app, address, 'Bearer not a token')).status).toBe(401);
      }
      expect((await getFrom(app, address, bearer(ws.token))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('counts the addresses of one IPv6 /64 together, an IPv4-mapped address as its IPv4', async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: '2' });
    try {
      expect((await getFrom(app, '2001:db8:1:2::1', bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, '2001:db8:1:2::ffff', bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, '2001:db8:1:2:abcd::9', bearer(ws.token))).status).toBe(429);
      expect((await getFrom(app, '2001:db8:1:3::1', bearer(ws.token))).status).toBe(200);
      expect((await getFrom(app, '192.0.2.5', bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, '::ffff:192.0.2.5', bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, '192.0.2.5', bearer(ws.token))).status).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('answers the single deal in its shape B, and /mcp in shape A', async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: '1' });
    try {
      const address = '203.0.113.40';
      expect((await getFrom(app, address, bearer(randomToken()))).status).toBe(401);
      const deal = await getFrom(app, address, bearer(ws.token), `/v2/deal/${dealId}`);
      expect(deal.status).toBe(429);
      expect(deal.json).toEqual({ error: AUTH_FAILURES_MESSAGE });
      expect(deal.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      const mcp = await app.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress: address,
        headers: { authorization: bearer(ws.token), 'content-type': 'application/json' },
        payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
      expect(mcp.statusCode).toBe(429);
      expect(JSON.parse(mcp.body).message).toBe(AUTH_FAILURES_MESSAGE);
    } finally {
      await app.close();
    }
  });

  it('AUTH_FAILURE_LIMIT=0 turns it off: 300 random tokens are 300 × 401', async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: '0' });
    try {
      for (let i = 0; i < 300; i++)
        expect((await getFrom(app, '203.0.113.50', bearer(randomToken()))).status).toBe(401);
      expect((await getFrom(app, '203.0.113.50', bearer(ws.token))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it.skipIf(!SHARED_REDIS)(
    'with the rate limit counted in Redis, failed checks are still counted in the process',
    async () => {
      const limiter = new RedisRateLimiter({
        url: REDIS_URL,
        max: 100,
        windowMs: 60_000,
        prefix: `salescrm-test:${randomUUID()}:`,
        timeoutMs: 1000,
      });
      const app = await appWith(
        { AUTH_FAILURE_LIMIT: '3', RATE_LIMIT_MAX: '100' },
        { rateLimiter: limiter },
      );
      try {
        expect(await limiter.connected(5_000)).toBe(true);
        const address = '203.0.113.60';
        const ok = await getFrom(app, address, bearer(ws.token));
        expect(ok.status).toBe(200);
        expect(ok.headers['ratelimit-remaining']).toBe('99');
        for (let i = 0; i < 3; i++)
          expect((await getFrom(app, address, bearer(randomToken()))).status).toBe(401);
        const refused = await getFrom(app, address, bearer(ws.token));
        expect(refused.status).toBe(429);
        expect(refused.json.message).toBe(AUTH_FAILURES_MESSAGE);
        expect(reasonSeconds(refused)).toBe(Number(refused.headers['retry-after']));
        // Refused before the token: the workspace's shared count did not move.
        const other = await getFrom(app, '203.0.113.61', bearer(ws.token));
        expect(other.headers['ratelimit-remaining']).toBe('98');
      } finally {
        await app.close();
        await limiter.close();
      }
    },
  );
});

describe('AuthFailureCounter', () => {
  it('refuses at max failures until the window ends, counting the wait down', () => {
    let now = 1_000_000;
    const counter = new AuthFailureCounter(3, 60_000, 100, () => now);
    expect(counter.wait('a')).toBe(0);
    counter.fail('a');
    counter.fail('a');
    expect(counter.wait('a')).toBe(0);
    counter.fail('a');
    expect(counter.wait('a')).toBe(60);
    now += 20_500;
    expect(counter.wait('a')).toBe(40);
    now += 39_499;
    expect(counter.wait('a')).toBe(1);
    now += 1;
    expect(counter.wait('a')).toBe(0);
    // A new window: one failure is one again.
    counter.fail('a');
    expect(counter.wait('a')).toBe(0);
  });

  it('holds at most its capacity of addresses, however many fail', () => {
    const now = 0;
    const counter = new AuthFailureCounter(2, 60_000, 1_000, () => now);
    for (let i = 0; i < 50_000; i++)
      counter.fail(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(counter.size).toBe(1_000);
    // The newest are kept, the oldest forgotten.
    counter.fail('10.0.195.79');
    expect(counter.wait('10.0.195.79')).toBe(60);
    expect(counter.wait('10.0.0.0')).toBe(0);
  });

  it('forgets windows that have ended', () => {
    let now = 0;
    const counter = new AuthFailureCounter(2, 60_000, 1_000, () => now);
    for (let i = 0; i < 500; i++) counter.fail(`192.0.2.${i & 255}-${i}`);
    expect(counter.size).toBe(500);
    now = 60_000;
    counter.fail('198.51.100.1');
    expect(counter.size).toBe(1);
  });
});

describe('clientOf', () => {
  it('is an IPv4 address itself, an IPv4-mapped one its IPv4, an IPv6 one its /64', () => {
    expect(clientOf('192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('not an address')).toBe('not an address');
  });
});

describe('AUTH_FAILURE_LIMIT', () => {
  it('is 30 unless set; 0 turns it off; anything but a whole number from 0 is refused', () => {
    expect(loadConfig({}).authFailureLimit).toBe(30);
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '0' }).authFailureLimit).toBe(0);
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '120' }).authFailureLimit).toBe(120);
    for (const bad of ['-1', 'many', '1.5'])
      expect(() => loadConfig({ AUTH_FAILURE_LIMIT: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT: 'many' })).toThrow(/AUTH_FAILURE_LIMIT/);
  });
});

describe('TRUST_PROXY', () => {
  it('is unset by default; takes addresses, CIDR ranges and range names; refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBeUndefined();
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback,fd00::/8' }).trustProxy,
    ).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', 'fd00::/8']);
    for (const bad of ['2', 'true', '10.0.0.0/33', 'proxy.internal', '10.0.0.5,'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
});

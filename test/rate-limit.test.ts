import { randomUUID } from 'node:crypto';
import { availableParallelism, totalmem } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  defaultCatalogCacheBytes,
  defaultPageCacheBytes,
  loadConfig,
  memoryLimit,
  workersCaches,
} from '../src/config.ts';
import { createToken } from '../src/resources/workspaces/writes.ts';
import { buildApp } from '../src/server/app.ts';
import { MemoryRateLimiter } from '../src/server/rate-limit.ts';
import { RedisRateLimiter } from '../src/server/redis-rate-limit.ts';
import { type EveryType, seedEveryType } from './every-type.ts';
import { get, type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';
import { REDIS_URL, redisAnswers } from './redis.ts';

type Store = Awaited<ReturnType<typeof testStore>>;

const SHARED_REDIS = await redisAnswers();

describe('rate limit over HTTP', () => {
  let store: Store;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let dataA: EveryType;

  beforeAll(async () => {
    store = await testStore();
    a = await testWorkspace(store, '한도 A');
    b = await testWorkspace(store, '한도 B');
    dataA = await seedEveryType(a, 'A');
    await seedEveryType(b, 'B');
  });
  afterAll(async () => store?.dispose());

  /** A fresh app (fresh counters) limited to 5 requests per window. */
  async function limitedApp(windowMs = 60_000): Promise<FastifyInstance> {
    return testApp(store, { rateLimitMax: 5, rateLimitWindowMs: windowMs });
  }

  it('counts down on every authenticated /v2 response, then answers 429 in shape A', async () => {
    const app = await limitedApp();
    // Successes and errors after authentication both count and both carry the headers.
    const urls = [
      '/v2/people',
      '/v2/deal?limit=0',
      '/v2/organization',
      `/v2/lead/${dataA.leads[0]}/quote`,
      '/v2/product',
    ];
    const statuses = [200, 400, 200, 200, 200];
    for (const [i, url] of urls.entries()) {
      const res = await get(app, a.token, url);
      expect(res.status, url).toBe(statuses[i]);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
      const reset = Number(res.headers['ratelimit-reset']);
      expect(Number.isInteger(reset)).toBe(true);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const res = await get(app, a.token, '/v2/people');
    expect(res.status).toBe(429);
    expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
    const retryAfter = res.headers['retry-after'];
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(res.json).toEqual({
      success: false,
      message: '요청이 너무 많습니다.',
      reason: `${retryAfter}초 후 재시도해주세요.`,
    });
    expect(res.headers['ratelimit-limit']).toBe('5');
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(res.headers['ratelimit-reset']).toBe(retryAfter);
    // Still refused, on every endpoint.
    for (const url of ['/v2/deal/activity', '/v2/people/history', '/v2/lead']) {
      const again = await get(app, a.token, url);
      expect(again.status).toBe(429);
      expect(again.json).toEqual({
        success: false,
        message: '요청이 너무 많습니다.',
        reason: `${again.headers['retry-after']}초 후 재시도해주세요.`,
      });
    }
    await app.close();
  });

  it('answers 429 on /v2/deal/{dealId} in shape B: {"error":"요청이 너무 많습니다."}', async () => {
    const app = await limitedApp();
    const url = `/v2/deal/${dataA.deals[0]}`;
    for (let i = 0; i < 5; i++) expect((await get(app, a.token, url)).status).toBe(200);
    const res = await get(app, a.token, url);
    expect(res.status).toBe(429);
    expect(res.text).toBe('{"error":"요청이 너무 많습니다."}');
    expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    await app.close();
  });

  it('limits each workspace on its own', async () => {
    const app = await limitedApp();
    for (let i = 0; i < 6; i++) await get(app, a.token, '/v2/people');
    expect((await get(app, a.token, '/v2/people')).status).toBe(429);
    const other = await get(app, b.token, '/v2/people');
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('4');
    // Two tokens of one workspace share its budget.
    const second = await createToken(store, b.workspaceId, b.userId);
    expect((await get(app, second.token, '/v2/people')).headers['ratelimit-remaining']).toBe('3');
    await app.close();
  });

  it('does not count or label requests that are not authenticated /v2 requests', async () => {
    const app = await limitedApp();
    for (let i = 0; i < 10; i++) {
      const denied = await get(app, null, '/v2/people');
      expect(denied.status).toBe(401);
      expect(denied.headers['ratelimit-limit']).toBeUndefined();
      const bad = await get(app, 'not-a-token', '/v2/people');
      expect(bad.status).toBe(401);
      const health = await get(app, null, '/healthz');
      expect(health.status).toBe(200);
      expect(health.headers['ratelimit-limit']).toBeUndefined();
      expect((await get(app, a.token, '/v2/nowhere')).status).toBe(404);
    }
    expect((await get(app, a.token, '/v2/people')).headers['ratelimit-remaining']).toBe('4');
    await app.close();
  });

  it("the 429's reason names the seconds Retry-After gives, as the window runs down", async () => {
    // A 30 s window: the wait goes from 30 down as the clock moves, and the two must agree.
    let now = 1_000_000;
    const app = await buildApp({
      store,
      config: { ...loadConfig({}), logLevel: 'silent', overloadDelayMs: 0 },
      rateLimiter: new MemoryRateLimiter(1, 30_000, () => now),
    });
    expect((await get(app, a.token, '/v2/people')).status).toBe(200);
    const waits: number[] = [];
    for (const step of [0, 2_500, 10_000, 17_000]) {
      now += step;
      const res = await get(app, a.token, '/v2/people');
      expect(res.status).toBe(429);
      const seconds = /^(\d+)초 후 재시도해주세요\.$/.exec(res.json.reason)?.[1];
      expect(seconds, res.json.reason).toBeDefined();
      expect(Number(seconds)).toBe(Number(res.headers['retry-after']));
      waits.push(Number(seconds));
    }
    expect(waits).toEqual([30, 28, 18, 1]);
    await app.close();
  });

  it('opens again when the window ends', async () => {
    const app = await limitedApp(1000);
    let res = await get(app, a.token, '/v2/people');
    for (let i = 0; i < 5; i++) res = await get(app, a.token, '/v2/people');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json.reason).toBe('1초 후 재시도해주세요.');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    res = await get(app, a.token, '/v2/people');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
    await app.close();
  });

  it('RATE_LIMIT_MAX=0 turns the limit off', async () => {
    const config = loadConfig({ RATE_LIMIT_MAX: '0' });
    expect(config.rateLimitMax).toBe(0);
    const app = await buildApp({
      store,
      config: { ...config, logLevel: 'silent', overloadDelayMs: 0 },
    });
    for (let i = 0; i < 30; i++) {
      const res = await get(app, a.token, '/v2/people');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      expect(res.headers['ratelimit-remaining']).toBeUndefined();
    }
    await app.close();
  });
});

describe.skipIf(!SHARED_REDIS)('rate limit over HTTP, counted in Redis (REDIS_URL)', () => {
  it("answers the 429 as in memory: Korean message, the reason's seconds those of Retry-After", async () => {
    const store = await testStore();
    const ws = await testWorkspace(store, '레디스 한도');
    const limiter = new RedisRateLimiter({
      url: REDIS_URL,
      max: 2,
      windowMs: 60_000,
      prefix: `salescrm-test:${randomUUID()}:`,
      timeoutMs: 1000,
    });
    const app = await buildApp({
      store,
      config: { ...loadConfig({}), logLevel: 'silent', overloadDelayMs: 0 },
      rateLimiter: limiter,
    });
    try {
      expect(await limiter.connected(5_000)).toBe(true);
      for (let i = 0; i < 2; i++) expect((await get(app, ws.token, '/v2/people')).status).toBe(200);
      const res = await get(app, ws.token, '/v2/people');
      expect(res.status).toBe(429);
      expect(limiter.shared).toBe(true);
      const retryAfter = res.headers['retry-after'];
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(res.json).toEqual({
        success: false,
        message: '요청이 너무 많습니다.',
        reason: `${retryAfter}초 후 재시도해주세요.`,
      });
    } finally {
      await app.close();
      await limiter.close();
      await store.dispose();
    }
  });
});

describe('MemoryRateLimiter', () => {
  it('allows max hits per window, then refuses until the window ends', () => {
    let t = 1_000_000;
    const limiter = new MemoryRateLimiter(3, 10_000, () => t);
    expect(limiter.hit('w')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 10 });
    t += 2_500;
    expect(limiter.hit('w')).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 8 });
    expect(limiter.hit('w')).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 8 });
    expect(limiter.hit('w')).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 8 });
    t += 7_499;
    expect(limiter.hit('w')).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    t += 1;
    expect(limiter.hit('w')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 10 });
  });

  it('counts a hit with a cost as that many requests', () => {
    const t = 0;
    const limiter = new MemoryRateLimiter(25, 10_000, () => t);
    expect(limiter.hit('w', 10)).toMatchObject({ allowed: true, remaining: 15 });
    expect(limiter.hit('w')).toMatchObject({ allowed: true, remaining: 14 });
    expect(limiter.hit('w', 10)).toMatchObject({ allowed: true, remaining: 4 });
    expect(limiter.hit('w', 10)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('counts keys apart, and an idle key starts over', () => {
    let t = 0;
    const limiter = new MemoryRateLimiter(1, 1_000, () => t);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
    expect(limiter.hit('b').allowed).toBe(true);
    t = 50_000;
    expect(limiter.hit('c').allowed).toBe(true); // sweeps the idle windows
    expect(limiter.hit('a')).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 1 });
  });
});

describe('loadConfig', () => {
  it('has defaults that run on a new machine', () => {
    expect(loadConfig({})).toEqual({
      databaseUrl: 'sqlite:./data/salescrm.db',
      pgPartitions: 0,
      port: 3000,
      host: '127.0.0.1',
      basePath: '',
      rateLimitMax: 100,
      rateLimitWindowMs: 10_000,
      authFailureLimit: 30,
      pageCacheBytes: defaultPageCacheBytes(memoryLimit()),
      catalogCacheBytes: defaultCatalogCacheBytes(memoryLimit()),
      logLevel: 'info',
      logRequests: false,
      slowRequestMs: 500,
      metrics: false,
      redisKeyPrefix: 'salescrm:',
      redisTimeoutMs: 250,
      shutdownGraceMs: 10_000,
      requestTimeoutMs: 10_000,
      overloadDelayMs: 200,
      workspaceHeavyRunning: 2,
      workspaceHeavyWaiting: 8,
      readThreads: Math.max(1, Math.min(8, availableParallelism() - 1)),
      eventRetentionDays: 30,
      webhookAllowPrivate: false,
      webhookDispatch: true,
      webhookRetryDelays: [10, 60, 300, 600, 1800, 3600, 7200, 14400, 28800, 43200],
      webhookTimeoutMs: 10_000,
      webhookConcurrency: 32,
      webhookConcurrencyPerWebhook: 4,
      webhookPollMs: 250,
    });
  });

  it('sizes the page cache by the memory the process may use, unless PAGE_CACHE_BYTES says', () => {
    const MiB = 1024 ** 2;
    expect(defaultPageCacheBytes(512 * MiB)).toBe(64 * MiB);
    expect(defaultPageCacheBytes(2048 * MiB)).toBe(256 * MiB);
    expect(defaultPageCacheBytes(4096 * MiB)).toBe(512 * MiB);
    expect(defaultPageCacheBytes(24 * 1024 * MiB)).toBe(1024 * MiB);
    // The machine's memory, or less under a container's limit; never Node's "unlimited".
    expect(memoryLimit()).toBeGreaterThan(0);
    expect(memoryLimit()).toBeLessThanOrEqual(totalmem());
    expect(loadConfig({ PAGE_CACHE_BYTES: '1000' }).pageCacheBytes).toBe(1000);
    expect(loadConfig({ PAGE_CACHE_BYTES: '0' }).pageCacheBytes).toBe(0);
  });

  it('sizes the catalog cache by the memory the process may use, unless CATALOG_CACHE_BYTES says', () => {
    const MiB = 1024 ** 2;
    expect(defaultCatalogCacheBytes(256 * MiB)).toBe(32 * MiB);
    expect(defaultCatalogCacheBytes(2048 * MiB)).toBe(128 * MiB);
    expect(defaultCatalogCacheBytes(24 * 1024 * MiB)).toBe(512 * MiB);
    expect(loadConfig({}).catalogCacheBytes).toBe(defaultCatalogCacheBytes());
    expect(loadConfig({ CATALOG_CACHE_BYTES: '1000' }).catalogCacheBytes).toBe(1000);
    expect(loadConfig({ CATALOG_CACHE_BYTES: '0' }).catalogCacheBytes).toBe(0);
  });

  it('shares the default cache budgets among the workers of serve --workers, not set ones', () => {
    const budgets = { pageCacheBytes: 1024 ** 3, catalogCacheBytes: 512 * 1024 ** 2 };
    expect(workersCaches({}, budgets, 4)).toEqual({
      PAGE_CACHE_BYTES: String(256 * 1024 ** 2),
      CATALOG_CACHE_BYTES: String(128 * 1024 ** 2),
    });
    expect(
      workersCaches({ PAGE_CACHE_BYTES: '' }, { pageCacheBytes: 999, catalogCacheBytes: 5 }, 2),
    ).toEqual({ PAGE_CACHE_BYTES: '499', CATALOG_CACHE_BYTES: '2' });
    expect(
      workersCaches(
        { PAGE_CACHE_BYTES: '1000', CATALOG_CACHE_BYTES: '77' },
        { pageCacheBytes: 1000, catalogCacheBytes: 77 },
        4,
      ),
    ).toEqual({});
  });

  it('refuses a DATABASE_URL of a scheme it does not serve, rather than make a file of it', () => {
    for (const bad of ['bogus://x', 'mysql://root@127.0.0.1/crm', 'HTTP://example.com/db'])
      expect(() => loadConfig({ DATABASE_URL: bad })).toThrow(/DATABASE_URL must be/);
    for (const good of [
      'postgres://postgres@127.0.0.1/crm',
      'postgresql://postgres@127.0.0.1/crm',
      'sqlite:./data/x.db',
      'sqlite:///tmp/x.db',
      './data/x.db',
      '/tmp/x.db',
    ])
      expect(loadConfig({ DATABASE_URL: good }).databaseUrl).toBe(good);
  });

  it('refuses a partition count that is not a whole number from 0 to 1024', () => {
    for (const bad of ['-1', '1.5', '1025', 'eight'])
      expect(() => loadConfig({ PG_PARTITIONS: bad })).toThrow(/PG_PARTITIONS/);
  });

  it('refuses a retention that is not a whole number of days from 1', () => {
    for (const bad of ['0', '-1', '1.5', 'month'])
      expect(() => loadConfig({ EVENT_RETENTION_DAYS: bad })).toThrow(/EVENT_RETENTION_DAYS/);
  });

  it('reads good values', () => {
    const config = loadConfig({
      DATABASE_URL: 'sqlite:/tmp/x.db',
      PORT: '8080',
      HOST: '0.0.0.0',
      BASE_PATH: '/api/',
      RATE_LIMIT_MAX: '0',
      RATE_LIMIT_WINDOW_MS: '1000',
      AUTH_FAILURE_LIMIT: '0',
      TRUST_PROXY: 'loopback,10.0.0.0/8',
      PG_PARTITIONS: '8',
      PAGE_CACHE_BYTES: '0',
      CATALOG_CACHE_BYTES: '1048576',
      LOG_LEVEL: 'silent',
      LOG_REQUESTS: 'true',
      SLOW_REQUEST_MS: '0',
      WEBHOOK_ALLOW_PRIVATE: '1',
      EVENT_RETENTION_DAYS: '7',
      METRICS: '1',
      METRICS_PORT: '9464',
      OVERLOAD_DELAY_MS: '0',
      WORKSPACE_HEAVY_RUNNING: '3',
      WORKSPACE_HEAVY_WAITING: '0',
      READ_THREADS: '0',
    });
    expect(config).toEqual({
      databaseUrl: 'sqlite:/tmp/x.db',
      pgPartitions: 8,
      port: 8080,
      host: '0.0.0.0',
      basePath: '/api',
      rateLimitMax: 0,
      rateLimitWindowMs: 1000,
      authFailureLimit: 0,
      trustProxy: ['loopback', '10.0.0.0/8'],
      pageCacheBytes: 0,
      catalogCacheBytes: 1_048_576,
      logLevel: 'silent',
      logRequests: true,
      slowRequestMs: 0,
      metrics: true,
      metricsPort: 9464,
      redisKeyPrefix: 'salescrm:',
      redisTimeoutMs: 250,
      shutdownGraceMs: 10_000,
      requestTimeoutMs: 10_000,
      overloadDelayMs: 0,
      workspaceHeavyRunning: 3,
      workspaceHeavyWaiting: 0,
      readThreads: 0,
      eventRetentionDays: 7,
      webhookAllowPrivate: true,
      webhookDispatch: true,
      webhookRetryDelays: [10, 60, 300, 600, 1800, 3600, 7200, 14400, 28800, 43200],
      webhookTimeoutMs: 10_000,
      webhookConcurrency: 32,
      webhookConcurrencyPerWebhook: 4,
      webhookPollMs: 250,
    });
    expect(loadConfig({ PORT: '', LOG_REQUESTS: '1', BASE_PATH: '/' })).toMatchObject({
      port: 3000,
      logRequests: true,
      basePath: '',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['RATE_LIMIT_MAX', '-1'],
    ['RATE_LIMIT_MAX', 'many'],
    ['RATE_LIMIT_MAX', '1.5'],
    ['RATE_LIMIT_WINDOW_MS', '0'],
    ['RATE_LIMIT_WINDOW_MS', 'soon'],
    ['WORKSPACE_HEAVY_RUNNING', '0'],
    ['WORKSPACE_HEAVY_WAITING', '-1'],
    ['READ_THREADS', 'all'],
    ['RATE_LIMIT_WINDOW_MS', '86400001'],
    ['AUTH_FAILURE_LIMIT', '-1'],
    ['AUTH_FAILURE_LIMIT', 'lots'],
    ['PAGE_CACHE_BYTES', '-5'],
    ['PAGE_CACHE_BYTES', 'lots'],
    ['CATALOG_CACHE_BYTES', '-1'],
    ['CATALOG_CACHE_BYTES', '1.5'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_LEVEL', 'INFO'],
    ['BASE_PATH', 'api'],
    ['BASE_PATH', '/a b'],
    ['BASE_PATH', '/api?x=1'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['METRICS', 'yes'],
    ['SLOW_REQUEST_MS', '-1'],
    ['SLOW_REQUEST_MS', 'slow'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', 'metrics'],
    ['OVERLOAD_DELAY_MS', '-1'],
    ['OVERLOAD_DELAY_MS', 'busy'],
  ])('%s=%s is a ConfigError naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).toContain(value);
  });
});

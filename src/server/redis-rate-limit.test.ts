import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type LimiterLog, RedisRateLimiter } from './redis-rate-limit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HAS_REDIS_SERVER = !spawnSync('redis-server', ['--version']).error;

/** Whether a Redis answers at REDIS_URL (the shared one this machine runs). */
async function redisAnswers(): Promise<boolean> {
  const probe = new RedisRateLimiter({
    url: REDIS_URL,
    max: 1,
    windowMs: 1000,
    prefix: `salescrm-test:${randomUUID()}:`,
    timeoutMs: 1000,
  });
  for (let i = 0; i < 20 && !probe.shared; i++) await new Promise((r) => setTimeout(r, 50));
  const up = probe.shared;
  await probe.close();
  return up;
}
const SHARED_REDIS = await redisAnswers();
if (!SHARED_REDIS)
  console.warn(`\n*** SKIPPED: no Redis at ${REDIS_URL}: shared counters untested ***\n`);

/** Log lines kept for assertions. */
function recordingLog(): LimiterLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    warn: (_details, message) => lines.push(`warn ${message}`),
    info: (_details, message) => lines.push(`info ${message}`),
  };
}

const open: RedisRateLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

function limiter(url: string, prefix: string, max = 5, windowMs = 10_000, log?: LimiterLog) {
  const made = new RedisRateLimiter({ url, max, windowMs, prefix, timeoutMs: 250, log });
  open.push(made);
  return made;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!SHARED_REDIS)('RedisRateLimiter on a real Redis', () => {
  it('counts in Redis from the first hit once connected() answers true', async () => {
    const prefix = `salescrm-test:${randomUUID()}:`;
    const a = limiter(REDIS_URL, prefix, 2);
    const b = limiter(REDIS_URL, prefix, 2);
    expect(await Promise.all([a.connected(5000), b.connected(5000)])).toEqual([true, true]);
    // Straight after construction: without the wait, these are counted per process.
    const allowed = await Promise.all([a.hit('k'), b.hit('k'), a.hit('k'), b.hit('k')]);
    expect(allowed.filter((d) => d.allowed)).toHaveLength(2);
  });

  it('connected() gives up after its time when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise((r) => closed.close(r));
    const down = limiter(`redis://127.0.0.1:${port}`, `salescrm-test:${randomUUID()}:`);
    const started = Date.now();
    expect(await down.connected(300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('two limiters (two processes) share one window per key, exactly', async () => {
    const prefix = `salescrm-test:${randomUUID()}:`;
    const a = limiter(REDIS_URL, prefix);
    const b = limiter(REDIS_URL, prefix);
    await until(() => a.shared && b.shared);
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await (i % 2 ? b : a).hit('ws-1'));
    expect(decisions.map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    for (const d of decisions) {
      expect(d.limit).toBe(5);
      expect(d.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(d.resetSeconds).toBeLessThanOrEqual(10);
    }
    // Another workspace has its own window.
    expect(await b.hit('ws-2')).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('a hit with a cost counts that many, the first one starting the window', async () => {
    const prefix = `salescrm-test:${randomUUID()}:`;
    const a = limiter(REDIS_URL, prefix, 25);
    const b = limiter(REDIS_URL, prefix, 25);
    await until(() => a.shared && b.shared);
    const first = await a.hit('ws', 10);
    expect(first).toMatchObject({ allowed: true, remaining: 15 });
    expect(first.resetSeconds).toBeGreaterThanOrEqual(9);
    expect(await b.hit('ws')).toMatchObject({ allowed: true, remaining: 14 });
    expect(await a.hit('ws', 10)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await b.hit('ws', 10)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('counts concurrent hits atomically', async () => {
    const prefix = `salescrm-test:${randomUUID()}:`;
    const a = limiter(REDIS_URL, prefix, 100);
    const b = limiter(REDIS_URL, prefix, 100);
    await until(() => a.shared && b.shared);
    const all = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).hit('ws')));
    expect(all.filter((d) => d.allowed)).toHaveLength(100);
    expect(new Set(all.map((d) => d.remaining)).size).toBe(100); // 99 … 0, each once
  });

  it('starts a new window when the old one ends', async () => {
    const a = limiter(REDIS_URL, `salescrm-test:${randomUUID()}:`, 2, 300);
    await until(() => a.shared);
    expect((await a.hit('ws')).allowed).toBe(true);
    expect((await a.hit('ws')).allowed).toBe(true);
    const refused = await a.hit('ws');
    expect(refused).toMatchObject({ allowed: false, resetSeconds: 1 });
    await new Promise((r) => setTimeout(r, 350));
    expect(await a.hit('ws')).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe('RedisRateLimiter without Redis', () => {
  it('counts in this process, logs the outage once, never throws', async () => {
    // A port where nothing listens.
    const port = await freePort();
    const log = recordingLog();
    const a = limiter(`redis://127.0.0.1:${port}`, 'salescrm-test:', 3, 10_000, log);
    const started = Date.now();
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await a.hit('ws'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[4]).toMatchObject({ limit: 3, remaining: 0 });
    expect(a.shared).toBe(false);
    // The refused connection is reported once, however many requests follow.
    await until(() => log.lines.length > 0);
    for (let i = 0; i < 5; i++) await a.hit('ws');
    expect(log.lines).toEqual([
      'warn rate limit: Redis unavailable, counting in this process until it returns',
    ]);
  });
});

describe.skipIf(!HAS_REDIS_SERVER)('RedisRateLimiter when its Redis goes away and returns', () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill('SIGKILL');
  });

  async function startRedis(port: number): Promise<ChildProcess> {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await until(
      () =>
        spawnSync('redis-cli', ['-p', String(port), 'ping'])
          .stdout?.toString()
          .includes('PONG'),
      10_000,
    );
    return child;
  }

  it('falls back to local counts, then shares again once Redis is back', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const log = recordingLog();
    const url = `redis://127.0.0.1:${port}`;
    const prefix = `salescrm-test:${randomUUID()}:`;
    const a = limiter(url, prefix, 4, 60_000, log);
    const b = limiter(url, prefix, 4, 60_000);
    await until(() => a.shared && b.shared, 10_000);
    expect((await a.hit('ws')).remaining).toBe(3);
    expect((await b.hit('ws')).remaining).toBe(2); // shared

    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGKILL');
    await exited;
    // Counted in a's memory now: its own window, never an error.
    const local = await a.hit('ws');
    expect(local).toMatchObject({ allowed: true, limit: 4, remaining: 3 });
    expect(a.shared).toBe(false);
    expect(log.lines).toEqual([
      'warn rate limit: Redis unavailable, counting in this process until it returns',
    ]);

    server = await startRedis(port);
    await until(() => a.shared && b.shared, 15_000);
    expect(log.lines.at(-1)).toBe('info rate limit: Redis is back, counters are shared again');
    // A new Redis (nothing persisted): a fresh shared window.
    expect((await a.hit('ws')).remaining).toBe(3);
    expect((await b.hit('ws')).remaining).toBe(2);
  }, 40_000);
});

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

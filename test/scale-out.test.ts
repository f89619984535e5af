// `salescrm serve` as real processes: several servers (or `--workers N`) sharing rate-limit
// counters in Redis, workers restarted when they die, and the graceful shutdown.

import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openStore } from '../src/store/database.ts';
import { testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HAS_REDIS = (() => {
  const { hostname, port } = new URL(REDIS_URL);
  const ping = spawnSync('redis-cli', ['-h', hostname, '-p', port || '6379', 'ping'], {
    encoding: 'utf8',
  });
  return ping.stdout?.includes('PONG') ?? false;
})();
if (!HAS_REDIS) {
  console.warn(
    `\n*** SKIPPED: no Redis at ${REDIS_URL}: shared rate limit across processes untested ***\n`,
  );
}
/** Under load a tsx start-up takes seconds; every wait here is generous. */
const START_MS = 90_000;

/** A `salescrm serve` child process and what it printed. */
interface Server {
  child: ChildProcess;
  url: string;
  port: number;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

let dir: string;
let dbUrl: string;
/** Spent by the rate-limit checks. */
let token: string;
/** Another workspace (its own limit), for the shutdown checks. */
let writerToken: string;
let writerWorkspaceId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-scale-'));
  dbUrl = `sqlite:${join(dir, 'scale.db')}`;
  const store = openStore(dbUrl);
  await store.migrate();
  ({ token } = await testWorkspace(store, '확장 테스트'));
  ({ workspaceId: writerWorkspaceId, token: writerToken } = await testWorkspace(
    store,
    '종료 테스트',
  ));
  await store.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `salescrm serve ARGS` and waits for its "listening" line. */
async function serve(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, [...salescrmArgs(), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'warn', OVERLOAD_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  await until(
    () => /salescrm is listening on (\S+)/.test(out) || child.exitCode !== null,
    START_MS,
    () => `serve did not start:\n${out}\n${err}`,
  );
  const url = /salescrm is listening on (\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`serve exited with ${child.exitCode}:\n${out}\n${err}`);
  return { child, url, port: Number(new URL(url).port), out: () => out, err: () => err, exited };
}

/** Runs the CLI to completion. */
function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbUrl, ...env }, timeout: START_MS },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function until(check: () => boolean, ms: number, why = () => 'timed out'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(why());
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** GET /v2/people on one of `servers`, chosen in turn; `concurrency` requests at a time. */
async function spread(servers: Server[], total: number, concurrency = 10) {
  const results: { status: number; server: number; retryAfter: string | null }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const server = i % servers.length;
      const res = await fetch(`${servers[server]!.url}/v2/people`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      results.push({ status: res.status, server, retryAfter: res.headers.get('retry-after') });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Whether a new TCP connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * Sends the headers of `POST /v2/people` with `Expect: 100-continue` and waits for the
 * server's `100 Continue`: from then on the request is in flight in the server, waiting for
 * its body. `finish()` sends the body and resolves with the raw response.
 */
async function slowCreate(port: number, name: string) {
  const body = Buffer.from(JSON.stringify({ name }));
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /v2/people HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${writerToken}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      'Expect: 100-continue\r\n\r\n',
  );
  await until(
    () => received.includes('100 Continue'),
    30_000,
    () => `no 100: ${received}`,
  );
  return {
    received: () => received,
    closed,
    /** Sends the body, and `then` (a whole request) right behind it on the same connection. */
    finish: async (then = '') => {
      socket.write(Buffer.concat([body, Buffer.from(then)]));
      await until(
        () => /\r\n\r\n\{.*\}$/s.test(received.split('100 Continue\r\n\r\n')[1] ?? ''),
        30_000,
        () => `no response: ${received}`,
      );
      return received.split('100 Continue\r\n\r\n')[1]!;
    },
  };
}

/** SIGTERM with a create in flight: it completes, new connections are refused, exit 0. */
async function shutdownWithRequestInFlight(server: Server, signalled: ChildProcess, name: string) {
  const slow = await slowCreate(server.port, name);
  signalled.kill('SIGTERM');
  // Stops accepting at once, while the request is still waiting for its body.
  const deadline = Date.now() + 30_000;
  while (!(await refused(server.port))) {
    if (Date.now() > deadline) throw new Error('new connections were still accepted');
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(server.child.exitCode).toBeNull();
  // A request pipelined behind it arrives while the server drains: it is served (not
  // refused in a shape the API does not use), and the connection closes after it.
  const pipelined = `GET /v2/people HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${writerToken}\r\n\r\n`;
  const response = await slow.finish(pipelined);
  expect(response).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
  expect(response).toContain(`"name":"${name}"`);
  await slow.closed;
  const second = slow
    .received()
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .at(-1)!;
  expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(second).toMatch(/\r\nConnection: close\r\n/i);
  expect(second).toContain('"peopleList":[');
  expect(await server.exited).toBe(0);
  // The write was committed before the process ended.
  const store = openStore(dbUrl);
  const row = await store.db
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', writerWorkspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
  await store.close();
  expect(row).toBeDefined();
}

describe('loadConfig: scale-out settings', () => {
  it('reads REDIS_URL, REDIS_KEY_PREFIX, REDIS_TIMEOUT_MS and SHUTDOWN_GRACE_MS', () => {
    expect(
      loadConfig({
        REDIS_URL: 'rediss://:secret@cache.internal:6380/2',
        REDIS_KEY_PREFIX: 'crm-prod:',
        REDIS_TIMEOUT_MS: '100',
        SHUTDOWN_GRACE_MS: '30000',
      }),
    ).toMatchObject({
      redisUrl: 'rediss://:secret@cache.internal:6380/2',
      redisKeyPrefix: 'crm-prod:',
      redisTimeoutMs: 100,
      shutdownGraceMs: 30_000,
    });
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it.each([
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_URL', 'http://cache:6379'],
    ['REDIS_URL', 'redis://'],
    ['REDIS_TIMEOUT_MS', '0'],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['SHUTDOWN_GRACE_MS', 'soon'],
  ])('%s=%s is a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('never prints the Redis password', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@cache:6379' })).not.toThrow(/hunter2/);
  });
});

describe('serve: settings checked before anything starts', { timeout: START_MS * 2 }, () => {
  it('--workers outside 1..64 and a malformed REDIS_URL exit 2 with a clear message', async () => {
    const [zero, many, redis] = await Promise.all([
      cli(['serve', '--workers', '0']),
      cli(['serve', '--workers', '65']),
      cli(['serve'], { REDIS_URL: 'http://127.0.0.1:6379' }),
    ]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain(
      "option '--workers <N>' argument '0' is invalid. It must be a whole number from 1 to 64.",
    );
    expect(many.code).toBe(2);
    expect(many.stderr).toContain("argument '65' is invalid");
    expect(redis.code).toBe(2);
    expect(redis.stderr).toContain('REDIS_URL must look like redis://');
  });
});

describe('serve when the port is taken', { timeout: START_MS * 3 }, () => {
  it('one process exits 1; --workers 2 gives up after 5 failed starts instead of looping', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    try {
      const [single, workers] = await Promise.all([
        // Its Redis connection must not keep it alive.
        cli(['serve', '--port', port], HAS_REDIS ? { REDIS_URL, LOG_LEVEL: 'warn' } : {}),
        cli(['serve', '--port', port, '--workers', '2'], { LOG_LEVEL: 'warn' }),
      ]);
      expect(single.code).toBe(1);
      expect(single.stderr).toContain('EADDRINUSE');
      expect(single.stdout).not.toContain('Redis unavailable');
      expect(workers.code).toBe(1);
      expect(workers.stderr).toMatch(/starting another in 200 ms/);
      expect(workers.stderr).toContain(
        '5 workers in a row exited (code 1) before they could listen; giving up',
      );
    } finally {
      taken.close();
    }
  });
});

describe('two servers sharing Redis', { timeout: START_MS * 3 }, () => {
  it('hold 100 requests per 10 s across both, then finish in-flight requests on SIGTERM', async () => {
    const env: Record<string, string> = HAS_REDIS
      ? { REDIS_URL, REDIS_KEY_PREFIX: `salescrm-test:${randomUUID()}:` }
      : {};
    const [a, b] = await Promise.all([
      serve([], { ...env, SHUTDOWN_GRACE_MS: '1000' }),
      serve([], env),
    ]);
    expect(a.port).not.toBe(b.port);

    if (HAS_REDIS) {
      const results = await spread([a, b], 150);
      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(ok).toHaveLength(100);
      expect(limited).toHaveLength(50);
      // Both processes answered both ways: the count is shared, not per process.
      expect(new Set(ok.map((r) => r.server))).toEqual(new Set([0, 1]));
      expect(new Set(limited.map((r) => r.server))).toEqual(new Set([0, 1]));
      for (const r of limited) {
        expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(r.retryAfter)).toBeLessThanOrEqual(10);
      }
    }

    await Promise.all([
      shutdownWithRequestInFlight(b, b.child, `종료 중 생성 ${randomUUID()}`),
      (async () => {
        // A request that never completes is cut after SHUTDOWN_GRACE_MS (1 s here).
        const stuck = await slowCreate(a.port, 'never sent');
        a.child.kill('SIGTERM');
        expect(await a.exited).toBe(0);
        await stuck.closed;
        expect(stuck.received()).not.toContain('HTTP/1.1 200');
      })(),
    ]);
  });
});

describe('serve --workers 2', { timeout: START_MS * 3 }, () => {
  it('shares the port and the limit, restarts a worker that dies, stops cleanly on SIGTERM', async () => {
    const env: Record<string, string> = HAS_REDIS
      ? { REDIS_URL, REDIS_KEY_PREFIX: `salescrm-test:${randomUUID()}:` }
      : {};
    const primary = await serve(['--workers', '2'], env);
    expect(primary.out()).toContain('(2 workers)');
    const pids = () =>
      [...primary.out().matchAll(/worker (\d+) is ready/g)].map((m) => Number(m[1]));
    const first = pids();
    expect(first).toHaveLength(2);
    expect(first).not.toContain(primary.child.pid);

    if (HAS_REDIS) {
      // Connections are dealt to both workers; the limit still holds exactly.
      const results = await spread([primary], 150);
      expect(results.filter((r) => r.status === 200)).toHaveLength(100);
      expect(results.filter((r) => r.status === 429)).toHaveLength(50);
    }

    // A worker that dies is replaced; the other keeps serving meanwhile.
    process.kill(first[0]!, 'SIGKILL');
    await until(
      () => /worker \d+ exited \(signal SIGKILL\)/.test(primary.err()),
      30_000,
      primary.err,
    );
    const during = await fetch(`${primary.url}/healthz`);
    expect(during.status).toBe(200);
    await until(
      () => pids().length === 3,
      START_MS,
      () => primary.out() + primary.err(),
    );
    const replacement = pids()[2]!;
    expect(first).not.toContain(replacement);
    expect(() => process.kill(first[0]!, 0)).toThrow();

    await shutdownWithRequestInFlight(primary, primary.child, `워커 종료 중 생성 ${randomUUID()}`);
    // Every worker is gone with the primary.
    for (const pid of [first[1]!, replacement]) expect(() => process.kill(pid, 0)).toThrow();
  });
});

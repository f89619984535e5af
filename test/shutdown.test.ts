// SIGTERM under continuous load resets no request: `salescrm serve` is signalled while four
// keep-alive clients create people and one reads, one after another on their own
// connections, and a sixth connection sits idle. Every request is answered or refused at
// connect (the listening socket is closed); none is cut on an open connection. The answers
// after the signal carry `Connection: close` (each client's last answer does, and it then
// opens a new connection, which is refused), and the idle connection's next request, sent
// a moment after the signal, is served. Three runs.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../src/store/database.ts';
import { testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 3;

let dir: string;
let file: string;
let token: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-shutdown-'));
  file = join(dir, 'shutdown.db');
  const store = openStore(`sqlite:${file}`);
  await store.migrate();
  ({ token } = await testWorkspace(store, '종료 테스트'));
  await store.close();
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `salescrm serve` on the file; resolves once it listens, and tells when it starts draining. */
async function serve() {
  const child = spawn(process.execPath, [...salescrmArgs(), 'serve', '--port', '0'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${file}`,
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '0',
      OVERLOAD_DELAY_MS: '0',
      WEBHOOK_DISPATCH: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  let draining = false;
  child.stdout!.on('data', (d) => {
    out += d;
    if (out.includes('shutting down')) draining = true;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const m = /salescrm is listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  return { child, port, exited, draining: () => draining };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** One request on `agent`'s kept-alive connection. */
function send(agent: Agent, port: number, method: string, path: string, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One SIGTERM under load: what the clients saw. */
async function run(round: number) {
  const server = await serve();
  const seen = { answered: 0, refused: 0, resets: [] as string[], last: [] as Answer[] };
  let stop = false;
  const client = async (i: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let n = 0;
    let last: Answer | undefined;
    while (!stop) {
      try {
        const answer =
          i === 4
            ? await send(agent, server.port, 'GET', '/v2/people?limit=20')
            : await send(agent, server.port, 'POST', '/v2/people', {
                name: `종료 ${round}-${i}-${++n}`,
              });
        seen.answered += 1;
        last = answer;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED') {
          // The listening socket is closed: nothing was sent.
          seen.refused += 1;
          stop = true;
        } else seen.resets.push(`${code}: ${(error as Error).message}`);
      }
    }
    agent.destroy();
    if (last) seen.last.push(last);
  };
  // A connection that is idle when the signal comes, and sends a request a moment after.
  const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  await send(idleAgent, server.port, 'GET', '/v2/people?limit=1');

  const clients = Array.from({ length: 5 }, (_, i) => client(i));
  while (seen.answered < 50) await sleep(5);
  server.child.kill('SIGTERM');
  while (!server.draining()) await sleep(5);
  await sleep(100);
  const idle = await send(idleAgent, server.port, 'GET', '/v2/people?limit=1').catch(
    (error: NodeJS.ErrnoException) => error.code ?? String(error),
  );
  idleAgent.destroy();
  await Promise.all(clients);
  const code = await server.exited;
  return { ...seen, idle, code };
}

it(`resets no request of keep-alive clients on SIGTERM (${RUNS} runs)`, async () => {
  for (let round = 1; round <= RUNS; round++) {
    const seen = await run(round);
    expect(seen.resets, `run ${round}`).toEqual([]);
    expect(seen.code).toBe(0);
    expect(typeof seen.idle === 'object' && seen.idle.status).toBe(200);
    expect(typeof seen.idle === 'object' && seen.idle.headers.connection).toBe('close');
    // Each client's last answer came after the signal (its next connection was refused),
    // and told it to close the connection.
    expect(seen.last).toHaveLength(5);
    for (const answer of seen.last) {
      expect(answer.status).toBeLessThan(300);
      expect(answer.headers.connection).toBe('close');
    }
  }
}, 120_000);

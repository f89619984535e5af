import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app.ts';
import { type TestStore, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { startServe } from './serve-process.ts';

/** One line the app logged, parsed. */
interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  workspaceId?: string | null;
  method?: string;
  route?: string | null;
  status?: number;
  durationMs?: number;
}

const INFO = 30;
const WARN = 40;

let store: TestStore;
let ws: TestWorkspace;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  store = await testStore();
  ws = await testWorkspace(store);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await store?.dispose();
});

/** An app logging into memory: its raw text, and its lines parsed. */
async function loggingApp(config: { logRequests: boolean; slowRequestMs: number }) {
  let text = '';
  const app = await buildApp({
    store,
    config: {
      basePath: '',
      rateLimitMax: 0,
      rateLimitWindowMs: 10_000,
      pageCacheBytes: 0,
      logLevel: 'info',
      ...config,
      webhookAllowPrivate: false,
    },
    logStream: {
      write(line: string) {
        text += line;
      },
    },
  });
  apps.push(app);
  return {
    app,
    text: () => text,
    lines: (): LogLine[] =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as LogLine),
  };
}

/** Requests of each kind: a read, a write, one not found, one with a bad token. */
async function requests(app: FastifyInstance) {
  const auth = { authorization: `Bearer ${ws.token}` };
  return [
    await app.inject({ method: 'GET', url: '/v2/people?limit=2', headers: auth }),
    await app.inject({
      method: 'POST',
      url: '/v2/people',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { name: '로그 고객' },
    }),
    await app.inject({ method: 'GET', url: '/v2/people/nobody-9c1e', headers: auth }),
    await app.inject({
      method: 'GET',
      url: '/v2/people',
      headers: { authorization: 'Bearer scrm_not_a_real_token_4d2f' },
    }),
  ];
}

describe('request logs', () => {
  it('LOG_REQUESTS=1: one JSON line per request, with id, workspace, route, status and time', async () => {
    const log = await loggingApp({ logRequests: true, slowRequestMs: 3_600_000 });
    const answers = await requests(log.app);
    const lines = log.lines().filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(4);
    expect(
      lines.map(({ level, requestId, workspaceId, method, route, status }) => ({
        level,
        requestId,
        workspaceId,
        method,
        route,
        status,
      })),
    ).toEqual([
      {
        level: INFO,
        requestId: answers[0]!.headers['x-request-id'],
        workspaceId: ws.workspaceId,
        method: 'GET',
        route: '/v2/people',
        status: 200,
      },
      {
        level: INFO,
        requestId: answers[1]!.headers['x-request-id'],
        workspaceId: ws.workspaceId,
        method: 'POST',
        route: '/v2/people',
        status: 201,
      },
      {
        level: INFO,
        requestId: answers[2]!.headers['x-request-id'],
        workspaceId: ws.workspaceId,
        method: 'GET',
        route: '/v2/people/:peopleId',
        status: 404,
      },
      {
        level: INFO,
        requestId: answers[3]!.headers['x-request-id'],
        workspaceId: null,
        method: 'GET',
        route: '/v2/people',
        status: 401,
      },
    ]);
    for (const line of lines) expect(line.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('never logs a token or the Authorization header', async () => {
    const log = await loggingApp({ logRequests: true, slowRequestMs: 0 });
    await requests(log.app);
    expect(log.lines().length).toBeGreaterThanOrEqual(4);
    const text = log.text();
    expect(text).not.toContain(ws.token);
    expect(text).not.toContain('scrm_not_a_real_token_4d2f');
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('a slow request is a warning even with request logs off (SLOW_REQUEST_MS=0: every one)', async () => {
    const log = await loggingApp({ logRequests: false, slowRequestMs: 0 });
    const answers = await requests(log.app);
    const lines = log.lines();
    expect(lines.map((l) => [l.level, l.msg, l.requestId, l.status])).toEqual(
      answers.map((a) => [WARN, 'slow request', a.headers['x-request-id'], a.statusCode]),
    );
  });

  it('logs nothing of requests with request logs off and none slow', async () => {
    const log = await loggingApp({ logRequests: false, slowRequestMs: 3_600_000 });
    await requests(log.app);
    expect(log.text()).toBe('');
  });

  it('serve with LOG_REQUESTS=1 prints the lines on standard output', async () => {
    const server = await startServe(store.url, { LOG_REQUESTS: '1', LOG_LEVEL: 'info' });
    try {
      const res = await fetch(`${server.url}/v2/people`, {
        headers: { authorization: `Bearer ${ws.token}` },
      });
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      // The line is written when the answer has gone: wait for it to reach us.
      for (let i = 0; i < 200 && !server.out().includes(`"requestId":"${id}"`); i++)
        await new Promise((r) => setTimeout(r, 25));
      const line = server
        .out()
        .split('\n')
        .find((l) => l.includes(`"requestId":"${id}"`));
      expect(line, server.out()).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({
        level: INFO,
        msg: 'request',
        workspaceId: ws.workspaceId,
        route: '/v2/people',
        status: 200,
      });
      expect(server.out() + server.err()).not.toContain(ws.token);
    } finally {
      // Shutting down is not what this test is about (on PostgreSQL a SIGTERM right after a
      // request takes the process about 30 s to exit).
      await server.kill();
    }
  });
});

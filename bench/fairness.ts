// `npm run bench:fairness [-- --people N] [--seconds S] [--mcp SENDERS] [--rate-limit N]
// [--no-postgres] [--no-sqlite]`: may one workspace slow another? Workspace A (a demo of N
// people, 20,000 by default) keeps ten of the heaviest searches in flight (3 groups of
// CONTAINS / NOT_CONTAINS, sorted by 이메일: every record read, about 1 s each) and three
// senders of MCP batches of 100 `tools/list`, within the rate limit (100 a 10 s window, the
// default; a refused call waits 1 s and tries again); B (a demo of 20 people) reads
// `GET /v2/people?limit=50` and `GET /v2/user/me` at 4 requests a second each, on a fixed
// schedule. B is timed alone, then beside A, in one run, on a real `salescrm serve` (its
// reader threads, its shedding at 200 ms), and again with what the server did before the fair
// share (`READ_THREADS=0`, no bound on a workspace's searches), for the ratio. Both stores
// unless `--no-postgres` (PostgreSQL on 127.0.0.1:5432, or BENCH_DATABASE_URL). Nothing is
// pinned: the server's event loop and its reader thread are meant to use both cores.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDemo, countArg, onPostgres, percentile, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '20' },
    'no-postgres': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    // Senders of MCP batches beside the searches (0: searches only).
    mcp: { type: 'string', default: '3' },
    // The servers' RATE_LIMIT_MAX (per 10 s); 0 takes the limit off, so that only the fair
    // share bounds A (a stress beyond what the service lets a workspace do).
    'rate-limit': { type: 'string', default: '100' },
  },
});
const people = countArg('people', values.people);
const seconds = countArg('seconds', values.seconds);
const RATE_LIMIT =
  values['rate-limit'] === '0'
    ? '0'
    : String(countArg('rate-limit', values['rate-limit'] ?? '100'));

const SEARCH = {
  filterGroupList: [
    { filters: [contains('이메일', 'a'), notContains('이름', 'zz')] },
    { filters: [contains('이메일', 'e'), notContains('이름', 'qq')] },
    { filters: [contains('이메일', 'o'), notContains('이름', 'xx')] },
  ],
  sortList: [{ fieldName: '이메일' }],
  limit: 50,
};
const MCP_BATCH = JSON.stringify(
  Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })),
);
/** A's searches in flight: what its fair share runs and queues (2 + 8). */
const SEARCHERS = 10;
const MCP_SENDERS = values.mcp === '0' ? 0 : countArg('mcp', values.mcp ?? '3');
/** B's requests a second, of each of its two reads. */
const B_RATE = 4;

function contains(fieldName: string, value: string) {
  return { fieldName, operator: 'CONTAINS', value };
}
function notContains(fieldName: string, value: string) {
  return { fieldName, operator: 'NOT_CONTAINS', value };
}

interface Server {
  child: ChildProcess;
  url: string;
}

/** `salescrm serve` on the database, in a process of its own. */
async function serve(databaseUrl: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'],
    {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        WEBHOOK_DISPATCH: '0',
        RATE_LIMIT_MAX: RATE_LIMIT,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /salescrm is listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

/** Statuses counted, and B's latencies. */
interface Tally {
  statuses: Map<number, number>;
  ms: number[];
}

function tally(): Tally {
  return { statuses: new Map(), ms: [] };
}

function count(t: Tally, status: number): void {
  t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
}

async function send(
  url: string,
  token: string,
  init: { method?: string; body?: string; accept?: string } = {},
): Promise<number> {
  try {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.accept ? { accept: init.accept } : {}),
      },
      ...(init.body ? { body: init.body } : {}),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** B's two reads, each at `B_RATE` a second on a fixed schedule, for `ms`. */
async function readsOfB(server: Server, token: string, ms: number): Promise<Tally> {
  const t = tally();
  const paths = ['/v2/people?limit=50', '/v2/user/me'];
  const sent: Promise<void>[] = [];
  const start = performance.now();
  for (let tick = 0; ; tick++) {
    const at = start + (tick * 1000) / B_RATE;
    if (at - start >= ms) break;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (const path of paths) {
      const began = performance.now();
      sent.push(
        send(`${server.url}${path}`, token).then((status) => {
          t.ms.push(performance.now() - began);
          count(t, status);
        }),
      );
    }
  }
  await Promise.all(sent);
  return t;
}

/** A's load until `stopped()`: searches kept in flight, and MCP batches. */
function loadOfA(server: Server, token: string, stopped: () => boolean) {
  const searches = tally();
  const mcp = tally();
  const loop = async (t: Tally, request: () => Promise<number>) => {
    while (!stopped()) {
      const status = await request();
      count(t, status);
      // A refused call waits as `Retry-After` (1 s) says, as a client of the API would.
      if (status === 429 || status === 503) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const body = JSON.stringify(SEARCH);
  const running = [
    ...Array.from({ length: SEARCHERS }, () =>
      loop(searches, () =>
        send(`${server.url}/v2/object/people/search`, token, { method: 'POST', body }),
      ),
    ),
    ...Array.from({ length: MCP_SENDERS }, () =>
      loop(mcp, () =>
        send(`${server.url}/mcp`, token, {
          method: 'POST',
          body: MCP_BATCH,
          accept: 'application/json, text/event-stream',
        }),
      ),
    ),
  ];
  return { searches, mcp, done: Promise.all(running) };
}

function statuses(t: Tally): string {
  return [...t.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n}×${s}`)
    .join(' ');
}

function bRow(store: string, mode: string, phase: string, t: Tally): (string | number)[] {
  return [
    store,
    mode,
    phase,
    statuses(t),
    percentile(t.ms, 50).toFixed(1),
    percentile(t.ms, 99).toFixed(1),
    Math.max(...t.ms).toFixed(1),
  ];
}

const MODES: { name: string; env: Record<string, string> }[] = [
  {
    name: 'before (searches on the loop, no fair share)',
    env: { READ_THREADS: '0', WORKSPACE_HEAVY_RUNNING: '1024', WORKSPACE_HEAVY_WAITING: '100000' },
  },
  { name: 'now (defaults)', env: {} },
];

const bRows: (string | number)[][] = [];
const aRows: (string | number)[][] = [];

async function measure(
  store: string,
  databaseUrl: string,
  afterBuild?: () => Promise<void>,
): Promise<void> {
  const built = buildDemo(databaseUrl, people);
  const b = buildDemo(databaseUrl, 20);
  await afterBuild?.();
  console.log(`${store}: A of ${people} people built in ${built.seconds.toFixed(1)} s`);
  for (const mode of MODES) {
    const server = await serve(databaseUrl, mode.env);
    try {
      // Warm: the first search reads the file into the OS's cache, B's first second its pages.
      await send(`${server.url}/v2/object/people/search`, built.token, {
        method: 'POST',
        body: JSON.stringify(SEARCH),
      });
      await readsOfB(server, b.token, 1000);
      const alone = await readsOfB(server, b.token, (seconds * 1000) / 2);
      let over = false;
      const a = loadOfA(server, built.token, () => over);
      // A's searches fill their share before B is timed.
      await new Promise((r) => setTimeout(r, 2000));
      const beside = await readsOfB(server, b.token, seconds * 1000);
      over = true;
      await a.done;
      bRows.push(
        bRow(store, mode.name, 'alone', alone),
        bRow(store, mode.name, 'beside A', beside),
      );
      aRows.push([store, mode.name, statuses(a.searches), statuses(a.mcp)]);
      console.log(`${store}, ${mode.name}: done`);
    } finally {
      await stop(server);
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-fairness-'));
try {
  if (!values['no-sqlite']) await measure('SQLite', `sqlite:${join(dir, 'fairness.db')}`);
  if (!values['no-postgres']) {
    const url =
      process.env.BENCH_DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/salescrm_bench_fairness';
    const server = new URL(url);
    const name = server.pathname.slice(1);
    server.pathname = '/postgres';
    await onPostgres(server.toString(), `drop database if exists "${name}"`);
    await onPostgres(server.toString(), `create database "${name}"`);
    // Analyzed after the bulk load, as autovacuum would soon do.
    await measure('PostgreSQL', url, () => onPostgres(url, 'vacuum (analyze)'));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nB: GET /v2/people?limit=50 and GET /v2/user/me, ${B_RATE}/s each; alone ${seconds / 2} s, beside A ${seconds} s (ms); RATE_LIMIT_MAX=${RATE_LIMIT} a 10 s window`,
);
console.log(table(['store', 'server', 'B', 'answers', 'p50', 'p99', 'max'], bRows));
console.log(
  `\nA beside B: ${SEARCHERS} searches kept in flight (a 429 or 503 waits 1 s), ${MCP_SENDERS} senders of MCP batches of 100 tools/list`,
);
console.log(table(['store', 'server', 'searches', 'MCP batches'], aRows));

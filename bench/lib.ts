import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { EVENT_TOPICS } from '../src/domain/events.ts';
import { newId } from '../src/domain/ids.ts';
import { newWebhookSecret } from '../src/domain/webhook-signature.ts';
import type { Position } from '../src/http/cursor.ts';
import { positionOf, renderListPage } from '../src/http/list-page.ts';
import { createToken } from '../src/resources/workspaces/writes.ts';
import { buildApp } from '../src/server/app.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { keysetList } from '../src/store/keyset.ts';
import { figuresOf, openLoop } from './open-loop.ts';

/** Figures of one load run. */
export interface LoadFigures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  tool: 'wrk' | 'autocannon' | 'open loop';
}

/** Runs autocannon against a URL for `seconds`, with `connections` in flight. */
export async function load(
  name: string,
  url: string,
  opts: {
    seconds?: number;
    connections?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 8,
    headers: opts.headers,
  });
  return {
    name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    tool: 'autocannon',
  };
}

/**
 * Core pinning, for benchmarks where a server and its client must not take turns on one
 * core (a sequential walk depends on where the scheduler puts the two): servers on the last
 * core, load generators and clients on the others. Off until `pinCores()`, and wherever
 * `taskset` is missing or there is one core.
 */
let pinning: { server: string; client: string } | undefined;

export function pinCores(): boolean {
  const n = cpus().length;
  if (n < 2 || spawnSync('taskset', ['--version']).error) return false;
  pinning = { server: String(n - 1), client: n === 2 ? '0' : `0-${n - 2}` };
  return true;
}

/**
 * Moves this process, every thread of it (its GC and libuv pool too), onto the clients'
 * cores, for a bench whose load generator runs in its own process; nothing when not pinning.
 */
export function pinThisProcessToClients(): void {
  if (pinning)
    spawnSync('taskset', ['-a', '-cp', pinning.client, String(process.pid)], { stdio: 'ignore' });
}

/** `command args` as run on the cores of `side` (unchanged when not pinning). */
export function onCores(
  side: 'server' | 'client',
  command: string,
  args: string[],
): [string, string[]] {
  return pinning ? ['taskset', ['-c', pinning[side], command, ...args]] : [command, args];
}

/** fork() options that start a TypeScript entry point, on the server's cores when pinning. */
function forkOptions(env: Record<string, string>) {
  // `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'` profiles the children.
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const execArgv = [...extra, '--import', 'tsx'];
  return {
    ...(pinning
      ? { execPath: 'taskset', execArgv: ['-c', pinning.server, process.execPath, ...execArgv] }
      : { execArgv }),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[],
  };
}

/** Starts a TypeScript entry point in a child process and waits for its 'ready' message. */
export async function startChild(
  entry: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = fork(entry, args, forkOptions(env));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
  return child;
}

/** Stops a child process and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export { percentile } from './percentile.ts';

/** A count given on the command line as `--name text`: a whole number from 1, or the bench stops here. */
export function countArg(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} takes a whole number from 1, not '${text}'`);
    process.exit(2);
  }
  return n;
}

/** Formats a table of rows for the terminal and for docs/benchmarks.md. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) =>
    `| ${r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(cells[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

let wrkInstalled: boolean | undefined;

/** Whether wrk is installed (asked once a process). */
export function hasWrk(): boolean {
  wrkInstalled ??= !spawnSync('wrk', ['--version']).error;
  return wrkInstalled;
}

/**
 * Runs wrk (one thread, `connections` in flight) when it is installed; undefined when not.
 * Latencies come from its `--latency` percentiles. It runs in a process of its own, on the
 * clients' cores, so this process's event loop stays free for a load it runs beside it.
 */
export function loadWithWrk(
  name: string,
  url: string,
  opts: {
    seconds?: number;
    connections?: number;
    headers?: Record<string, string>;
    /**
     * At the lowest CPU priority (`nice -n 19`), beside a generator of a fixed rate on the same
     * cores: that one then sends on time, and wrk takes what CPU it leaves.
     */
    yielding?: boolean;
  } = {},
): Promise<LoadFigures> | undefined {
  if (!hasWrk()) return undefined;
  return runWrk(name, [...wrkArgs(opts), url], {}, opts.yielding);
}

/** Runs wrk (one thread) with the Lua `script`, which reads `env`; undefined without wrk. */
export function loadWithWrkScript(
  name: string,
  url: string,
  script: string,
  env: Record<string, string>,
  opts: { seconds?: number; connections?: number } = {},
): Promise<LoadFigures> | undefined {
  if (!hasWrk()) return undefined;
  return runWrk(name, [...wrkArgs(opts), '-s', script, url], env);
}

/** wrk's arguments for one thread, `connections`, `seconds` and `headers`. */
function wrkArgs(opts: {
  seconds?: number;
  connections?: number;
  headers?: Record<string, string>;
}): string[] {
  const args = ['-t1', `-c${opts.connections ?? 10}`, `-d${opts.seconds ?? 8}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  return args;
}

/** Runs wrk with `args` on the clients' cores (`yielding`: at the lowest priority) and reads its report. */
async function runWrk(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  yielding = false,
): Promise<LoadFigures> {
  const [command, rest] = onCores('client', 'wrk', args);
  const wrk = spawn(yielding ? 'nice' : command, yielding ? ['-n', '19', command, ...rest] : rest, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  wrk.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    wrk.once('error', reject);
    wrk.once('close', resolve);
  });
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${out}`);
  return { ...parseWrk(name, out), tool: 'wrk' };
}

/**
 * Builds a demo workspace of `people` in a child process (so the caller, a load generator,
 * starts with a small heap); returns its id, token and the seconds it took.
 */
export function buildDemo(
  databaseUrl: string,
  people: number,
): { workspaceId: string; token: string; seconds: number } {
  const started = performance.now();
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--people', String(people), '--json'],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (built.status !== 0) throw new Error(`demo failed with ${built.status}`);
  const demo = JSON.parse(built.stdout.trim().split('\n').pop()!) as {
    workspaceId: string;
    token: string;
  };
  return { ...demo, seconds: (performance.now() - started) / 1000 };
}

/** Rows in every table of a store: the size of what the bench built. */
export async function countRecords(databaseUrl: string): Promise<number> {
  const store = openStore(databaseUrl);
  let total = 0;
  for (const table of [
    'people',
    'organizations',
    'deals',
    'leads',
    'products',
    'quotes',
    'quote_products',
    'notes',
    'todos',
    'web_form_submissions',
    'sequence_enrollments',
    'activities',
    'history',
  ] as const) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  await store.close();
  return total;
}

/** A sequential cursor walk of /v2/people run by wrk with bench/walk.lua; undefined without wrk. */
export function walkWithWrk(
  base: string,
  headers: Record<string, string>,
  seconds: number,
): { records: number; seconds: number } | undefined {
  if (!hasWrk()) return undefined;
  const args = ['-t1', '-c1', `-d${seconds}s`, '-s', 'bench/walk.lua'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const out = spawnSync(...onCores('client', 'wrk', [...args, base]), { encoding: 'utf8' }).stdout;
  const m = /walk: records=(\d+) walks=(\d+) seconds=([\d.]+)/.exec(out);
  return m ? { records: Number(m[1]), seconds: Number(m[3]) } : undefined;
}

/**
 * Walks every person of the store's first workspace through the list code the server
 * runs (keyset page, splice, cursor), in this process with no HTTP: what the store and
 * rendering path alone can do.
 */
export async function walkInProcess(
  databaseUrl: string,
): Promise<{ records: number; seconds: number }> {
  const store = openStore(databaseUrl);
  const { id, cursor_secret } = await store.db
    .selectFrom('workspaces')
    .select(['id', 'cursor_secret'])
    .executeTakeFirstOrThrow();
  const list = keysetList(store, 'people', 'created_at');
  const page = {
    listKey: 'peopleList',
    cursorKeys: ['nextCursor'],
    scope: '/v2/people',
    fetch: (after: Position | undefined, limit: number) => list(id, {}, after, limit),
  };
  let records = 0;
  let cursor: string | undefined;
  const started = performance.now();
  do {
    const after = cursor === undefined ? undefined : positionOf(page, cursor_secret, cursor);
    const { bytes } = await renderListPage(page, cursor_secret, after, 100);
    records += countOccurrences(bytes, PER_PERSON);
    cursor = /"nextCursor":"([^"]+)"\}\}$/.exec(bytes.subarray(-400).toString())?.[1];
  } while (cursor);
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return { records, seconds };
}

const PER_PERSON = Buffer.from('"organizationId":');

/** Occurrences of `needle` in `haystack`, without decoding it. */
export function countOccurrences(haystack: Buffer, needle: Buffer = PER_PERSON): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length))
    n += 1;
  return n;
}

/**
 * Load at a fixed rate: wrk with bench/rate.lua (every request on one schedule of `rate`
 * per second, see there) when wrk is installed, else `openLoop` (the same schedule, in
 * JavaScript). Both measure latency from the actual send (no coordinated-omission correction).
 */
export async function loadAtRate(
  name: string,
  url: string,
  rate: number,
  opts: { seconds?: number; connections?: number; headers?: Record<string, string> } = {},
): Promise<LoadFigures> {
  if (!hasWrk()) {
    const target = new URL(url);
    const seconds = opts.seconds ?? 8;
    const run = await openLoop(target.origin, {
      rate,
      seconds,
      connections: opts.connections ?? 10,
      request: () => ({
        method: 'GET',
        path: target.pathname + target.search,
        headers: opts.headers ?? {},
      }),
    });
    const figures = figuresOf(name, run, rate, (status) => status < 300);
    return {
      name,
      reqPerSec: figures.reqPerSec,
      p50: figures.p50,
      p99: figures.p99,
      errors: figures.bad,
      tool: 'open loop',
    };
  }
  return runWrk(name, [...wrkArgs(opts), '-s', 'bench/rate.lua', url], { RATE: String(rate) });
}

function parseWrk(name: string, out: string): LoadFigures {
  const ms = (label: string) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return Number.NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  const errors =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    (socketErrors ? socketErrors.slice(1).reduce((n, s) => n + Number(s), 0) : 0);
  return {
    name,
    reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50: ms('50%'),
    p99: ms('99%'),
    errors,
    tool: 'wrk',
  };
}

/** A process's CPU so far from its `/proc/PID/stat` text: user and system, in ms (10 ms ticks). */
function cpuOfStat(stat: string): { ms: number; systemMs: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const systemMs = Number(fields[12]) * 10;
  return { ms: Number(fields[11]) * 10 + systemMs, systemMs };
}

/**
 * CPU milliseconds a process has used so far (`ms`, user and system), and of it in the
 * kernel (`systemMs`), from /proc.
 */
export function cpuOf(pid: number): { ms: number; systemMs: number } {
  return cpuOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** Each core's busy and total time so far (/proc/stat ticks), in core order. */
export type CoreTimes = { busy: number; all: number }[];

export function coreTimes(): CoreTimes {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const ticks = line.trim().split(/\s+/).slice(1).map(Number);
      // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
      const all = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
      return { busy: all - ticks[3]! - ticks[4]!, all };
    });
}

/**
 * How busy the server's core and the others were between two readings (0 to 1): the one a
 * rate's limit, when it is full. Without pinning, the last core and the rest.
 */
export function coresBusy(before: CoreTimes, after: CoreTimes): { server: number; others: number } {
  const share = (cores: number[]) => {
    let busy = 0;
    let all = 0;
    for (const i of cores) {
      busy += after[i]!.busy - before[i]!.busy;
      all += after[i]!.all - before[i]!.all;
    }
    return all > 0 ? busy / all : 0;
  };
  const last = after.length - 1;
  return { server: share([last]), others: share([...after.keys()].filter((i) => i !== last)) };
}

/** CPU milliseconds a process has used so far (user and system), from /proc (10 ms ticks). */
export function cpuMsOf(pid: number): number {
  return cpuOf(pid).ms;
}

/**
 * CPU ms of every process named `command` now running (the backends of a local PostgreSQL,
 * say), from /proc: what a server's database did for it, where the database is on this
 * machine. Processes that have ended are not counted.
 */
export function cpuMsOfCommand(command: string): number {
  let ms = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command) continue;
      ms += cpuOfStat(stat).ms;
    } catch {
      // Ended meanwhile.
    }
  }
  return ms;
}

/** Memory of a process from /proc: peak and current resident set, and its anonymous part. */
export function memoryOf(pid: number): { peakMB: number; rssMB: number; anonMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return {
    peakMB: Math.round(kb('VmHWM') / 1024),
    rssMB: Math.round(kb('VmRSS') / 1024),
    anonMB: Math.round(kb('RssAnon') / 1024),
  };
}

/**
 * Caps a process at `share` of one core (Linux cgroup v1 `cpu` controller, as root), so
 * that a load generator on a core of its own can offer a multiple of what the capped server
 * can do; returns the undo, or undefined (and says why) where the machine cannot.
 */
export function capCpu(pid: number, share: number): (() => void) | undefined {
  const root = '/sys/fs/cgroup/cpu';
  const group = join(root, `salescrm-bench-${pid}`);
  try {
    mkdirSync(group);
    // A short period (5 ms): with the default 100 ms, a capped process runs its share and then
    // stands still for the rest of each period, which its event loop sees as a delay of tens
    // of milliseconds that a slower CPU would not cause.
    const period = 5_000;
    writeFileSync(join(group, 'cpu.cfs_period_us'), String(period));
    writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(period * share)));
    writeFileSync(join(group, 'cgroup.procs'), String(pid));
  } catch (e) {
    console.warn(`cannot cap the server's CPU (${(e as Error).message}): running uncapped`);
    return undefined;
  }
  return () => {
    try {
      writeFileSync(join(root, 'cgroup.procs'), String(pid));
    } catch {
      // The process has exited: the group is empty already.
    }
    rmdirSync(group);
  };
}

/** Starts a child like `startChild` and returns the message it sent when ready, too. */
export async function startChildWithMessage(
  entry: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; message: unknown }> {
  const child = fork(entry, args, forkOptions(env));
  const message = await new Promise<unknown>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) =>
      reject(new Error(`${entry} exited with ${code ?? signal}`)),
    );
  });
  return { child, message };
}

/** Writes every person's stored API JSON of the store's first workspace, one a line. */
export async function writePeopleNdjson(databaseUrl: string, file: string): Promise<number> {
  const store = openStore(databaseUrl);
  const out = createWriteStream(file);
  let after = '';
  let n = 0;
  for (;;) {
    const rows = await store.db
      .selectFrom('people')
      .select(['id', 'body'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(10_000)
      .execute();
    if (rows.length === 0) break;
    const chunk = rows.map((r) => Buffer.from(r.body!).toString()).join('\n');
    if (!out.write(`${chunk}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    n += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error) => (e ? reject(e) : resolve())));
  await store.close();
  return n;
}

/**
 * The id and a new token of the store's first workspace (its admin's), for a bench run
 * on a database built earlier (`--db`).
 */
export async function tokenOfExistingDemo(
  databaseUrl: string,
): Promise<{ workspaceId: string; token: string }> {
  const store = openStore(databaseUrl);
  await store.migrate();
  const ws = await store.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
  const admin = await store.db
    .selectFrom('users')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  const { token } = await createToken(store, ws.id, admin.id, 'bench');
  await store.close();
  return { workspaceId: ws.id, token };
}

/** People in the store (the bench's database holds one workspace). */
export async function countPeople(databaseUrl: string): Promise<number> {
  const store = openStore(databaseUrl);
  const row = await store.db
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await store.close();
  return Number(row.n);
}

/**
 * The API over `store` in this process, for `app.inject`: no rate limit, no page cache (every
 * call reads the store), no logs.
 */
export async function inProcessApp(
  store: Store,
  more: { requestTimeoutMs?: number } = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    store,
    config: {
      ...more,
      basePath: '',
      rateLimitMax: 0,
      rateLimitWindowMs: 10_000,
      pageCacheBytes: 0,
      logLevel: 'silent',
      logRequests: false,
      webhookAllowPrivate: false,
    },
  });
  await app.ready();
  return app;
}

/** Runs one statement on the PostgreSQL database `url` names, on a connection of its own. */
export async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The row of an active webhook of a workspace that wants every event of its people, POSTed
 * to `url`: how the webhook benches register theirs (no API request, no verification POST).
 */
export function peopleWebhookRow(workspaceId: string, url: string, now: string) {
  return {
    workspace_id: workspaceId,
    id: newId(),
    url,
    object_types: JSON.stringify(['people']),
    events: JSON.stringify(EVENT_TOPICS),
    fields: null,
    status: 'active' as const,
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_until: null,
    failure_streak: 0,
    created_at: now,
    updated_at: now,
  };
}

// `npm run bench:tenants [-- --workspaces 10,1000,10000] [--people 20] [--seconds 8]
// [--stores sqlite,postgres] [--webhooks 100] [--repeat 2] [--before DIR] [--reuse]
// [--only writes|webhooks] [--control]`: one server, many
// workspaces. For each N, a database of N demo workspaces of `people` each
// (`salescrm demo --workspaces N --json`, which also gives their tokens), and a real
// `salescrm serve` on it (RATE_LIMIT_MAX=0, OVERLOAD_DELAY_MS=0; pinned to the last core, wrk on the other):
//   - GET /v2/people with one token, then round robin over the N workspaces' tokens (after a
//     warm-up that asks for each workspace's page twice), alternated `repeat` times, the best
//     of each counting, and their ratio; the server's RSS;
//   - POST /v2/people (a person created) round robin over the N tokens, `repeat` times, the
//     best counting: creates/s and p99, and the server's RSS after them,
//     after a person created in every workspace (whose first write reads its catalog: that
//     first create's CPU is a figure of its own).
// Beside each rate, the server's CPU a request (from /proc, µs): the machine is shared, and
// a rate follows the CPU share the server gets, its CPU a request much less. In the webhook
// part, also the share of it spent in the kernel (the sockets; on loopback the kernel's
// work for the receiving end is done in the sender's system call too).
// Then, on the largest N (with 200 workspaces or more), a webhook in each of the first
// `webhooks` workspaces (receivers in this process, the server's dispatcher on): creates
// over those workspaces' tokens against creates over as many others', and the time from
// each write to its delivery's receipt (from the event's `occurredAt`, set when the write
// began: the commit-to-receipt time and a little more); each set of workspaces warmed up
// alike, and the before and after servers alternated `repeat` times, each run shown. Beside
// them, how busy the server's core and the others were (the one near 1.00 limits the rate).
// `BENCH_SLICE_LOG=FILE` appends that part's slices to FILE, on the clock of the server's
// CPU profile (`BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR'`), for
// `bench/profile-slices.ts` to split the profile by: the server's time a create, with and without.
// `--control` runs that part with no webhook in either set of workspaces: the ratio's spread
// about 1 is the measure's own noise on this machine, the margin a figure needs over a target.
// With `--before DIR` (a checkout of the code before, its node_modules beside it), every
// figure is measured with that code's server too, on the same databases, in the same run;
// the databases are built by this code (migration 026 is forgotten for an old server without it).
// `--only writes` measures the creates alone (no reads, no webhooks), every N's server up at
// once and their creates taking turns in slices (`measureWritesSideBySide`), with each N's
// rate against the first N's; `--only webhooks` runs the webhook part alone (on the largest N).
// `--reuse` keeps the databases built (under the temp dir, and PostgreSQL databases named
// salescrm_bench_tenants_*) and uses them again; BENCH_TENANTS_TAG=x ends their names with x
// (two runs at once on one machine). PostgreSQL: BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/database.ts';
import { schemaMigrations } from '../src/store/migrate.ts';
import {
  coresBusy,
  coreTimes,
  countArg,
  cpuMsOf,
  cpuMsOfCommand,
  cpuOf,
  hasWrk,
  type LoadFigures,
  loadWithWrk,
  loadWithWrkScript,
  memoryOf,
  onCores,
  onPostgres,
  peopleWebhookRow,
  percentile,
  pinCores,
  table,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    workspaces: { type: 'string', default: '10,1000,10000' },
    people: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    webhooks: { type: 'string', default: '100' },
    repeat: { type: 'string', default: '2' },
    before: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    only: { type: 'string' },
    dispatch: { type: 'string', default: 'serve,process' },
    control: { type: 'boolean', default: false },
  },
});
if (values.only !== undefined && values.only !== 'writes' && values.only !== 'webhooks') {
  console.error(
    '--only takes writes (the creates alone, no reads, no webhooks) or webhooks (the webhook part alone, on the largest N)',
  );
  process.exit(2);
}
const writesOnly = values.only === 'writes';
const onlyWebhooks = values.only === 'webhooks';
const sizes = values.workspaces.split(',').map((n) => countArg('workspaces', n));
const people = countArg('people', values.people);
const seconds = countArg('seconds', values.seconds);
const connections = countArg('connections', values.connections);
const stores = values.stores.split(',') as ('sqlite' | 'postgres')[];
const hooked = values.webhooks === '0' || writesOnly ? 0 : countArg('webhooks', values.webhooks);
const repeat = countArg('repeat', values.repeat);
/** The webhook part with no webhook at all: both sets of workspaces alike (its noise). */
const control = values.control;
/** Where the webhook phase's dispatcher runs: in `serve`, or a `salescrm dispatch` of its own. */
const placements = values.dispatch.split(',') as Placement[];
type Placement = 'serve' | 'process';
if (placements.some((p) => p !== 'serve' && p !== 'process')) {
  console.error('--dispatch takes serve, process or both (serve,process)');
  process.exit(2);
}
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const HERE = resolve('.');
const variants: { name: string; dir: string }[] = [
  ...(values.before ? [{ name: 'before', dir: resolve(values.before) }] : []),
  { name: 'after', dir: HERE },
];
const DIR = join(tmpdir(), 'salescrm-bench-tenants');
mkdirSync(DIR, { recursive: true });
const SCRIPT = join(HERE, 'bench/tenants.lua');
const personBody = JSON.stringify({ name: '벤치 고객' });
/** `bench/tenants.lua`'s settings for the creates: a person a request. */
const CREATES = { TARGET: '/v2/people', METHOD: 'POST', BODY: personBody };

if (!hasWrk()) {
  console.error('bench:tenants needs wrk (apt-get install -y wrk)');
  process.exit(2);
}
const pinned = pinCores();
const load = () => loadavg()[0]!.toFixed(1);

/** A database of `n` demo workspaces, and the file of their tokens (one a line). */
interface Built {
  url: string;
  tokens: string;
  count: number;
}

async function build(store: 'sqlite' | 'postgres', n: number): Promise<Built> {
  const name = `salescrm_bench_tenants_${n}x${people}${process.env.BENCH_TENANTS_TAG ?? ''}`;
  const url =
    store === 'sqlite'
      ? `sqlite:${join(DIR, `${name}.sqlite`)}`
      : ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const tokens = join(DIR, `${name}.${store}.tokens`);
  if (values.reuse && existsSync(tokens)) return { url, tokens, count: n };
  if (store === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm'])
      spawnSync('rm', ['-f', `${url.slice('sqlite:'.length)}${suffix}`]);
  }
  const started = performance.now();
  if (store === 'postgres') {
    await onPostgres(ADMIN_URL, `drop database if exists ${name}`);
    await onPostgres(ADMIN_URL, `create database ${name}`);
  }
  {
    const out = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'demo',
        '--workspaces',
        String(n),
        '--people',
        String(people),
        '--json',
      ],
      {
        env: { ...process.env, DATABASE_URL: url },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    if (out.status !== 0) throw new Error(`demo --workspaces ${n} failed with ${out.status}`);
    const lines = out.stdout.trim().split('\n');
    writeFileSync(
      tokens,
      `${lines.map((l) => (JSON.parse(l) as { token: string }).token).join('\n')}\n`,
    );
    console.log(
      `${store}: ${n.toLocaleString('en')} workspaces of ${people} people built in ${((performance.now() - started) / 1000).toFixed(0)} s (load ${load()})`,
    );
    return { url, tokens, count: n };
  }
}

/**
 * Makes the database look as the code before left it, when that code lacks migrations this
 * code ran (an old server refuses a database with migrations it does not know): each undone,
 * the newest first, and forgotten. The server of this code runs them again when it starts.
 */
async function forgetNewerMigrations(
  store: 'sqlite' | 'postgres',
  url: string,
  dir: string,
): Promise<void> {
  const newer = Object.entries(schemaMigrations(store))
    .reverse()
    .map(([name, migration]) => ({ name, down: migration.down! }));
  for (const { name, down } of newer) {
    if (existsSync(join(dir, `src/store/migrations/${name}.ts`))) continue;
    const s = openStore(url);
    try {
      const ran = await s.db
        .deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', name as never)
        .executeTakeFirst();
      if (Number(ran.numDeletedRows) > 0) await down(s.db as never);
    } finally {
      await s.close();
    }
  }
}

interface Server {
  child: ChildProcess;
  url: string;
}

async function serve(
  dir: string,
  databaseUrl: string,
  env: Record<string, string>,
  side: 'server' | 'client' = 'server',
  command: 'serve' | 'dispatch' = 'serve',
): Promise<Server> {
  // `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'` profiles the servers.
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const [program, args] = onCores(side, process.execPath, [
    ...extra,
    '--import',
    'tsx',
    'src/cli/main.ts',
    command,
    ...(command === 'serve' ? ['--port', '0'] : []),
  ]);
  const child = spawn(program, args, {
    cwd: dir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      // No shedding: a 503 when the shared machine stalls the event loop is not the figure.
      OVERLOAD_DELAY_MS: '0',
      WEBHOOK_DISPATCH: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /salescrm is listening on (\S+)/.exec(out);
      if (m) resolveUrl(m[1]!);
      if (command === 'dispatch' && out.includes('salescrm is dispatching webhooks'))
        resolveUrl('');
      if (out.length > 100_000) out = out.slice(-1_000);
    });
    child.once('exit', (code) =>
      reject(new Error(`serve exited with ${code}: ${out.slice(-2000)}`)),
    );
  });
  child.stdout!.resume();
  return { child, url };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

function overTokens(
  name: string,
  server: Server,
  tokens: string,
  env: Record<string, string>,
  secs = seconds,
): Promise<LoadFigures> {
  return loadWithWrkScript(
    name,
    `${server.url}/`,
    SCRIPT,
    { TOKENS_FILE: tokens, ...env },
    {
      seconds: secs,
      connections,
    },
  )!;
}

/** A file of the first workspace's token alone. */
function firstTokenFile(built: Built): string {
  return tokenSubset(built, 0, 1);
}

/**
 * Asks for each workspace's page `rounds` times (or creates a person in each, `create`),
 * round robin, `connections` at a time.
 */
async function warmUp(
  server: Server,
  tokensFile: string,
  rounds: number,
  create = false,
): Promise<void> {
  const tokens = readFileSync(tokensFile, 'utf8').trim().split('\n');
  const total = rounds * tokens.length;
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) {
        const token = tokens[next++ % tokens.length];
        const res = await fetch(`${server.url}/v2/people`, {
          headers: {
            authorization: `Bearer ${token}`,
            ...(create ? { 'content-type': 'application/json' } : {}),
          },
          ...(create ? { method: 'POST', body: personBody } : {}),
        });
        await res.arrayBuffer();
      }
    }),
  );
}

/**
 * A file of `count` of the workspaces' tokens (in the order the workspaces were made), the
 * `from`th and every `step`th after it.
 */
function tokenSubset(built: Built, from: number, count: number, step = 1): string {
  const all = readFileSync(built.tokens, 'utf8').trim().split('\n');
  const file = `${built.tokens}.${from}-step-${step}-count-${count}`;
  const picked = all.filter((_, i) => i >= from && (i - from) % step === 0).slice(0, count);
  writeFileSync(file, `${picked.join('\n')}\n`);
  return file;
}

/** A load run with the server's CPU per answered request (µs): what the machine's other
 * work (it is shared) changes least, as the server's CPU is its own whatever its share. */
interface Run {
  figures: LoadFigures;
  cpuUs: number;
}

/** The fastest of some runs, with the least CPU a request of them. */
function best(runs: Run[]): Run {
  const fastest = runs.reduce((a, b) => (b.figures.reqPerSec > a.figures.reqPerSec ? b : a));
  return { figures: fastest.figures, cpuUs: Math.min(...runs.map((r) => r.cpuUs)) };
}

async function timed(server: Server, run: () => Promise<LoadFigures>): Promise<Run> {
  const before = cpuMsOf(server.child.pid!);
  const figures = await run();
  const used = cpuMsOf(server.child.pid!) - before;
  return { figures, cpuUs: (used * 1000) / Math.max(1, figures.reqPerSec * seconds) };
}

/** One row of figures: a store, a size, a variant. */
interface Figures {
  store: string;
  n: number;
  variant: string;
  oneToken: number;
  overTokens: number;
  /** Server CPU µs a request. */
  oneTokenCpu: number;
  overTokensCpu: number;
  rssMB: number;
  /** After the creates: every workspace written in, so every catalog read. */
  rssAfterCreatesMB: number;
  creates: LoadFigures;
  createsCpu: number;
  /** Server CPU µs of a workspace's first create (its catalog read); 0 when none was measured. */
  firstCreateCpu: number;
  load: string;
}

/** Creates that warm a server's code up before its creates are measured, at least. */
const WARM_UP_CREATES = 2_000;

/**
 * Creates warming the server up for the creates measured: `WARM_UP_CREATES` over the first 100
 * workspaces (five in each at least: the server's code compiled alike whatever N), then one
 * in every other, as every page is asked for before the reads: a workspace's first write
 * reads its catalog (docs/benchmarks.md), once. Returns the server's CPU µs of such a first
 * create (0 when there are no others).
 */
async function firstCreates(server: Server, built: Built): Promise<number> {
  const warmed = Math.min(built.count, 100);
  await warmUp(
    server,
    tokenSubset(built, 0, warmed),
    Math.max(5, Math.ceil(WARM_UP_CREATES / warmed)),
    true,
  );
  if (built.count <= warmed) return 0;
  const cpuBefore = cpuMsOf(server.child.pid!);
  await warmUp(server, tokenSubset(built, warmed, built.count - warmed), 1, true);
  return ((cpuMsOf(server.child.pid!) - cpuBefore) * 1000) / (built.count - warmed);
}

async function measure(
  store: 'sqlite' | 'postgres',
  built: Built,
  variant: { name: string; dir: string },
): Promise<Figures> {
  const server = await serve(variant.dir, built.url, {});
  try {
    const [firstToken] = readFileSync(built.tokens, 'utf8').split('\n');
    const one = () =>
      loadWithWrk('one token', `${server.url}/v2/people`, {
        seconds,
        connections,
        headers: { authorization: `Bearer ${firstToken}` },
      })!;
    // Counted, not timed: on a busy machine a few seconds may be a few hundred requests, and
    // the first requests of each route compile its code.
    await warmUp(server, firstTokenFile(built), writesOnly ? 0 : 3_000);
    // Every workspace's page asked for twice first: a cache admits a page on its second ask.
    await warmUp(server, built.tokens, writesOnly ? 0 : 2);
    // Alternated `repeat` times, the best of each counting: other work on the shared machine
    // only ever slows a run down.
    const singles: Run[] = [];
    const spreads: Run[] = [];
    for (let i = 0; i < (writesOnly ? 0 : repeat); i++) {
      singles.push(await timed(server, one));
      spreads.push(
        await timed(server, () =>
          overTokens('over tokens', server, built.tokens, { TARGET: '/v2/people' }),
        ),
      );
    }
    const none: Run = {
      figures: { name: 'none', reqPerSec: 0, p50: 0, p99: 0, errors: 0, tool: 'wrk' },
      cpuUs: 0,
    };
    const single = writesOnly ? none : best(singles);
    const spread = writesOnly ? none : best(spreads);
    const rssMB = memoryOf(server.child.pid!).rssMB;
    const firstCreateCpu = await firstCreates(server, built);
    // `repeat` times too, the best counting.
    const createRuns: Run[] = [];
    for (let i = 0; i < repeat; i++) {
      createRuns.push(
        await timed(server, () => overTokens('creates', server, built.tokens, CREATES)),
      );
    }
    const creates = best(createRuns);
    const rssAfterCreatesMB = memoryOf(server.child.pid!).rssMB;
    const figures: Figures = {
      store,
      n: built.count,
      variant: variant.name,
      oneToken: single.figures.reqPerSec,
      overTokens: spread.figures.reqPerSec,
      oneTokenCpu: single.cpuUs,
      overTokensCpu: spread.cpuUs,
      rssMB,
      rssAfterCreatesMB,
      creates: creates.figures,
      createsCpu: creates.cpuUs,
      firstCreateCpu,
      load: load(),
    };
    console.log(
      `${store} N=${built.count} ${variant.name}: one token ${Math.round(figures.oneToken)}/s ${Math.round(figures.oneTokenCpu)} µs CPU, over tokens ${Math.round(figures.overTokens)}/s ${Math.round(figures.overTokensCpu)} µs CPU (${(figures.overTokens / figures.oneToken).toFixed(2)}; by CPU ${(figures.oneTokenCpu / figures.overTokensCpu).toFixed(2)}), RSS ${rssMB} MB, creates ${Math.round(figures.creates.reqPerSec)}/s ${Math.round(figures.createsCpu)} µs CPU p99 ${figures.creates.p99.toFixed(0)} ms, RSS after ${rssAfterCreatesMB} MB, a workspace's first create ${Math.round(firstCreateCpu)} µs CPU (errors ${spread.figures.errors + figures.creates.errors}), load ${figures.load}`,
    );
    return figures;
  } finally {
    await stop(server);
  }
}

/** Receivers of the webhook phase: one server, a path a webhook; write-to-receipt times. */
async function receivers() {
  const ms: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { occurredAt: string };
        ms.push(at - Date.parse(body.occurredAt));
      } catch {}
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    ms,
    url: (i: number) => `http://127.0.0.1:${port}/hook/${i}`,
    close: () => server.close(),
  };
}

interface HookFigures {
  store: string;
  variant: string;
  placement: Placement;
  without: LoadFigures;
  with: LoadFigures;
  /** Server CPU µs a create (with its delivery, where there is one). */
  cpuWithout: number;
  cpuWith: number;
  /** Of which in the kernel (the sockets' writes and reads; on loopback, the receivers' side too). */
  systemCpuWithout: number;
  systemCpuWith: number;
  /** PostgreSQL's CPU µs a create (0 on SQLite, whose work is the server's). */
  dbCpuWithout: number;
  dbCpuWith: number;
  /** The receivers' CPU µs a delivery (this process, on the clients' core). */
  receiverCpu: number;
  receiptP50: number;
  receiptP99: number;
  received: number;
  /** How busy the server's core and the others were (0 to 1), over each kind of slice. */
  coresWithout: Busy;
  coresWith: Busy;
  load: string;
  /** Which of the `repeat` runs. */
  run?: number;
}

/**
 * A slice of the webhook phase on the clock of the server's CPU profile (µs, the monotonic
 * clock V8's profiles are stamped with on Linux), and the creates it made: what
 * `bench/profile-slices.ts` splits a profile by (`BENCH_SLICE_LOG`).
 */
interface SliceSpan {
  kind: 'without' | 'with';
  fromUs: number;
  toUs: number;
  creates: number;
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

type Busy = { server: number; others: number };

/** The mean of how busy the cores were over slices. */
function meanBusy(slices: readonly Busy[]): Busy {
  const n = Math.max(1, slices.length);
  return {
    server: slices.reduce((sum, b) => sum + b.server, 0) / n,
    others: slices.reduce((sum, b) => sum + b.others, 0) / n,
  };
}

function busyText(busy: Busy): string {
  return `${busy.server.toFixed(2)}/${busy.others.toFixed(2)}`;
}

/** Slices of each kind the webhook phase alternates (`seconds` in all for each kind, about). */
const SLICES = 4;

/** Waits until `ms` holds `count` receipts, 30 s at most (deliveries still on their way). */
async function received(ms: readonly number[], count: number): Promise<void> {
  const until = Date.now() + 30_000;
  while (ms.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

/** Slices of one load as one: their mean rate, their worst latencies, their errors. */
function combined(slices: readonly LoadFigures[]): LoadFigures {
  return {
    ...slices[0]!,
    reqPerSec: slices.reduce((sum, f) => sum + f.reqPerSec, 0) / slices.length,
    p50: Math.max(...slices.map((f) => f.p50)),
    p99: Math.max(...slices.map((f) => f.p99)),
    errors: slices.reduce((sum, f) => sum + f.errors, 0),
  };
}

/**
 * `--only writes`: the creates of every N side by side, a server on each database (all on the
 * server's core, one loaded at a time), in slices of `seconds / SLICES` that take turns,
 * `repeat × SLICES` each, the first N of each round moving on by one. Every N meets the shared
 * machine and the databases' growth alike, so their ratio is the code's and not the order's:
 * measured one N after the other, whichever ran second was the slower on PostgreSQL.
 */
async function measureWritesSideBySide(
  store: 'sqlite' | 'postgres',
  builts: readonly Built[],
  variant: { name: string; dir: string },
): Promise<Figures[]> {
  const servers: Server[] = [];
  try {
    for (const built of builts) servers.push(await serve(variant.dir, built.url, {}));
    const firstCreateCpu: number[] = [];
    for (const [i, built] of builts.entries())
      firstCreateCpu.push(await firstCreates(servers[i]!, built));
    const slice = Math.max(1, Math.round(seconds / SLICES));
    const slices: LoadFigures[][] = builts.map(() => []);
    const cpuMs = builts.map(() => 0);
    for (let round = 0; round < repeat * SLICES; round++) {
      for (let k = 0; k < builts.length; k++) {
        const i = (round + k) % builts.length;
        const pid = servers[i]!.child.pid!;
        const before = cpuMsOf(pid);
        slices[i]!.push(
          await overTokens('creates', servers[i]!, builts[i]!.tokens, CREATES, slice),
        );
        cpuMs[i]! += cpuMsOf(pid) - before;
      }
    }
    return builts.map((built, i) => {
      const creates = combined(slices[i]!);
      const createsCpu =
        (cpuMs[i]! * 1000) / Math.max(1, creates.reqPerSec * slice * slices[i]!.length);
      const figures: Figures = {
        store,
        n: built.count,
        variant: variant.name,
        oneToken: 0,
        overTokens: 0,
        oneTokenCpu: 0,
        overTokensCpu: 0,
        rssMB: 0,
        rssAfterCreatesMB: memoryOf(servers[i]!.child.pid!).rssMB,
        creates,
        createsCpu,
        firstCreateCpu: firstCreateCpu[i]!,
        load: load(),
      };
      console.log(
        `${store} N=${built.count} ${variant.name}, creates side by side: ${Math.round(creates.reqPerSec)}/s ${Math.round(createsCpu)} µs CPU p99 ${creates.p99.toFixed(0)} ms (errors ${creates.errors}), load ${figures.load}`,
      );
      return figures;
    });
  } finally {
    for (const server of servers) await stop(server);
  }
}

async function webhookPhase(
  store: 'sqlite' | 'postgres',
  built: Built,
  variant: { name: string; dir: string },
  placement: Placement,
): Promise<HookFigures> {
  const hooks = await receivers();
  const s = openStore(built.url);
  const ids = (
    await s.db.selectFrom('workspaces').select('id').orderBy('created_at').orderBy('id').execute()
  ).map((r) => r.id);
  // The tokens file lists the workspaces in the order they were made: created_at, then id.
  const now = new Date().toISOString();
  await s.db.deleteFrom('webhooks').execute();
  if (!control)
    await s.db
      .insertInto('webhooks')
      .values(
        ids
          .filter((_, i) => i % 2 === 0)
          .slice(0, hooked)
          .map((workspaceId, i) => peopleWebhookRow(workspaceId, hooks.url(i), now)),
      )
      .execute();
  await s.close();
  const server = await serve(variant.dir, built.url, {
    WEBHOOK_DISPATCH: placement === 'serve' ? '1' : '0',
    WEBHOOK_ALLOW_PRIVATE: '1',
  });
  // A dispatcher of its own: on the clients' cores (the server's is the server's alone), as
  // an operator runs `salescrm dispatch` beside `serve` on another core or machine.
  const dispatcher =
    placement === 'process'
      ? await serve(
          variant.dir,
          built.url,
          // Polling every 50 ms: on SQLite it hears of no write (on PostgreSQL it hears where
          // deliveries fall due as well; `serve` wakes its own dispatcher).
          { WEBHOOK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'info', WEBHOOK_POLL_MS: '50' },
          'client',
          'dispatch',
        ).catch(async (error) => {
          await stop(server);
          throw error;
        })
      : undefined;
  try {
    // The workspaces with a webhook and those without taken turn about in the order they
    // were made (`--control` found the first made cheaper to write to than the next).
    const withTokens = tokenSubset(built, 0, hooked, 2);
    const withoutTokens = tokenSubset(built, 1, hooked, 2);
    // Both sets of workspaces warmed up alike (their catalogs read, the paths compiled), the
    // warm-up's deliveries received before the measure.
    await warmUp(server, withoutTokens, 10, true);
    await warmUp(server, withTokens, 10, true);
    if (!control) await received(hooks.ms, 10 * hooked);
    hooks.ms.length = 0;
    // Without and with alternate in slices, so that both meet the shared machine alike (the
    // same code's CPU a create moves by half between runs here, within a run much less).
    const pid = server.child.pid!;
    const slice = Math.max(1, Math.round(seconds / SLICES));
    const withoutSlices: LoadFigures[] = [];
    const withSlices: LoadFigures[] = [];
    // The server's CPU (ms) over each kind of slice, and of it in the kernel.
    const withoutCpu = { ms: 0, systemMs: 0 };
    const withCpu = { ms: 0, systemMs: 0 };
    const spentSince = (sum: typeof withCpu, before: typeof withCpu) => {
      const now = cpuOf(pid);
      sum.ms += now.ms - before.ms;
      sum.systemMs += now.systemMs - before.systemMs;
    };
    // PostgreSQL's own CPU (its backends on this machine), beside the server's.
    const dbCpu = () => (store === 'postgres' ? cpuMsOfCommand('postgres') : 0);
    let withoutDbMs = 0;
    let withDbMs = 0;
    // The receivers' CPU (this process's, on the clients' core): a receiver stands for another
    // machine, but here it shares the core PostgreSQL and wrk run on.
    let receiverUs = 0;
    // How busy the cores were in each slice, and its span on the clock of the server's CPU
    // profile (below).
    const busy: { without: Busy[]; with: Busy[] } = { without: [], with: [] };
    const spans: SliceSpan[] = [];
    const sliceWithout = async () => {
      const fromUs = monotonicUs();
      const cpu = cpuOf(pid);
      const db = dbCpu();
      const cores = coreTimes();
      const part = await overTokens('creates, no webhook', server, withoutTokens, CREATES, slice);
      withoutSlices.push(part);
      busy.without.push(coresBusy(cores, coreTimes()));
      spentSince(withoutCpu, cpu);
      withoutDbMs += dbCpu() - db;
      const creates = Math.round(part.reqPerSec * slice);
      spans.push({ kind: 'without', fromUs, toUs: monotonicUs(), creates });
    };
    const sliceWith = async () => {
      const fromUs = monotonicUs();
      const got = hooks.ms.length;
      const cpu = cpuOf(pid);
      const db = dbCpu();
      const own = process.cpuUsage();
      const cores = coreTimes();
      const part = await overTokens('creates, webhooks', server, withTokens, CREATES, slice);
      withSlices.push(part);
      // The deliveries' CPU is the writes' too: counted until the last is received.
      if (!control) await received(hooks.ms, got + part.reqPerSec * slice * 0.99);
      busy.with.push(coresBusy(cores, coreTimes()));
      spentSince(withCpu, cpu);
      withDbMs += dbCpu() - db;
      const spent = process.cpuUsage(own);
      receiverUs += spent.user + spent.system;
      const creates = Math.round(part.reqPerSec * slice);
      spans.push({ kind: 'with', fromUs, toUs: monotonicUs(), creates });
    };
    // Each kind first in half the pairs: the first slice of a server, and a slice after
    // another's, are not alike (measured with `--control`).
    for (let i = 0; i < SLICES; i++) {
      if (i % 2 === 0) {
        await sliceWithout();
        await sliceWith();
      } else {
        await sliceWith();
        await sliceWithout();
      }
    }
    if (process.env.BENCH_SLICE_LOG)
      appendFileSync(
        process.env.BENCH_SLICE_LOG,
        `${JSON.stringify({ pid, store, variant: variant.name, spans })}\n`,
      );
    const without = combined(withoutSlices);
    const withHooks = combined(withSlices);
    const perCreateUs = (ms: number, f: LoadFigures) =>
      (ms * 1000) / Math.max(1, f.reqPerSec * slice * SLICES);
    const sorted = [...hooks.ms].sort((a, b) => a - b);
    const figures: HookFigures = {
      store,
      variant: variant.name,
      placement,
      without,
      with: withHooks,
      cpuWithout: perCreateUs(withoutCpu.ms, without),
      cpuWith: perCreateUs(withCpu.ms, withHooks),
      systemCpuWithout: perCreateUs(withoutCpu.systemMs, without),
      systemCpuWith: perCreateUs(withCpu.systemMs, withHooks),
      dbCpuWithout: perCreateUs(withoutDbMs, without),
      dbCpuWith: perCreateUs(withDbMs, withHooks),
      receiverCpu: perCreateUs(receiverUs / 1000, withHooks),
      receiptP50: percentile(sorted, 50),
      receiptP99: percentile(sorted, 99),
      received: sorted.length,
      coresWithout: meanBusy(busy.without),
      coresWith: meanBusy(busy.with),
      load: load(),
    };
    console.log(
      `${store} webhooks ${variant.name}, dispatcher in ${placement}: creates ${Math.round(without.reqPerSec)}/s without, ${Math.round(withHooks.reqPerSec)}/s with (${(withHooks.reqPerSec / without.reqPerSec).toFixed(2)}; by CPU ${(figures.cpuWithout / figures.cpuWith).toFixed(2)}; server CPU a create ${Math.round(figures.cpuWithout)}/${Math.round(figures.cpuWith)} µs, in the kernel ${Math.round(figures.systemCpuWithout)}/${Math.round(figures.systemCpuWith)}); ${store === 'postgres' ? `PostgreSQL CPU a create ${Math.round(figures.dbCpuWithout)}/${Math.round(figures.dbCpuWith)} µs; ` : ''}receivers' CPU a delivery ${Math.round(figures.receiverCpu)} µs; creates p99 ${Math.round(without.p99)}/${Math.round(withHooks.p99)} ms; cores busy, server's/others' ${busyText(figures.coresWithout)} without, ${busyText(figures.coresWith)} with; write→receipt p50 ${figures.receiptP50} ms, p99 ${figures.receiptP99} ms (${sorted.length} received), load ${figures.load}`,
    );
    return figures;
  } finally {
    if (dispatcher) await stop(dispatcher);
    await stop(server);
    hooks.close();
    const c = openStore(built.url);
    await c.db.deleteFrom('webhook_deliveries').execute();
    await c.db.deleteFrom('webhooks').execute();
    await c.close();
  }
}

const rows: Figures[] = [];
const hookRows: HookFigures[] = [];
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}; wrk, ${connections} connections, ${seconds} s a figure${pinned ? '; server pinned to the last core, wrk to the others' : ''}; load ${load()}`,
);
for (const store of stores) {
  let largest: Built | undefined;
  const builts: Built[] = [];
  for (const n of sizes) {
    const built = await build(store, n);
    builts.push(built);
    if (n >= 2 * hooked) largest = built;
    if (onlyWebhooks || writesOnly) continue;
    for (const variant of variants) {
      if (variant.name === 'before') await forgetNewerMigrations(store, built.url, variant.dir);
      rows.push(await measure(store, built, variant));
    }
  }
  if (writesOnly) {
    for (const variant of variants) {
      if (variant.name === 'before')
        for (const built of builts) await forgetNewerMigrations(store, built.url, variant.dir);
      rows.push(...(await measureWritesSideBySide(store, builts, variant)));
    }
  }
  if (hooked > 0 && largest) {
    // Alternated `repeat` times, each run shown: runs of the same code differ on this shared
    // machine by more than some changes do.
    for (let run = 1; run <= repeat; run++) {
      for (const variant of variants) {
        if (variant.name === 'before') await forgetNewerMigrations(store, largest.url, variant.dir);
        for (const placement of placements)
          hookRows.push({ ...(await webhookPhase(store, largest, variant, placement)), run });
      }
    }
  }
}

const cell = (f: (r: Figures) => string, store: string, n: number) =>
  variants
    .map((v) => rows.find((r) => r.store === store && r.n === n && r.variant === v.name))
    .map((r) => (r ? f(r) : '-'))
    .join(' → ');
const out: (string | number)[][] = [];
for (const store of stores) {
  const label = store === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  if (!writesOnly) {
    out.push([
      `${label} reads over the tenants' tokens / one token`,
      ...sizes.map((n) => cell((r) => (r.overTokens / r.oneToken).toFixed(2), store, n)),
    ]);
    out.push([
      `${label} the same by server CPU a read (one token's µs / over the tokens' µs)`,
      ...sizes.map((n) =>
        cell(
          (r) =>
            `${(r.oneTokenCpu / r.overTokensCpu).toFixed(2)} (${Math.round(r.oneTokenCpu)}/${Math.round(r.overTokensCpu)})`,
          store,
          n,
        ),
      ),
    ]);
    out.push([
      `${label} reads, req/s: one token; over the tokens`,
      ...sizes.map((n) =>
        cell((r) => `${Math.round(r.oneToken)}; ${Math.round(r.overTokens)}`, store, n),
      ),
    ]);
    out.push([
      `${label} server RSS after the reads, MB`,
      ...sizes.map((n) => cell((r) => String(r.rssMB), store, n)),
    ]);
  }
  out.push([
    `${label} creates/s over the tenants (p99 ms)`,
    ...sizes.map((n) =>
      cell((r) => `${Math.round(r.creates.reqPerSec)} (${r.creates.p99.toFixed(0)})`, store, n),
    ),
  ]);
  if (writesOnly) {
    out.push([
      `${label} creates/s against N = ${sizes[0]!.toLocaleString('en')}'s (side by side)`,
      ...sizes.map((n) =>
        cell(
          (r) => {
            const first = rows.find(
              (f) => f.store === store && f.n === sizes[0] && f.variant === r.variant,
            );
            return first ? (r.creates.reqPerSec / first.creates.reqPerSec).toFixed(2) : '-';
          },
          store,
          n,
        ),
      ),
    ]);
  }
  out.push([
    `${label} server CPU a create, µs`,
    ...sizes.map((n) => cell((r) => String(Math.round(r.createsCpu)), store, n)),
  ]);
  out.push([
    `${label} server RSS after the creates, MB`,
    ...sizes.map((n) => cell((r) => String(r.rssAfterCreatesMB), store, n)),
  ]);
  out.push([
    `${label} server CPU of a workspace's first create, µs`,
    ...sizes.map((n) =>
      cell((r) => (r.firstCreateCpu ? String(Math.round(r.firstCreateCpu)) : '-'), store, n),
    ),
  ]);
  out.push([`${label} load average (1 min)`, ...sizes.map((n) => cell((r) => r.load, store, n))]);
}
if (stores.length === 2 && !writesOnly) {
  out.push([
    'PostgreSQL list reads / SQLite, one token; over the tokens',
    ...sizes.map((n) =>
      variants
        .map((v) => {
          const p = rows.find((r) => r.store === 'postgres' && r.n === n && r.variant === v.name);
          const q = rows.find((r) => r.store === 'sqlite' && r.n === n && r.variant === v.name);
          return p && q
            ? `${(p.oneToken / q.oneToken).toFixed(2)}; ${(p.overTokens / q.overTokens).toFixed(2)} (CPU ${(q.oneTokenCpu / p.oneTokenCpu).toFixed(2)}; ${(q.overTokensCpu / p.overTokensCpu).toFixed(2)})`
            : '-';
        })
        .join(' → '),
    ),
  ]);
}
if (rows.length > 0)
  console.log(
    `\n${values.before ? 'before → after, ' : ''}${people} people a workspace\n${table(['', ...sizes.map((n) => `N = ${n.toLocaleString('en')}`)], out)}`,
  );
if (hookRows.length > 0) {
  console.log(
    `\n${table(
      [
        `webhook in each of ${hooked} workspaces`,
        'creates/s without',
        'creates/s with',
        'ratio',
        'by CPU a create (µs without/with)',
        'of which in the kernel (µs)',
        'PostgreSQL CPU a create (µs without/with)',
        "receivers' CPU a delivery (µs)",
        'creates p99 ms (without/with)',
        "cores busy, server's/others' (without; with)",
        'write→receipt p50 ms',
        'p99 ms',
        'load',
      ],
      hookRows.map((h) => [
        `${h.store} ${h.variant}${control ? ', control (no webhooks)' : ''}, dispatcher in ${h.placement === 'serve' ? 'serve' : 'its own process'}${repeat > 1 ? ` (run ${h.run})` : ''}`,
        Math.round(h.without.reqPerSec),
        Math.round(h.with.reqPerSec),
        (h.with.reqPerSec / h.without.reqPerSec).toFixed(2),
        `${(h.cpuWithout / h.cpuWith).toFixed(2)} (${Math.round(h.cpuWithout)}/${Math.round(h.cpuWith)})`,
        `${Math.round(h.systemCpuWithout)}/${Math.round(h.systemCpuWith)}`,
        h.store === 'postgres' ? `${Math.round(h.dbCpuWithout)}/${Math.round(h.dbCpuWith)}` : '-',
        Math.round(h.receiverCpu),
        `${Math.round(h.without.p99)}/${Math.round(h.with.p99)}`,
        `${busyText(h.coresWithout)}; ${busyText(h.coresWith)}`,
        Number.isNaN(h.receiptP50) ? '-' : h.receiptP50,
        Number.isNaN(h.receiptP99) ? '-' : h.receiptP99,
        h.load,
      ]),
    )}`,
  );
}

// `npm run bench:writes [-- --people N] [--seconds S] [--creates N] [--no-postgres]
// [--only-postgres] [--compare DIR] [--partitions N] [--rounds N]`: builds
// two demo workspaces (A and B) in one SQLite file, then measures issue 16's table in one run:
// the server's CPU per person create and per deal create (its utime + stime from /proc, one
// client sending one create after another), p50/p99 of person creates at a fixed 200 a second
// (an open loop: one request every 5 ms, answered or not),
// `GET /v2/people` of A alone, while B takes 200 creates a second and while A does (wrk when
// installed, else autocannon), and the WAL's largest size (its file, and its content under
// each load); then PostgreSQL: person creates from 16 clients over 16 workspaces, and one
// client's p50. Then POST /v2/deal with one client and with eight, against the same
// server refusing a bad body (HTTP, auth and body parsing, no transaction) as the baseline;
// then, in this process, how long one write takes to refresh a person with 1,000 deals when
// one of them changes outcome, against a person with one deal. `--only-postgres` runs the
// PostgreSQL part alone; `--compare DIR` runs it `--rounds` times against this checkout's
// server and DIR's (another checkout of the service, its own `bench/api-server.ts`) in
// turns, on the same database, and gives each round's ratios: a noisy machine moves both.
// `--partitions N` runs it `--rounds` times against a plain database and one whose workspace
// tables are hash-partitioned by workspace into N partitions (`PG_PARTITIONS`), in turns, with
// the same workspaces, and gives each round's ratios.

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { updateDeal } from '../src/resources/deals/commands.ts';
import { insertDeals } from '../src/resources/deals/writes.ts';
import { openStore } from '../src/store/database.ts';
import { partitionByWorkspace } from '../src/store/partitions.ts';
import { writeWorkspace } from '../src/store/write.ts';
import {
  buildDemo,
  countArg,
  hasWrk,
  load,
  loadWithWrk,
  pinCores,
  pinThisProcessToClients,
  startChild,
  stopChild,
  table,
} from './lib.ts';
import { figuresOf, openLoop } from './open-loop.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    creates: { type: 'string', default: '1000' },
    'no-postgres': { type: 'boolean', default: false },
    'only-postgres': { type: 'boolean', default: false },
    compare: { type: 'string' },
    partitions: { type: 'string' },
    rounds: { type: 'string', default: '1' },
  },
});
const people = countArg('people', values.people);
const seconds = countArg('seconds', values.seconds);
const creates = countArg('creates', values.creates);
const rounds = countArg('rounds', values.rounds);
const partitions = values.partitions === undefined ? 0 : countArg('partitions', values.partitions);
if (partitions > 0 && values.compare) {
  throw new Error('--partitions compares databases, --compare servers: one at a time');
}
const pinned = pinCores();
// This process, the load generator, on the client's cores too.
pinThisProcessToClients();
const API_PORT = 38_421;
/** Creates before the measures: what the server needs to reach its steady CPU per create. */
const WARM_PEOPLE = 3_000;
const WARM_DEALS = 1_000;

/** The server process's CPU seconds so far (user + system, from /proc). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
}

let personN = 0;
const personBody = () => JSON.stringify({ name: `벤치 고객 ${++personN}` });

/** `amount` requests one after another from one client; the server's CPU per request, ms. */
async function cpuPer(
  path: string,
  body: () => string,
  amount: number,
  hdrs: Record<string, string>,
  port: number,
  pid: number,
): Promise<{ cpuMs: number; p50: number; p99: number; bad: number }> {
  let bad = 0;
  const before = cpuSeconds(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: 1,
    amount,
    requests: [
      {
        method: 'POST',
        headers: hdrs,
        setupRequest: (req) => ({ ...req, body: body() }),
        onResponse: (status) => {
          if (status >= 300 && !path.endsWith('?refused')) bad += 1;
        },
      },
    ],
  });
  const cpuMs = ((cpuSeconds(pid) - before) * 1000) / amount;
  return { cpuMs, p50: result.latency.p50, p99: result.latency.p99, bad: bad + result.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const issue: (string | number)[][] = [];
/** Tables of the SQLite part, for the report. */
const sections: string[] = [];
/** The tokens of the partitioned database's workspaces (`--partitions`). */
const partitionedTokens: string[] = [];

if (!values['only-postgres']) await sqlitePart();
if (!values['no-postgres']) await postgresPart();

const report = [
  `salescrm write bench — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}; load: autocannon (one-client loops, deal runs), ${hasWrk() ? 'wrk' : 'autocannon'} for the reads, an open loop (bench/open-loop.ts) for the fixed rates; ${pinned ? 'server pinned to one core, clients to the other' : 'no core pinning'}`,
  '',
  ...(issue.length > 0 ? [table(['issue 16', 'measured', 'target'], issue), ''] : []),
  ...sections,
].join('\n');
console.log(`\n${report}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/writes-latest.md', `${report}\n`);

/** SQLite: two demo workspaces in one file, issue 16's SQLite rows and the deal runs. */
async function sqlitePart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-writes-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;

  console.log(`building a demo workspace of ${people.toLocaleString('en-US')} people in ${dir} …`);
  const demo = buildDemo(databaseUrl, people);
  console.log(`built in ${demo.seconds.toFixed(1)} s`);

  // Ids the bodies refer to: a deal pipeline with its first stage, and people to link.
  const store = openStore(databaseUrl);
  const ws = demo.workspaceId;
  const stage = await store.db
    .selectFrom('pipeline_stages as s')
    .innerJoin('pipelines as p', (j) =>
      j.onRef('p.workspace_id', '=', 's.workspace_id').onRef('p.id', '=', 's.pipeline_id'),
    )
    .select(['s.pipeline_id', 's.id'])
    .where('s.workspace_id', '=', ws)
    .where('p.kind', '=', 'deal')
    .orderBy('p.position')
    .orderBy('s.position')
    .executeTakeFirstOrThrow();
  const peopleIds = (
    await store.db
      .selectFrom('people')
      .select('id')
      .where('workspace_id', '=', ws)
      .orderBy('created_at')
      .limit(5_000)
      .execute()
  ).map((r) => r.id);
  const actor = (
    await store.db
      .selectFrom('access_tokens')
      .select('user_id')
      .where('workspace_id', '=', ws)
      .executeTakeFirstOrThrow()
  ).user_id;

  // Workspace B, beside A in the same file: the writes that A's reads must not feel.
  const other = await createDemoWorkspace(store, { seed: 2, people });

  const api = await startChild('bench/api-server.ts', [databaseUrl, String(API_PORT)]);
  const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };
  const headersB = { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' };

  let n = 0;
  const dealBody = () =>
    JSON.stringify({
      name: `벤치 딜 ${++n}`,
      pipelineId: stage.pipeline_id,
      pipelineStageId: stage.id,
      status: (['In progress', 'Won', 'Lost'] as const)[n % 3],
      peopleId: peopleIds[n % peopleIds.length],
      price: 1_000_000,
      fieldList: [{ name: '수주 예정일', dateValue: '2027-01-31' }],
    });
  process.on('exit', () => api.kill());

  // The WAL's largest size, watched through the whole SQLite run: its file's, and its
  // content's (the frames since it last started over, from the WAL-index header at the start
  // of the `-shm` file: `mxFrame` at byte 16, the page size at byte 14) by the kind of load.
  const walFile = `${join(dir, 'bench.db')}-wal`;
  const shmFile = `${join(dir, 'bench.db')}-shm`;
  let walMax = 0;
  const walContentMax = { loop: 0, rate: 0 };
  let walPhase: keyof typeof walContentMax = 'loop';
  const header = Buffer.alloc(20);
  let shm: number | undefined;
  const walWatch = setInterval(() => {
    try {
      walMax = Math.max(walMax, statSync(walFile).size);
      shm ??= openSync(shmFile, 'r');
      if (readSync(shm, header, 0, 20, 0) < 20) return;
      const page = header.readUInt16LE(14);
      const content = header.readUInt32LE(16) * ((page === 1 ? 65_536 : page) + 24);
      walContentMax[walPhase] = Math.max(walContentMax[walPhase], content);
    } catch {}
  }, 10);

  /**
   * Person creates at a fixed `rate` a second into the workspace of `hdrs`, for `seconds`
   * (or, with `refused`, bodies the server refuses: the same requests without a write).
   */
  async function createsAtRate(rate: number, hdrs: Record<string, string>, refused = false) {
    const expected = refused ? 400 : 201;
    const body = refused ? () => JSON.stringify({ name: 1 }) : personBody;
    const run = await openLoop(`http://127.0.0.1:${API_PORT}`, {
      rate,
      seconds,
      connections: 8,
      request: () => ({ method: 'POST', path: '/v2/people', headers: hdrs, body: body() }),
    });
    const figures = figuresOf(`creates at ${rate}/s`, run, rate, (s) => s === expected);
    return {
      reqPerSec: figures.reqPerSec,
      p50: Number(figures.p50.toFixed(1)),
      p99: Number(figures.p99.toFixed(1)),
      bad: figures.bad,
    };
  }

  const readUrl = `http://127.0.0.1:${API_PORT}/v2/people`;
  // wrk when installed: in a process of its own, so that the open loop beside it (the creates
  // at a fixed rate) keeps this process's event loop to itself, and at the lowest priority,
  // so that on the clients' core the open loop sends on time and wrk takes the rest.
  const readOpts = { seconds, connections: 10, headers: { authorization: `Bearer ${demo.token}` } };
  const readOnce = () =>
    loadWithWrk('GET /v2/people (A)', readUrl, { ...readOpts, yielding: true }) ??
    load('GET /v2/people (A)', readUrl, readOpts);
  const readTool = hasWrk()
    ? 'reads from wrk'
    : "reads from autocannon, in the generator's process";

  const onA = (path: string, body: () => string, amount: number) =>
    cpuPer(path, body, amount, headers, API_PORT, api.pid!);

  // Warm-up: the statements, the OS page cache, the JIT. The server's CPU per create keeps
  // falling for its first ~3,000 person creates and ~1,000 deal creates (the JIT: a server
  // started again on the same file starts as slowly), so the measures begin after those.
  await onA('/v2/people', personBody, WARM_PEOPLE);
  await onA('/v2/deal', dealBody, WARM_DEALS);
  await readOnce();

  // Alternate the measures that are compared, twice, and keep the medians.
  const personCpu: number[] = [];
  const dealCpu: number[] = [];
  const refusedCpu: number[] = [];
  let seqP50 = 0;
  for (let round = 0; round < 2; round++) {
    refusedCpu.push(
      (await onA('/v2/people', () => JSON.stringify({ name: 1 }), Math.ceil(creates / 2))).cpuMs,
    );
    const p = await onA('/v2/people', personBody, creates);
    personCpu.push(p.cpuMs);
    seqP50 = p.p50;
    dealCpu.push((await onA('/v2/deal', dealBody, creates)).cpuMs);
  }
  walPhase = 'rate';
  const alone: number[] = [];
  const whileOther: number[] = [];
  const whileOwn: number[] = [];
  let atRate = { reqPerSec: 0, p50: 0, p99: 0, bad: 0 };
  for (let round = 0; round < 2; round++) {
    const r0 = await readOnce();
    alone.push(r0.reqPerSec);
    if (r0.errors > 0) console.log(`reads alone: ${r0.errors} errors`);
    const [r1, w1] = await Promise.all([readOnce(), createsAtRate(200, headersB)]);
    whileOther.push(r1.reqPerSec);
    const [r2, w2] = await Promise.all([readOnce(), createsAtRate(200, headers)]);
    whileOwn.push(r2.reqPerSec);
    if (round === 0) atRate = w1;
    console.log(
      `round ${round + 1}: reads alone ${Math.round(alone[round]!)}, while B writes ${Math.round(r1.reqPerSec)} (writes p99 ${w1.p99}), while A writes ${Math.round(r2.reqPerSec)} (writes p99 ${w2.p99})`,
    );
  }
  const writesAlone = await createsAtRate(200, headersB);
  // The same rate of requests that write nothing: the machine's and HTTP's own tail.
  const refusedAtRate = await createsAtRate(200, headersB, true);
  clearInterval(walWatch);
  if (shm !== undefined) closeSync(shm);
  const readsAlone = median(alone);
  issue.push(
    [
      'SQLite: server CPU per request, refused body (baseline)',
      `${median(refusedCpu).toFixed(3)} ms`,
      '',
    ],
    ['SQLite: server CPU per person create', `${median(personCpu).toFixed(3)} ms`, '≤ 0.3 ms'],
    ['SQLite: server CPU per deal create', `${median(dealCpu).toFixed(3)} ms`, '≤ 0.6 ms'],
    ['SQLite: person create p50, one client in a loop', `${seqP50} ms`, ''],
    [
      'SQLite: person creates at 200/s, nothing else running: p50 / p99',
      `${writesAlone.p50} / ${writesAlone.p99} ms (${Math.round(writesAlone.reqPerSec)}/s, ${writesAlone.bad} bad)`,
      'p99 < 10 ms',
    ],
    [
      '… refused bodies at 200/s (no write: the baseline): p50 / p99',
      `${refusedAtRate.p50} / ${refusedAtRate.p99} ms (${Math.round(refusedAtRate.reqPerSec)}/s, ${refusedAtRate.bad} bad)`,
      '',
    ],
    [
      `SQLite: person creates at 200/s while A is read (${readTool}): p50 / p99`,
      `${atRate.p50} / ${atRate.p99} ms (${Math.round(atRate.reqPerSec)}/s, ${atRate.bad} bad)`,
      '',
    ],
    ['SQLite: GET /v2/people (A) alone, req/s (median of 2)', Math.round(readsAlone), ''],
    [
      '… while B takes 200 creates/s (ratio)',
      `${Math.round(median(whileOther))} (${(median(whileOther) / readsAlone).toFixed(2)})`,
      '≥ 0.7',
    ],
    [
      '… while A takes 200 creates/s (ratio)',
      `${Math.round(median(whileOwn))} (${(median(whileOwn) / readsAlone).toFixed(2)})`,
      '≥ 0.5',
    ],
    ["SQLite: the WAL's largest size", `${(walMax / 1024 ** 2).toFixed(1)} MB`, 'bounded'],
    [
      '… its content at most: one client in a loop; at 200 creates/s (reads or not)',
      `${(walContentMax.loop / 1024 ** 2).toFixed(1)} MB; ${(walContentMax.rate / 1024 ** 2).toFixed(1)} MB`,
      '',
    ],
  );
  interface WriteRun {
    name: string;
    connections: number;
    reqPerSec: number;
    p50: number;
    p99: number;
    ok: number;
    other: number;
  }

  async function post(
    name: string,
    connections: number,
    body: () => string,
    expected: number,
  ): Promise<WriteRun> {
    let ok = 0;
    let other = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${API_PORT}/v2/deal`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers,
          setupRequest: (req) => ({ ...req, body: body() }),
          onResponse: (status) => {
            if (status === expected) ok += 1;
            else other += 1;
          },
        },
      ],
    });
    return {
      name,
      connections,
      reqPerSec: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      ok,
      other: other + result.errors,
    };
  }

  const invalid = () => JSON.stringify({ name: '잘못된 딜', status: 'Done' });
  const runs: WriteRun[] = [];
  runs.push(await post('POST /v2/deal, refused body (baseline)', 1, invalid, 400));
  runs.push(await post('POST /v2/deal', 1, dealBody, 201));
  runs.push(await post('POST /v2/deal, refused body (baseline)', 8, invalid, 400));
  runs.push(await post('POST /v2/deal', 8, dealBody, 201));
  await stopChild(api);

  /**
   * Median milliseconds of one outcome change of a deal of a person with `deals` deals:
   * the whole write (update, history, refresh of the deal, person and organization, commit).
   */
  async function outcomeChange(deals: number): Promise<number> {
    const personId = peopleIds[Math.max(0, peopleIds.length - 1 - deals)]!;
    const ids = await writeWorkspace(store, ws, (w) =>
      insertDeals(
        w,
        Array.from({ length: deals }, (_, i) => ({
          name: `묶음 딜 ${i}`,
          peopleId: personId,
          pipelineId: stage.pipeline_id,
          stageId: stage.id,
          outcome: (['In progress', 'Won', 'Lost'] as const)[i % 3],
          ownerId: actor,
        })),
      ),
    );
    const target = ids[0]!;
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const status = i % 2 === 0 ? 'Won' : 'In progress';
      const t = performance.now();
      await writeWorkspace(store, ws, (w) => updateDeal(w, actor, target, { status }));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  }

  const oneDeal = await outcomeChange(1);
  const thousandDeals = await outcomeChange(1_000);
  const person = await store.db
    .selectFrom('people')
    .select('body')
    .where('workspace_id', '=', ws)
    .where('id', '=', peopleIds[Math.max(0, peopleIds.length - 1 - 1_000)]!)
    .executeTakeFirstOrThrow();
  const counted = JSON.parse(String(person.body))['딜 개수'];
  if (counted < 1_000) throw new Error(`the person shows ${counted} deals, expected 1,000 or more`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const baseline = (c: number) =>
    runs.find((r) => r.connections === c && r.name.includes('baseline'))!;
  sections.push(
    `SQLite workspace: ${people.toLocaleString('en-US')} people (demo built in ${demo.seconds.toFixed(1)} s); each deal links one of ${peopleIds.length.toLocaleString('en-US')} people; a second workspace (B) of as many`,
    '',
    table(
      [
        'run',
        'clients',
        'req/s',
        'p50 ms',
        'p99 ms',
        'ratio to baseline',
        'expected status',
        'other',
      ],
      runs.map((r) => [
        r.name,
        r.connections,
        Math.round(r.reqPerSec),
        r.p50,
        r.p99,
        (r.reqPerSec / baseline(r.connections).reqPerSec).toFixed(2),
        r.ok,
        r.other,
      ]),
    ),
    '',
    table(
      ['outcome change of one deal (median of 21 writes)', 'ms'],
      [
        ['person with 1 deal', oneDeal.toFixed(2)],
        [`person with ${counted.toLocaleString('en-US')} deals`, thousandDeals.toFixed(2)],
        ['ratio', (thousandDeals / oneDeal).toFixed(2)],
      ],
    ),
    '',
  );
}

/** One PostgreSQL run of a server: creates/s from 16 clients, one client's p50, CPU per create. */
interface PostgresRun {
  rate: number;
  p50: number;
  cpuMs: number;
  bad: number;
  oneP50: number;
  oneP99: number;
  oneCpuMs: number;
}

/**
 * PostgreSQL: 16 workspaces in a fresh database of the local server, person creates from 16
 * clients (one a workspace), then from one client; with `--compare`, the other checkout's
 * server in turns with this one's, `--rounds` times each.
 */
async function postgresPart(): Promise<void> {
  const server = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `salescrm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const partitionedUrl = new URL(url);
  partitionedUrl.pathname = `/${name}_p`;
  try {
    const tokens: string[] = [];
    const databases = partitions > 0 ? [url, partitionedUrl] : [url];
    for (const [d, databaseUrl] of databases.entries()) {
      if (d > 0) await admin.query(`create database "${name}_p"`);
      const pgStore = openStore(databaseUrl.toString());
      await pgStore.migrate();
      if (d > 0) await partitionByWorkspace(pgStore.db, partitions);
      // The same workspaces (seeds) in both; the tokens differ, so each database's own.
      const made: string[] = [];
      for (let i = 0; i < 16; i++)
        made.push((await createDemoWorkspace(pgStore, { seed: 100 + i, people: 50 })).token);
      if (d === 0) tokens.push(...made);
      else partitionedTokens.push(...made);
      await pgStore.close();
    }
    if (partitions > 0) {
      await comparePartitions(url.toString(), partitionedUrl.toString(), tokens);
      return;
    }
    const servers: [string, string][] = [['this checkout', 'bench/api-server.ts']];
    if (values.compare) servers.push([values.compare, join(values.compare, 'bench/api-server.ts')]);
    const results = new Map<string, PostgresRun[]>(servers.map(([label]) => [label, []]));
    for (let round = 0; round < rounds; round++) {
      // Alternate which server goes first, so neither always runs on the warmer database.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const [label, entry] of order) {
        const run = await postgresRun(entry, url.toString(), tokens);
        results.get(label)!.push(run);
        console.log(
          `round ${round + 1}, ${label}: ${Math.round(run.rate)} creates/s (16 clients), one client p50 ${run.oneP50} ms`,
        );
      }
    }
    const ours = results.get('this checkout')!;
    const mid = (f: (r: PostgresRun) => number) => median(ours.map(f));
    issue.push(
      [
        `PostgreSQL: person creates/s, 16 clients over 16 workspaces (median of ${rounds})`,
        `${Math.round(mid((r) => r.rate))} (p50 ${mid((r) => r.p50)} ms, API CPU ${mid((r) => r.cpuMs).toFixed(2)} ms each, ${ours.reduce((n, r) => n + r.bad, 0)} bad)`,
        '≥ 1,500',
      ],
      [
        'PostgreSQL: person create p50, one client',
        `${mid((r) => r.oneP50)} ms (p99 ${mid((r) => r.oneP99)} ms, API CPU ${mid((r) => r.oneCpuMs).toFixed(2)} ms each)`,
        '< 3 ms',
      ],
    );
    if (values.compare) {
      const theirs = results.get(values.compare)!;
      sections.push(
        table(
          [
            `round (this checkout / ${values.compare})`,
            'creates/s, 16 clients',
            'ratio',
            'one client p50 ms',
            'API CPU ms per create (16 clients)',
          ],
          ours.map((r, i) => {
            const t = theirs[i]!;
            return [
              String(i + 1),
              `${Math.round(r.rate)} / ${Math.round(t.rate)}`,
              (r.rate / t.rate).toFixed(2),
              `${r.oneP50} / ${t.oneP50}`,
              `${r.cpuMs.toFixed(2)} / ${t.cpuMs.toFixed(2)}`,
            ];
          }),
        ),
        '',
      );
    }
  } finally {
    await admin.query(`drop database "${name}" with (force)`);
    await admin.query(`drop database if exists "${name}_p" with (force)`);
    await admin.end();
  }
}

/**
 * `--partitions N`: this checkout's server on the plain database and on the partitioned one,
 * in turns (which goes first alternates), `rounds` times; each round's ratios.
 */
async function comparePartitions(
  plainUrl: string,
  partitionedUrl: string,
  tokens: string[],
): Promise<void> {
  const entry = 'bench/api-server.ts';
  const plain: PostgresRun[] = [];
  const parted: PostgresRun[] = [];
  for (let round = 0; round < rounds; round++) {
    const order: ['plain' | 'partitioned', string, string[], PostgresRun[]][] = [
      ['plain', plainUrl, tokens, plain],
      ['partitioned', partitionedUrl, partitionedTokens, parted],
    ];
    if (round % 2 === 1) order.reverse();
    for (const [label, url, t, runs] of order) {
      const run = await postgresRun(entry, url, t);
      runs.push(run);
      console.log(
        `round ${round + 1}, ${label}: ${Math.round(run.rate)} creates/s (16 clients), one client p50 ${run.oneP50} ms`,
      );
    }
  }
  sections.push(
    table(
      [
        `round (plain / ${partitions} partitions)`,
        'creates/s, 16 clients',
        'ratio',
        'one client p50 ms',
        'API CPU ms per create (16 clients)',
      ],
      plain.map((r, i) => {
        const p = parted[i]!;
        return [
          String(i + 1),
          `${Math.round(r.rate)} / ${Math.round(p.rate)}`,
          (p.rate / r.rate).toFixed(2),
          `${r.oneP50} / ${p.oneP50}`,
          `${r.cpuMs.toFixed(2)} / ${p.cpuMs.toFixed(2)}`,
        ];
      }),
    ),
    '',
  );
}

/** Starts the server `entry` on the database at `url` and measures one PostgreSQL run. */
async function postgresRun(entry: string, url: string, tokens: string[]): Promise<PostgresRun> {
  const port = API_PORT + 1;
  const pgApi = await startChild(entry, [url, String(port)]);
  const hdrs = (t: string) => ({
    authorization: `Bearer ${t}`,
    'content-type': 'application/json',
  });
  try {
    // The warm-up spread over the workspaces, so the one-client run's is not the only one grown.
    await Promise.all(
      tokens.map((t) =>
        cpuPer(
          '/v2/people',
          personBody,
          Math.ceil(WARM_PEOPLE / tokens.length),
          hdrs(t),
          port,
          pgApi.pid!,
        ),
      ),
    );
    const one = await cpuPer('/v2/people', personBody, creates, hdrs(tokens[0]!), port, pgApi.pid!);
    const before = cpuSeconds(pgApi.pid!);
    let bad = 0;
    const many = await Promise.all(
      tokens.map((t) =>
        autocannon({
          url: `http://127.0.0.1:${port}/v2/people`,
          connections: 1,
          duration: seconds,
          requests: [
            {
              method: 'POST',
              headers: hdrs(t),
              setupRequest: (req) => ({ ...req, body: personBody() }),
              onResponse: (status) => {
                if (status !== 201) bad += 1;
              },
            },
          ],
        }),
      ),
    );
    const total = many.reduce((n, r) => n + r.requests.total, 0);
    return {
      rate: many.reduce((n, r) => n + r.requests.average, 0),
      p50: median(many.map((r) => r.latency.p50)),
      cpuMs: ((cpuSeconds(pgApi.pid!) - before) * 1000) / total,
      bad: bad + one.bad,
      oneP50: one.p50,
      oneP99: one.p99,
      oneCpuMs: one.cpuMs,
    };
  } finally {
    await stopChild(pgApi);
  }
}

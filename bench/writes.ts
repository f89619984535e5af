// `npm run bench:writes [-- --people N] [--seconds S] [--creates N] [--no-postgres]`: builds
// two demo workspaces (A and B) in one SQLite file, then measures issue 16's table in one run:
// the server's CPU per person create and per deal create (its utime + stime from /proc, one
// client sending one create after another), p50/p99 of person creates at a fixed 200 a second,
// `GET /v2/people` of A alone, while B takes 200 creates a second and while A does, and the
// WAL's largest size; then PostgreSQL: person creates from 16 clients over 16 workspaces, and
// one client's p50. Then POST /v2/deal with one client and with eight, against the same
// server refusing a bad body (HTTP, auth and body parsing, no transaction) as the baseline;
// then, in this process, how long one write takes to refresh a person with 1,000 deals when
// one of them changes outcome, against a person with one deal.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { updateDeal } from '../src/resources/deals/commands.ts';
import { insertDeals } from '../src/resources/deals/writes.ts';
import { openStore } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { buildDemo, load, pinCores, startChild, stopChild, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    creates: { type: 'string', default: '1000' },
    'no-postgres': { type: 'boolean', default: false },
  },
});
const people = Number(values.people);
const seconds = Number(values.seconds);
const creates = Number(values.creates);
const pinned = pinCores();
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-writes-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const API_PORT = 38_421;

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

/** The server process's CPU seconds so far (user + system, from /proc). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
}

// The WAL's largest size, watched through the whole SQLite run.
const walFile = `${join(dir, 'bench.db')}-wal`;
let walMax = 0;
const walWatch = setInterval(() => {
  try {
    walMax = Math.max(walMax, statSync(walFile).size);
  } catch {}
}, 10);

let personN = 0;
const personBody = () => JSON.stringify({ name: `벤치 고객 ${++personN}` });

/** `amount` requests one after another from one client; the server's CPU per request, ms. */
async function cpuPer(
  path: string,
  body: () => string,
  amount: number,
  hdrs: Record<string, string> = headers,
  port = API_PORT,
  pid = api.pid!,
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

/**
 * Person creates at a fixed `rate` a second into the workspace of `hdrs`, for `seconds`
 * (or, with `refused`, bodies the server refuses: the same requests without a write).
 */
async function createsAtRate(rate: number, hdrs: Record<string, string>, refused = false) {
  let bad = 0;
  const expected = refused ? 400 : 201;
  const body = refused ? () => JSON.stringify({ name: 1 }) : personBody;
  const result = await autocannon({
    url: `http://127.0.0.1:${API_PORT}/v2/people`,
    connections: 4,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: hdrs,
        setupRequest: (req) => ({ ...req, body: body() }),
        onResponse: (status) => {
          if (status !== expected) bad += 1;
        },
      },
    ],
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: bad + result.errors,
  };
}

const readUrl = `http://127.0.0.1:${API_PORT}/v2/people`;
const readOnce = () =>
  load('GET /v2/people (A)', readUrl, {
    seconds,
    connections: 10,
    headers: { authorization: `Bearer ${demo.token}` },
  });

// Warm-up: the statements, the OS page cache, the JIT.
await cpuPer('/v2/people', personBody, 200);
await readOnce();

const issue: (string | number)[][] = [];
// Alternate the measures that are compared, twice, and keep the medians.
const personCpu: number[] = [];
const dealCpu: number[] = [];
const refusedCpu: number[] = [];
let seqP50 = 0;
for (let round = 0; round < 2; round++) {
  refusedCpu.push(
    (await cpuPer('/v2/people', () => JSON.stringify({ name: 1 }), creates / 2)).cpuMs,
  );
  const p = await cpuPer('/v2/people', personBody, creates);
  personCpu.push(p.cpuMs);
  seqP50 = p.p50;
  dealCpu.push((await cpuPer('/v2/deal', dealBody, creates)).cpuMs);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const alone: number[] = [];
const whileOther: number[] = [];
const whileOwn: number[] = [];
let atRate = { reqPerSec: 0, p50: 0, p99: 0, bad: 0 };
for (let round = 0; round < 2; round++) {
  const r0 = await readOnce();
  alone.push(r0.reqPerSec);
  if (r0.errors + 0 > 0) console.log(`reads alone: ${r0.errors} errors`);
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
    'SQLite: person creates at 200/s while A is read: p50 / p99',
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

// PostgreSQL: 16 workspaces in a fresh database of the local server, person creates from 16
// clients (one a workspace), then from one client.
if (!values['no-postgres']) {
  const server = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `salescrm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    const pgStore = openStore(url.toString());
    await pgStore.migrate();
    const tokens: string[] = [];
    for (let i = 0; i < 16; i++)
      tokens.push((await createDemoWorkspace(pgStore, { seed: 100 + i, people: 50 })).token);
    await pgStore.close();
    const port = API_PORT + 1;
    const pgApi = await startChild('bench/api-server.ts', [url.toString(), String(port)]);
    const hdrs = (t: string) => ({
      authorization: `Bearer ${t}`,
      'content-type': 'application/json',
    });
    try {
      await cpuPer('/v2/people', personBody, 200, hdrs(tokens[0]!), port, pgApi.pid!);
      const one = await cpuPer(
        '/v2/people',
        personBody,
        creates,
        hdrs(tokens[0]!),
        port,
        pgApi.pid!,
      );
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
      const cpuMs = ((cpuSeconds(pgApi.pid!) - before) * 1000) / total;
      const rate = many.reduce((n, r) => n + r.requests.average, 0);
      const p50s = many.map((r) => r.latency.p50);
      issue.push(
        [
          'PostgreSQL: person creates/s, 16 clients over 16 workspaces',
          `${Math.round(rate)} (p50 ${median(p50s)} ms, API CPU ${cpuMs.toFixed(2)} ms each, ${bad} bad)`,
          '≥ 1,500',
        ],
        [
          'PostgreSQL: person create p50, one client',
          `${one.p50} ms (p99 ${one.p99} ms, API CPU ${one.cpuMs.toFixed(2)} ms each)`,
          '< 3 ms',
        ],
      );
    } finally {
      await stopChild(pgApi);
    }
  } finally {
    await admin.query(`drop database "${name}" with (force)`);
    await admin.end();
  }
}

const baseline = (c: number) =>
  runs.find((r) => r.connections === c && r.name.includes('baseline'))!;
const report = [
  `salescrm write bench — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, SQLite; load: autocannon`,
  `workspace: ${people.toLocaleString('en-US')} people (demo built in ${demo.seconds.toFixed(1)} s); each deal links one of ${peopleIds.length.toLocaleString('en-US')} people; a second workspace (B) of as many; ${pinned ? 'server pinned to one core, clients to the other' : 'no core pinning'}`,
  '',
  table(['issue 16', 'measured', 'target'], issue),
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
].join('\n');
console.log(`\n${report}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/writes-latest.md', `${report}\n`);
rmSync(dir, { recursive: true, force: true });

// `npm run bench [-- --people N] [--seconds S] [--db FILE] [--json-server-max N]
// [--database postgres]`: builds a demo workspace (or takes the one in FILE, built by an
// earlier run with --keep or by `salescrm demo`), then measures the list endpoint against a
// bare node:http server sending the same bytes, a deep page, a full cursor walk, the single
// deal, fixed-rate latencies at half saturation, the server's memory and json-server as a
// peer, all in one run, and prints a table with the issue's targets. `--database postgres`
// also builds the demo on PostgreSQL (BENCH_DATABASE_URL, default the local server) and
// loads its first and deep pages.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildDemo,
  countArg,
  countPeople,
  countRecords,
  type LoadFigures,
  load,
  loadAtRate,
  loadWithWrk,
  memoryOf,
  onCores,
  pinCores,
  pinThisProcessToClients,
  startChild,
  startChildWithMessage,
  stopChild,
  table,
  tokenOfExistingDemo,
  walkInProcess,
  walkWithWrk,
  writePeopleNdjson,
} from './lib.ts';
import { benchPostgres, type PostgresFigures } from './postgres.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    keep: { type: 'boolean', default: false },
    db: { type: 'string' },
    'json-server-max': { type: 'string' },
    database: { type: 'string', default: 'sqlite' },
  },
});
if (values.database !== 'sqlite' && values.database !== 'postgres') {
  throw new Error(
    `--database is sqlite or postgres (SQLite is always measured), not ${values.database}`,
  );
}
const seconds = countArg('seconds', values.seconds);
const size = countArg('people', values.people);
const jsonServerMax =
  values['json-server-max'] === undefined
    ? undefined
    : countArg('json-server-max', values['json-server-max']);
// Servers on the last core, clients and load generators on the others (with taskset); this
// process (its in-process walks and open loops) with the clients.
const pinned = pinCores();
pinThisProcessToClients();
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-'));
const reuse = values.db !== undefined && existsSync(values.db);
const databaseUrl = `sqlite:${values.db ?? join(dir, 'bench.db')}`;
const API_PORT = 38_411;
const FLOOR_PORT = 38_412;
const PEER_PORT = 38_413;

let demo: { token: string; seconds: number | null };
if (reuse) {
  console.log(`using the demo workspace in ${values.db} …`);
  demo = { ...(await tokenOfExistingDemo(databaseUrl)), seconds: null };
} else {
  console.log(`building a demo workspace of ${size.toLocaleString('en-US')} people …`);
  demo = buildDemo(databaseUrl, size);
}
const buildSeconds = demo.seconds;
const totalRecords = await countRecords(databaseUrl);
const people = await countPeople(databaseUrl);
console.log(
  `${buildSeconds === null ? 'reused' : `built in ${buildSeconds.toFixed(1)} s`}: ${people.toLocaleString('en-US')} people, ${totalRecords.toLocaleString('en-US')} records`,
);

const headers = { authorization: `Bearer ${demo.token}` };
const api = await startChild('bench/api-server.ts', [databaseUrl, String(API_PORT)]);
const base = `http://127.0.0.1:${API_PORT}`;

async function getJson(path: string) {
  const res = await fetch(`${base}${path}`, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { bytes: Buffer.from(await res.arrayBuffer()), json: null as unknown };
}

// The store and rendering path alone, in this process, no HTTP: twice, the first to bring
// the people's pages into the OS page cache, so that no walk below is timed reading a disk
// (a database larger than memory is another benchmark).
await walkInProcess(databaseUrl);
const direct = await walkInProcess(databaseUrl);

// A full cursor walk of every person, 100 a page, one client (bench/walk-client.ts, in a
// process of its own): the store and rendering path.
function walkAll(port: number): {
  walked: number;
  pages: number;
  seconds: number;
  deepCursor: string;
} {
  const run = spawnSync(
    ...onCores('client', process.execPath, [
      '--import',
      'tsx',
      'bench/walk-client.ts',
      String(port),
      demo.token,
      String(people),
    ]),
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`walk failed: ${run.stderr}`);
  const walk = JSON.parse(run.stdout) as ReturnType<typeof walkAll>;
  if (walk.walked !== people) throw new Error(`walk saw ${walk.walked} people, expected ${people}`);
  return walk;
}
// The same walk from a server that reads each page only when asked (no page cache, so no
// read-ahead either): what reading ahead adds. A sequential walk on two cores depends on
// where the scheduler puts the client and the server, so each is walked three times,
// alternating, and the median counts.
const unaided = await startChild('bench/api-server.ts', [databaseUrl, String(API_PORT + 6)], {
  PAGE_CACHE_BYTES: '0',
});
const walks: ReturnType<typeof walkAll>[] = [];
const walksUnaided: ReturnType<typeof walkAll>[] = [];
for (let round = 0; round < 3; round++) {
  walks.push(walkAll(API_PORT));
  walksUnaided.push(walkAll(API_PORT + 6));
}
await stopChild(unaided);
const medianWalk = (list: typeof walks) =>
  [...list].sort((a, b) => a.seconds - b.seconds)[Math.floor(list.length / 2)]!;
const { walked, pages, seconds: walkSeconds, deepCursor } = medianWalk(walks);
const walkUnaided = medianWalk(walksUnaided);
const walkRates = (list: typeof walks) =>
  list.map((w) => Math.round(w.walked / w.seconds).toLocaleString('en-US')).join(', ');

// The same walk from wrk (a C client, one connection, bench/walk.lua), so the client's
// own cost is small.
const wrkWalk = walkWithWrk(`${base}`, headers, Math.min(seconds, 10));

const firstPage = await getJson('/v2/people');
const deepPage = await getJson(`/v2/people?cursor=${deepCursor}`);
const someDeal = JSON.parse((await getJson('/v2/deal?limit=1')).bytes.toString()).data.dealList[0]
  .id;
const pageFile = join(dir, 'page.json');
writeFileSync(pageFile, firstPage.bytes);
const floor = await startChild('bench/floor-server.ts', [pageFile, String(FLOOR_PORT)]);

// Saturation runs use wrk (a C load generator) when it is installed: autocannon, in
// JavaScript, saturates before a fast server does on two cores.
const saturate = (name: string, url: string, h?: Record<string, string>) =>
  loadWithWrk(name, url, { seconds, headers: h }) ?? load(name, url, { seconds, headers: h });
const runs: LoadFigures[] = [];
runs.push(await saturate('bare node:http, same bytes (floor)', `http://127.0.0.1:${FLOOR_PORT}/`));
// The first and the deep page alternate, three runs each, and the median of each counts:
// their ratio is one of the targets, and one run apiece can land on a noisy moment.
const firstRuns: LoadFigures[] = [];
const deepRuns: LoadFigures[] = [];
for (let round = 0; round < 3; round++) {
  firstRuns.push(await saturate('GET /v2/people, first page', `${base}/v2/people`, headers));
  deepRuns.push(
    await saturate('GET /v2/people, deep page', `${base}/v2/people?cursor=${deepCursor}`, headers),
  );
}
const medianRun = (list: LoadFigures[]) =>
  [...list].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(list.length / 2)]!;
runs.push(medianRun(firstRuns), medianRun(deepRuns));
const saturationRates = (list: LoadFigures[]) =>
  list.map((r) => Math.round(r.reqPerSec).toLocaleString('en-US')).join(', ');
runs.push(await saturate('GET /v2/deal/{id}', `${base}/v2/deal/${someDeal}`, headers));
const half = Math.max(1, Math.round(runs[1]!.reqPerSec / 2));
const halfDeep = Math.max(1, Math.round(runs[2]!.reqPerSec / 2));
const halfDeal = Math.max(1, Math.round(runs[3]!.reqPerSec / 2));
const fixed = (name: string, url: string, rate: number) =>
  loadAtRate(`${name} at ${rate.toLocaleString('en-US')} req/s`, url, rate, { seconds, headers });
runs.push(await fixed('GET /v2/people, first page', `${base}/v2/people`, half));
runs.push(
  await fixed('GET /v2/people, deep page', `${base}/v2/people?cursor=${deepCursor}`, halfDeep),
);
runs.push(await fixed('GET /v2/deal/{id}', `${base}/v2/deal/${someDeal}`, halfDeal));
const halfRuns = runs.slice(-3);
// The API process's peak resident set while it served all of the above (walk included).
const apiMemory = memoryOf(api.pid!);
await stopChild(floor);
await stopChild(api);
let postgres: PostgresFigures | undefined;
if (values.database === 'postgres') {
  postgres = await benchPostgres({ people, port: API_PORT + 5, keep: values.keep, saturate });
  runs.push(...postgres.runs);
}

// json-server, loaded with the same people records (their stored API JSON), as a peer. A
// million may not fit its memory: then it is loaded with the most it took, and said so.
const peopleFile = join(dir, 'people.ndjson');
await writePeopleNdjson(databaseUrl, peopleFile);
let peerRecords = Math.min(people, jsonServerMax ?? people);
let peer: Awaited<ReturnType<typeof startChildWithMessage>> | undefined;
while (!peer && peerRecords >= 1000) {
  try {
    console.log(`loading json-server with ${peerRecords.toLocaleString('en-US')} people …`);
    peer = await startChildWithMessage(
      'bench/json-server-peer.ts',
      [peopleFile, String(PEER_PORT), String(peerRecords)],
      { NODE_OPTIONS: '--max-old-space-size=12288' },
    );
  } catch (error) {
    console.log(`json-server failed with ${peerRecords}: ${(error as Error).message}`);
    peerRecords = Math.floor(peerRecords / 2);
  }
}
const peerRuns: LoadFigures[] = [];
if (peer) {
  const peerBase = `http://127.0.0.1:${PEER_PORT}`;
  peerRuns.push(await saturate('json-server, first page', `${peerBase}/people?_page=1&_limit=50`));
  const deepPageNo = Math.max(1, Math.round(peerRecords / 2 / 50));
  peerRuns.push(
    await saturate('json-server, deep page', `${peerBase}/people?_page=${deepPageNo}&_limit=50`),
  );
  await stopChild(peer.child);
}

const floorRate = runs[0]!.reqPerSec;
const first = runs[1]!;
const deep = runs[2]!;
const walkRate = walked / walkSeconds;
const peerFirst = peerRuns[0];
const peerSize =
  peerRecords === people
    ? ''
    : ` (json-server loaded with ${peerRecords.toLocaleString('en-US')} people only)`;
const maxHalfP99 = Math.max(...halfRuns.map((r) => r.p99));
const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
const targets: (string | number)[][] = [
  [
    'list page ≥ 0.6 of the floor',
    (first.reqPerSec / floorRate).toFixed(2),
    verdict(first.reqPerSec / floorRate >= 0.6),
  ],
  [
    'deep page within 10% of the first',
    (deep.reqPerSec / first.reqPerSec).toFixed(2),
    verdict(deep.reqPerSec >= 0.9 * first.reqPerSec),
  ],
  [
    `≥ 10 × json-server${peerSize}`,
    peerFirst ? `${(first.reqPerSec / peerFirst.reqPerSec).toFixed(1)} ×` : 'not run',
    peerFirst ? verdict(first.reqPerSec >= 10 * peerFirst.reqPerSec) : 'not run',
  ],
  [
    'cursor walk ≥ 200,000 records/s',
    Math.round(walkRate).toLocaleString('en-US'),
    verdict(walkRate >= 200_000),
  ],
  ['p99 < 20 ms at half saturation', `${maxHalfP99} ms (worst)`, verdict(maxHalfP99 < 20)],
  [
    'server memory < 300 MB',
    `${apiMemory.peakMB} MB peak RSS (${apiMemory.anonMB} MB anonymous at the end)`,
    verdict(apiMemory.peakMB < 300),
  ],
];
const report = [
  `salescrm bench — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, SQLite${postgres ? ' and PostgreSQL' : ''}; load: ${runs[0]!.tool} for saturation${pinned ? ' (servers pinned to the last core, clients to the others)' : ''}, ${halfRuns[0]!.tool === 'wrk' ? 'wrk paced by bench/rate.lua' : 'an open loop (bench/open-loop.ts)'} for fixed rates`,
  `workspace: ${people.toLocaleString('en-US')} people, ${totalRecords.toLocaleString('en-US')} records in all; page: ${firstPage.bytes.length.toLocaleString('en-US')} bytes (50 people); deep page at person ${Math.round(people / 2).toLocaleString('en-US')}`,
  '',
  table(
    ['run', 'req/s', 'p50 ms', 'p99 ms', 'ratio to floor', 'errors'],
    [...runs, ...peerRuns].map((r) => [
      r.name,
      Math.round(r.reqPerSec),
      r.p50,
      r.p99,
      (r.reqPerSec / floorRate).toFixed(2),
      r.errors,
    ]),
  ),
  '',
  table(
    ['measure', 'value'],
    [
      [
        'demo build',
        buildSeconds === null
          ? 'reused (--db)'
          : `${buildSeconds.toFixed(1)} s (${Math.round(totalRecords / buildSeconds).toLocaleString('en-US')} records/s)`,
      ],
      [
        'API server memory (VmHWM, /proc)',
        `${apiMemory.peakMB} MB peak, ${apiMemory.rssMB} MB at the end, ${apiMemory.anonMB} MB of it anonymous`,
      ],
      [
        'full cursor walk, limit=100 (median of 3)',
        `${walked.toLocaleString('en-US')} people in ${pages} pages, ${walkSeconds.toFixed(2)} s: ${Math.round(walked / walkSeconds).toLocaleString('en-US')} records/s`,
      ],
      ['full cursor walks (3), records/s', walkRates(walks)],
      [
        'same walk, no read-ahead (PAGE_CACHE_BYTES=0), median',
        `${walkUnaided.seconds.toFixed(2)} s: ${Math.round(walkUnaided.walked / walkUnaided.seconds).toLocaleString('en-US')} records/s`,
      ],
      ['walks with no read-ahead (3), records/s', walkRates(walksUnaided)],
      ['first page saturation runs (3), req/s', saturationRates(firstRuns)],
      ['deep page saturation runs (3), req/s', saturationRates(deepRuns)],
      ...(wrkWalk
        ? [
            [
              'same walk from wrk (C client)',
              `${wrkWalk.records.toLocaleString('en-US')} people in ${wrkWalk.seconds.toFixed(1)} s: ${Math.round(wrkWalk.records / wrkWalk.seconds).toLocaleString('en-US')} records/s`,
            ],
          ]
        : []),
      [
        'store + rendering path alone (no HTTP)',
        `${direct.records.toLocaleString('en-US')} people in ${direct.seconds.toFixed(2)} s: ${Math.round(direct.records / direct.seconds).toLocaleString('en-US')} records/s`,
      ],
      ['deep page / first page req/s', (runs[2]!.reqPerSec / runs[1]!.reqPerSec).toFixed(2)],
      ...(postgres
        ? [
            ['PostgreSQL server', postgres.server],
            [
              'PostgreSQL demo build',
              `${postgres.buildSeconds.toFixed(1)} s (${Math.round(postgres.records / postgres.buildSeconds).toLocaleString('en-US')} records/s)`,
            ],
            [
              'PostgreSQL full cursor walk, limit=100',
              `${postgres.walk.records.toLocaleString('en-US')} people in ${postgres.walk.seconds.toFixed(2)} s: ${Math.round(postgres.walk.records / postgres.walk.seconds).toLocaleString('en-US')} records/s`,
            ],
            [
              'PostgreSQL / SQLite req/s, first page',
              (postgres.runs[0]!.reqPerSec / runs[1]!.reqPerSec).toFixed(2),
            ],
            [
              'PostgreSQL / SQLite req/s, deep page',
              (postgres.runs[1]!.reqPerSec / runs[2]!.reqPerSec).toFixed(2),
            ],
          ]
        : []),
      ['deep page bytes', deepPage.bytes.length.toLocaleString('en-US')],
      ...(peerFirst
        ? [
            [
              'ours / json-server, first page req/s',
              (first.reqPerSec / peerFirst.reqPerSec).toFixed(1),
            ],
          ]
        : []),
    ],
  ),
  '',
  table(['target (issue 6)', 'measured', ''], targets),
].join('\n');
console.log(`\n${report}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.md', `${report}\n`);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);

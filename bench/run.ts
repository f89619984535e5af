// `npm run bench [-- --people N] [--seconds S] [--database postgres]`: builds a demo
// workspace, then measures the list endpoint against a bare node:http server sending the
// same bytes, a deep page, a full cursor walk and the single deal, all in one run, and
// prints a table. `--database postgres` also builds the demo on PostgreSQL
// (BENCH_DATABASE_URL, default the local server) and loads its first and deep pages.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildDemo,
  countOccurrences,
  countRecords,
  type LoadFigures,
  load,
  loadWithWrk,
  startChild,
  stopChild,
  table,
  walkInProcess,
  walkWithWrk,
} from './lib.ts';
import { benchPostgres, type PostgresFigures } from './postgres.ts';
import { RawClient } from './raw-client.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string', default: 'sqlite' },
  },
});
if (values.database !== 'sqlite' && values.database !== 'postgres') {
  throw new Error(
    `--database is sqlite or postgres (SQLite is always measured), not ${values.database}`,
  );
}
const people = Number(values.people);
const seconds = Number(values.seconds);
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const API_PORT = 38_411;
const FLOOR_PORT = 38_412;

console.log(`building a demo workspace of ${people.toLocaleString('en-US')} people in ${dir} …`);
const demo = buildDemo(databaseUrl, people);
const buildSeconds = demo.seconds;
const totalRecords = await countRecords(databaseUrl);
console.log(
  `built in ${buildSeconds.toFixed(1)} s: ${totalRecords.toLocaleString('en-US')} records`,
);

const headers = { authorization: `Bearer ${demo.token}` };
const api = await startChild('bench/api-server.ts', [databaseUrl, String(API_PORT)]);
const base = `http://127.0.0.1:${API_PORT}`;

async function getJson(path: string) {
  const res = await fetch(`${base}${path}`, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { bytes: Buffer.from(await res.arrayBuffer()), json: null as unknown };
}

// A full cursor walk of every person, 100 a page, one client: the store and rendering path.
let cursor: string | null = null;
let walked = 0;
let pages = 0;
let deepCursor = '';
const walker = await RawClient.open('127.0.0.1', API_PORT);
const walkStart = performance.now();
do {
  // The client reads only what it must (the record count and the cursor at the tail),
  // so the walk measures the server.
  const res = await walker.get(`/v2/people?limit=100${cursor ? `&cursor=${cursor}` : ''}`, headers);
  if (res.status !== 200) throw new Error(`walk: ${res.status} ${res.body.toString()}`);
  const bytes = res.body;
  walked += countOccurrences(bytes);
  cursor = (/"nextCursor":(null|"([^"]*)")\}\}$/.exec(bytes.subarray(-400).toString())?.[2] ??
    null) as string | null;
  pages += 1;
  if (walked >= people / 2 && !deepCursor && cursor) deepCursor = cursor;
} while (cursor);
const walkSeconds = (performance.now() - walkStart) / 1000;
walker.close();
if (walked !== people) throw new Error(`walk saw ${walked} people, expected ${people}`);

// The same walk from wrk (a C client, one connection, bench/walk.lua), so the client's
// own cost is small; and the store and rendering path alone, in this process, no HTTP.
const wrkWalk = walkWithWrk(`${base}`, headers, Math.min(seconds, 10));
const direct = await walkInProcess(databaseUrl);

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
runs.push(await saturate('GET /v2/people, first page', `${base}/v2/people`, headers));
runs.push(
  await saturate('GET /v2/people, deep page', `${base}/v2/people?cursor=${deepCursor}`, headers),
);
runs.push(await saturate('GET /v2/deal/{id}', `${base}/v2/deal/${someDeal}`, headers));
const half = Math.max(1, Math.round(runs[1]!.reqPerSec / 2));
const halfDeal = Math.max(1, Math.round(runs[3]!.reqPerSec / 2));
runs.push(
  await load(`GET /v2/people, first page at ${half} req/s`, `${base}/v2/people`, {
    seconds,
    headers,
    rate: half,
  }),
);
runs.push(
  await load(`GET /v2/deal/{id} at ${halfDeal} req/s`, `${base}/v2/deal/${someDeal}`, {
    seconds,
    headers,
    rate: halfDeal,
  }),
);
await stopChild(floor);
await stopChild(api);
let postgres: PostgresFigures | undefined;
if (values.database === 'postgres') {
  postgres = await benchPostgres({ people, port: API_PORT + 2, keep: values.keep, saturate });
  runs.push(...postgres.runs);
}

const floorRate = runs[0]!.reqPerSec;
const report = [
  `salescrm bench — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, SQLite${postgres ? ' and PostgreSQL' : ''}; load: ${runs[0]!.tool} for saturation, autocannon for fixed rates`,
  `workspace: ${people.toLocaleString('en-US')} people, ${totalRecords.toLocaleString('en-US')} records in all; page: ${firstPage.bytes.length.toLocaleString('en-US')} bytes (50 people); deep page at person ${Math.round(people / 2).toLocaleString('en-US')}`,
  '',
  table(
    ['run', 'req/s', 'p50 ms', 'p99 ms', 'ratio to floor', 'errors'],
    runs.map((r) => [
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
        `${buildSeconds.toFixed(1)} s (${Math.round(totalRecords / buildSeconds).toLocaleString('en-US')} records/s)`,
      ],
      [
        'full cursor walk, limit=100',
        `${walked.toLocaleString('en-US')} people in ${pages} pages, ${walkSeconds.toFixed(2)} s: ${Math.round(walked / walkSeconds).toLocaleString('en-US')} records/s`,
      ],
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
    ],
  ),
].join('\n');
console.log(`\n${report}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.md', `${report}\n`);
if (!values.keep) rmSync(dir, { recursive: true, force: true });

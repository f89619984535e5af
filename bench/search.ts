// `npm run bench:search [-- --people N] [--runs R] [--db FILE] [--database postgres [--reuse]] [--only REGEX]`:
// builds a demo workspace of N people (or takes FILE, kept by an earlier run with --keep),
// then times searches through the API in process (Fastify's inject: no socket, so the
// figures are the search's own): p50 and p99 of each kind the search issue names, beside a
// plain first page of `GET /v2/people` as the baseline of the same run.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/database.ts';
import {
  buildDemo,
  countArg,
  countPeople,
  inProcessApp,
  onPostgres,
  percentile,
  table,
  tokenOfExistingDemo,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '15' },
    db: { type: 'string' },
    keep: { type: 'boolean', default: false },
    // PostgreSQL: time the demo the database holds already (built by an earlier run).
    reuse: { type: 'boolean', default: false },
    // Only the searches whose name matches (a regular expression), e.g. to leave out the walks.
    only: { type: 'string' },
    database: { type: 'string', default: 'sqlite' },
  },
});
const runs = countArg('runs', values.runs);
const people = countArg('people', values.people);
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-search-'));
const databaseUrl =
  values.database === 'postgres'
    ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/salescrm_bench_search')
    : `sqlite:${values.db ?? join(dir, 'search.db')}`;

let demo: { token: string; seconds?: number };
// PostgreSQL: the demo is built in the database named by the URL, made anew (dropped first
// when an earlier run left it), then analyzed as autovacuum would soon after a bulk load.
if (values.db || values.reuse) demo = await tokenOfExistingDemo(databaseUrl);
else {
  if (values.database === 'postgres') await freshDatabase(databaseUrl);
  demo = buildDemo(databaseUrl, people);
  if (values.database === 'postgres') await onPostgres(databaseUrl, 'vacuum (analyze)');
}
if ('seconds' in demo)
  console.log(`demo of ${values.people} people built in ${demo.seconds?.toFixed(1)} s`);

const store = openStore(databaseUrl);
// Walks that take longer than the server's 10 s are timed, not refused.
const app = await inProcessApp(store, { requestTimeoutMs: 3_600_000 });
const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };

async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url,
    headers,
    payload: body ? JSON.stringify(body) : undefined,
  });
  if (res.statusCode !== 200)
    throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as { data: Record<string, unknown> };
}

// Values that exist in the demo: an e-mail, 80 names, a day range.
const sample = (await call('GET', '/v2/people?limit=100')).data.peopleList as Record<
  string,
  unknown
>[];
const email = sample.find((p) => p['이메일'])!['이메일'];
const names = [...new Set(sample.map((p) => p['이름'] as string))].slice(0, 80);

// A search needs a filter (as the live API's): "over all" is `id EXISTS`, which every record passes.
const search = (filters: unknown[], more: Record<string, unknown> = {}) => ({
  filterGroupList: [
    { filters: filters.length ? filters : [{ fieldName: 'id', operator: 'EXISTS' }] },
  ],
  ...more,
});
const cases: [string, 'GET' | 'POST', string, unknown?][] = [
  ['baseline: GET /v2/people, first page', 'GET', '/v2/people'],
  [
    'EQ on 이메일 (index)',
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '이메일', operator: 'EQ', value: email }]),
  ],
  [
    `IN over ${names.length} names (index)`,
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '이름', operator: 'IN', value: names }]),
  ],
  [
    'CONTAINS 2 syllables on 이름 (pairs index)',
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '이름', operator: 'CONTAINS', value: '민준' }]),
  ],
  [
    'custom select 고객 등급 EQ (value index)',
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '고객 등급', operator: 'EQ', value: 'VIP' }]),
  ],
  [
    'date range on 생일 (value index)',
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '생일', operator: 'DATE_BETWEEN', value: ['1990-01-01', '1990-12-31'] }]),
  ],
  [
    'rare CONTAINS (walks every record)',
    'POST',
    '/v2/object/people/search',
    search([{ fieldName: '이메일', operator: 'CONTAINS', value: 'zz9' }]),
  ],
  [
    'sort by 생일 (custom date) over all, first page',
    'POST',
    '/v2/object/people/search',
    search([], { sortList: [{ fieldName: '생일', direction: 'desc' }] }),
  ],
  [
    'sort by 직원 수 (custom number) over all organizations',
    'POST',
    '/v2/object/organization/search',
    search([], { sortList: [{ fieldName: '직원 수', direction: 'desc' }] }),
  ],
  [
    'two filters, few matches: 고객 등급 and a birthday (value index)',
    'POST',
    '/v2/object/people/search',
    search([
      { fieldName: '고객 등급', operator: 'EQ', value: 'VIP' },
      { fieldName: '생일', operator: 'DATE_IS_SPECIFIC_DAY', value: '1990-05-05' },
    ]),
  ],
  [
    'sort by 딜 개수 (built-in number: walk) over all, first page',
    'POST',
    '/v2/object/people/search',
    search([], { sortList: [{ fieldName: '딜 개수', direction: 'desc' }] }),
  ],
];

const rows: (string | number)[][] = [];
const only = values.only === undefined ? undefined : new RegExp(values.only);
for (const [name, method, url, body] of cases) {
  if (only && !only.test(name)) continue;
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const answer = await call(method, url, body);
    times.push(performance.now() - started);
    found = ((answer.data.objectList ?? answer.data.peopleList) as unknown[]).length;
  }
  rows.push([name, percentile(times, 50).toFixed(1), percentile(times, 99).toFixed(1), found]);
}
console.log(`\n${values.database}, ${await countPeople(databaseUrl)} people, ${runs} runs each\n`);
console.log(table(['search', 'p50 ms', 'p99 ms', 'records on the page'], rows));
await app.close();
await store.close();
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${databaseUrl}`);

/** Drops and creates the database `url` names, on its server. */
async function freshDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = '/postgres';
  const quoted = `"${name.replace(/"/g, '""')}"`;
  await onPostgres(server.toString(), `drop database if exists ${quoted}`);
  await onPostgres(server.toString(), `create database ${quoted}`);
}

// `npm run bench:batch [-- --people N] [--rounds R] [--postgres]`: builds a demo workspace
// (SQLite in a temporary file; with `--postgres`, or `DATABASE_URL=postgres://...`, also a
// fresh database of that PostgreSQL server), serves it from a child process, and measures
// with one client, one call after another: records/s of `POST /v3/object/read` of 500 ids
// (whole records, and with a `fieldList` of three fields), of `POST /v3/object/create` of 100
// people, and of 100 `POST /v2/people` one by one for comparison.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../src/store/database.ts';
import { buildDemo, countArg, startChild, stopChild, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '40' },
    postgres: { type: 'boolean', default: false },
  },
});
const people = countArg('people', values.people);
const rounds = countArg('rounds', values.rounds);
const postgresServer =
  process.env.DATABASE_URL?.startsWith('postgres') === true
    ? process.env.DATABASE_URL
    : values.postgres
      ? process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
      : undefined;
const PORT = 38_531;

type Row = (string | number)[];

/** The ids of up to `limit` people of the workspace. */
async function peopleIds(databaseUrl: string, workspaceId: string): Promise<string[]> {
  const store = openStore(databaseUrl);
  try {
    const rows = await store.db
      .selectFrom('people')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    return rows.map((r) => r.id);
  } finally {
    await store.close();
  }
}

function sample<T>(items: readonly T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.floor(Math.random() * items.length)]!);
  return out;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Calls `send` `rounds` times; records/s over the whole run, and p50/p99 of one call in ms. */
async function measure(
  label: string,
  records: number,
  send: (round: number) => Promise<Response>,
  expected: number,
): Promise<Row> {
  await (await send(-1)).arrayBuffer(); // warm-up
  const times: number[] = [];
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    const t = performance.now();
    const res = await send(round);
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((x, y) => x - y);
  return [
    label,
    Math.round((records * rounds) / seconds),
    quantile(times, 0.5),
    quantile(times, 0.99),
  ];
}

/** The figures of one store: a demo built, served, and the four runs. */
async function benchStore(name: string, databaseUrl: string): Promise<Row[]> {
  console.log(`${name}: building a demo workspace of ${people.toLocaleString('en-US')} people …`);
  const demo = buildDemo(databaseUrl, people);
  console.log(`${name}: built in ${demo.seconds.toFixed(1)} s`);
  const ids = await peopleIds(databaseUrl, demo.workspaceId);
  const api = await startChild('bench/api-server.ts', [databaseUrl, String(PORT)]);
  const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) =>
    fetch(`http://127.0.0.1:${PORT}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
  const tag = randomBytes(3).toString('hex');
  try {
    const rows: Row[] = [];
    rows.push(
      await measure(
        `${name}: v3/object/read, 500 ids`,
        500,
        () => post('/v3/object/read', { objectType: 'people', idList: sample(ids, 500) }),
        200,
      ),
    );
    rows.push(
      await measure(
        `${name}: v3/object/read, 500 ids, fieldList of 3`,
        500,
        () =>
          post('/v3/object/read', {
            objectType: 'people',
            idList: sample(ids, 500),
            fieldList: ['이름', '이메일', '전화'],
          }),
        200,
      ),
    );
    rows.push(
      await measure(
        `${name}: v3/object/create, 100 people`,
        100,
        (round) =>
          post('/v3/object/create', {
            objectType: 'people',
            inputList: Array.from({ length: 100 }, (_, i) => ({
              data: {
                이름: `일괄 ${round} ${i}`,
                이메일: `batch-${tag}-${round}-${i}@example.com`,
                전화: '010-0000-0000',
              },
            })),
          }),
        201,
      ),
    );
    // The same 100 people through the v2 create, one call each (one "round" = 100 calls).
    const single = await measure(
      `${name}: v2/people create x100 (one by one)`,
      100,
      async (round) => {
        let last: Response | undefined;
        for (let i = 0; i < 100; i++) {
          last = await post('/v2/people', {
            name: `하나씩 ${round} ${i}`,
            fieldList: [
              { name: '이메일', stringValue: `single-${tag}-${round}-${i}@example.com` },
              { name: '전화', stringValue: '010-0000-0000' },
            ],
          });
          if (i < 99) await last.arrayBuffer();
        }
        return last!;
      },
      201,
    );
    rows.push(single);
    return rows;
  } finally {
    await stopChild(api);
  }
}

const rows: Row[] = [];
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-batch-'));
try {
  rows.push(...(await benchStore('SQLite', `sqlite:${join(dir, 'bench.db')}`)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (postgresServer) {
  const name = `salescrm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresServer });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(postgresServer);
  url.pathname = `/${name}`;
  try {
    rows.push(...(await benchStore('PostgreSQL', url.toString())));
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}
console.log(
  `\n${rounds} calls each, one client, ${people.toLocaleString('en-US')} people in the demo:\n`,
);
console.log(table(['operation', 'records/s', 'p50 ms', 'p99 ms'], rows));

// `npm run bench:write-anatomy [-- --people N] [--creates N]`: where a write's cost goes, in
// this process (no HTTP): person creates, then deal creates, through `app.inject` against a
// SQLite demo workspace of N people. For each: the process's CPU a create, the main thread's
// share (from /proc/self/task), SQLite's time a create by statement (every better-sqlite3
// statement timed), and the WAL frames one create's commit writes, by the b-tree each page
// belongs to (the WAL parsed after single creates, pages named by SQLite's `dbstat`).
// A companion to `npm run bench:writes`, which measures the same creates over HTTP.

import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../src/store/database.ts';
import { buildDemo, countArg, inProcessApp, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    creates: { type: 'string', default: '2000' },
  },
});
const people = countArg('people', values.people);
const creates = countArg('creates', values.creates);
// The JIT's warm-up: a server's CPU per create keeps falling for its first ~3,000 creates.
const WARM = 3_000;
const SINGLES = 20;

/** SQLite's time by statement while `timing.on`: every statement prepared from now on is timed. */
const timing = { on: false, byStatement: new Map<string, { runs: number; ms: number }>() };
const prepare = SQLite.prototype.prepare;
SQLite.prototype.prepare = function timedPrepare(this: SQLite.Database, source: string) {
  const statement = prepare.call(this, source);
  const label = source.replace(/\s+/g, ' ').slice(0, 90);
  for (const method of ['run', 'all', 'get'] as const) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    (statement as unknown as Record<string, unknown>)[method] = function timed(
      this: unknown,
      ...args: unknown[]
    ) {
      if (!timing.on) return original.apply(this, args);
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const seen = timing.byStatement.get(label) ?? { runs: 0, ms: 0 };
        seen.runs += 1;
        seen.ms += performance.now() - started;
        timing.byStatement.set(label, seen);
      }
    };
  }
  return statement;
} as typeof SQLite.prototype.prepare;

/** CPU milliseconds of this process's main thread and of all its threads, from /proc. */
function threadCpu(): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
      all += ms;
      if (Number(tid) === process.pid) main += ms;
    } catch {} // a thread that ended meanwhile
  }
  return { main, all };
}

const dir = mkdtempSync(join(tmpdir(), 'salescrm-write-anatomy-'));
const base = join(dir, 'demo.db');
console.log(`building a demo workspace of ${people} people in ${dir} …`);
const demo = buildDemo(`sqlite:${base}`, people);
const ids = new SQLite(base, { readonly: true });
const stage = ids
  .prepare(
    `select s.pipeline_id, s.id from pipeline_stages s join pipelines p
      on p.workspace_id = s.workspace_id and p.id = s.pipeline_id where p.kind = 'deal' limit 1`,
  )
  .get() as { pipeline_id: string; id: string };
const personIds = (ids.prepare('select id from people limit 1000').all() as { id: string }[]).map(
  (r) => r.id,
);
ids.close();

const kinds = {
  'person create': {
    url: '/v2/people',
    body: (n: number) => ({ name: `벤치 고객 ${n}` }),
  },
  'deal create': {
    url: '/v2/deal',
    body: (n: number) => ({
      name: `벤치 딜 ${n}`,
      pipelineId: stage.pipeline_id,
      pipelineStageId: stage.id,
      status: 'In progress',
      peopleId: personIds[n % personIds.length],
      price: 1_000_000,
      fieldList: [{ name: '수주 예정일', dateValue: '2027-01-31' }],
    }),
  },
};

const summary: (string | number)[][] = [];
for (const [kind, { url, body }] of Object.entries(kinds)) {
  // A copy of the demo each, so the second kind does not start on the first one's writes.
  const file = join(dir, `${kind.replace(' ', '-')}.db`);
  copyFileSync(base, file);
  const store = openStore(`sqlite:${file}`);
  await store.migrate();
  const app = await inProcessApp(store);
  const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };
  let n = 0;
  const create = async (target: FastifyInstance) => {
    const res = await target.inject({ method: 'POST', url, headers, payload: body(++n) });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  };
  for (let i = 0; i < WARM; i++) await create(app);

  timing.byStatement.clear();
  timing.on = true;
  const cpu = process.cpuUsage();
  const threads = threadCpu();
  for (let i = 0; i < creates; i++) await create(app);
  const used = process.cpuUsage(cpu);
  const after = threadCpu();
  timing.on = false;
  const cpuMs = (used.user + used.system) / 1000 / creates;
  const mainMs = (after.main - threads.main) / creates;
  const sqliteMs = [...timing.byStatement.values()].reduce((sum, s) => sum + s.ms, 0) / creates;
  const statements = [...timing.byStatement.values()].reduce((sum, s) => sum + s.runs, 0) / creates;
  summary.push([kind, cpuMs, mainMs, sqliteMs, statements]);

  console.log(`\n${kind}: the statements SQLite spent most on, per create (${creates} creates)\n`);
  console.log(
    table(
      ['statement', 'ms a create', 'runs a create'],
      [...timing.byStatement]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 10)
        .map(([label, s]) => [label, (s.ms / creates).toFixed(3), (s.runs / creates).toFixed(2)]),
    ),
  );

  // One create at a time with the WAL restarted before it: its frames are the commit's.
  const admin = new SQLite(file);
  const frames = new Map<number, number>();
  for (let i = 0; i < SINGLES; i++) {
    admin.pragma('wal_checkpoint(TRUNCATE)');
    const start = walLength(file);
    await create(app);
    const wal = readFileSync(`${file}-wal`);
    const pageSize = wal.readUInt32BE(8);
    for (let at = Math.max(32, start); at + 24 <= wal.length; at += 24 + pageSize) {
      const page = wal.readUInt32BE(at);
      frames.set(page, (frames.get(page) ?? 0) + 1);
    }
  }
  const treeOf = new Map(
    (
      admin.prepare('select pageno, name, pagetype from dbstat').all() as {
        pageno: number;
        name: string;
        pagetype: string;
      }[]
    ).map((p) => [p.pageno, `${p.name} (${p.pagetype})`]),
  );
  admin.close();
  const byTree = new Map<string, number>();
  for (const [page, count] of frames) {
    const tree = page === 1 ? 'the file header (page 1)' : (treeOf.get(page) ?? `page ${page}`);
    byTree.set(tree, (byTree.get(tree) ?? 0) + count);
  }
  const total = [...frames.values()].reduce((a, b) => a + b, 0) / SINGLES;
  console.log(`\n${kind}: WAL frames of one commit, by b-tree (${total.toFixed(1)} in all)\n`);
  console.log(
    table(
      ['b-tree', 'frames a create'],
      [...byTree]
        .sort((a, b) => b[1] - a[1])
        .map(([tree, count]) => [tree, (count / SINGLES).toFixed(2)]),
    ),
  );
  await app.close();
  await store.close();
}

console.log(`\nwrite anatomy — ${new Date().toISOString()}, Node ${process.version}\n`);
console.log(
  table(
    [
      'write',
      'process CPU ms a create',
      'main thread ms',
      'SQLite ms (in the main thread)',
      'statements a create',
    ],
    summary.map((r) => r.map((c) => (typeof c === 'number' ? c.toFixed(3) : c))),
  ),
);
rmSync(dir, { recursive: true, force: true });

function walLength(file: string): number {
  try {
    return readFileSync(`${file}-wal`).length;
  } catch {
    return 0;
  }
}

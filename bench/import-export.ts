/**
 * `npm run bench:import [-- --people N] [--db FILE]`: builds a demo (or takes the one in FILE),
 * exports it (in a child), imports the file into a fresh workspace (in a child), and prints
 * records/s and peak RSS of both, each child timing the command itself and reading its own
 * `process.resourceUsage().maxRSS`. The import goes into the demo's database when the bench
 * built it, and into a new database with `--db` (FILE is only read).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createWorkspace } from '../src/resources/workspaces/writes.ts';
import { openStore } from '../src/store/database.ts';
import { buildDemo, countArg, table } from './lib.ts';

const { values } = parseArgs({ options: { people: { type: 'string' }, db: { type: 'string' } } });
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-import-'));
const demoUrl = `sqlite:${values.db ?? join(dir, 'bench.db')}`;
const importUrl = values.db ? `sqlite:${join(dir, 'import.db')}` : demoUrl;
const file = join(dir, 'export.ndjson');

/**
 * Runs `export|import ...` in a child (`bench/transfer-child.ts`); returns the seconds and
 * peak RSS in MB the child measured around the command itself, excluding its start-up.
 * `BENCH_CPU_PROF=DIR` writes a CPU profile of each child there.
 */
function timedChild(
  databaseUrl: string,
  args: string[],
): { seconds: number; maxRssMb: number; stdout: string } {
  const prof = process.env.BENCH_CPU_PROF;
  const run = spawnSync(
    process.execPath,
    [
      ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []),
      '--import',
      'tsx',
      'bench/transfer-child.ts',
      ...args,
    ],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  const figures = /BENCH (\{.*\})/.exec(run.stderr);
  if (!figures) throw new Error(`${args[0]}: no figures from the child: ${run.stderr}`);
  const { ms, maxRssKb } = JSON.parse(figures[1]!) as { ms: number; maxRssKb: number };
  return { seconds: ms / 1000, maxRssMb: maxRssKb / 1024, stdout: run.stdout };
}

/** The workspace of the demo database at `url` (read only). */
async function demoWorkspace(url: string): Promise<string> {
  const store = openStore(url);
  try {
    return (await store.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow()).id;
  } finally {
    await store.close();
  }
}

try {
  let workspaceId: string;
  if (values.db) {
    if (!existsSync(values.db)) throw new Error(`--db ${values.db}: no such file`);
    console.error(`exporting the demo in ${values.db}, importing into a new database ...`);
    workspaceId = await demoWorkspace(demoUrl);
  } else {
    const people = values.people === undefined ? 20_000 : countArg('people', values.people);
    console.error(`building a demo of ${people} people ...`);
    workspaceId = buildDemo(demoUrl, people).workspaceId;
  }
  const exported = timedChild(demoUrl, ['export', '--workspace', workspaceId, file, '--quiet']);
  // The header's counts: the file itself may be too large for one string.
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const header = JSON.parse(head.toString('utf8').split('\n')[0]!) as {
    counts: Record<string, number>;
  };
  const records = Object.values(header.counts).reduce((a, b) => a + b, 0);
  const store = openStore(importUrl);
  await store.migrate();
  const target = await createWorkspace(store, 'bench import');
  await store.close();
  const imported = timedChild(importUrl, ['import', '--workspace', target, file, '--quiet']);
  const importedRecords = Number(/imported (\d+)/.exec(imported.stdout)?.[1] ?? Number.NaN);
  const mb = (statSync(file).size / 1024 / 1024).toFixed(0);
  console.log(
    table(
      ['step', 'records', 'seconds', 'records/s', 'peak RSS MB'],
      [
        [
          'export',
          records,
          exported.seconds.toFixed(2),
          Math.round(records / exported.seconds),
          exported.maxRssMb.toFixed(0),
        ],
        [
          'import',
          importedRecords,
          imported.seconds.toFixed(2),
          Math.round(importedRecords / imported.seconds),
          imported.maxRssMb.toFixed(0),
        ],
      ],
    ),
  );
  const people = header.counts.person ?? 0;
  console.log(
    `${people} people; file ${mb} MB; imported into ${values.db ? 'a new database' : "the demo's database"}; times measured inside the child around the command (start-up excluded).`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

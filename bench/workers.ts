// `npm run bench:workers [-- --people N] [--seconds S] [--rounds R] [--database-url URL]`:
// req/s of the first GET /v2/people page from `salescrm serve --workers 2` beside
// `--workers 1`, measured in the same run against the same demo workspace. Rounds
// alternate 1, 2, 1, 2, … so that a noisy neighbour hits both alike.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDemo, countArg, type LoadFigures, load, loadWithWrk, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    'database-url': { type: 'string' },
  },
});
const people = countArg('people', values.people);
const seconds = countArg('seconds', values.seconds);
const rounds = countArg('rounds', values.rounds);
const connections = countArg('connections', values.connections);
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-workers-'));
const databaseUrl = values['database-url'] ?? `sqlite:${join(dir, 'bench.db')}`;
const PORT = 38_421;

console.log(`building a demo workspace of ${people.toLocaleString('en-US')} people …`);
const demo = buildDemo(databaseUrl, people);
console.log(`built in ${demo.seconds.toFixed(1)} s`);
const headers = { authorization: `Bearer ${demo.token}` };
const url = `http://127.0.0.1:${PORT}/v2/people`;

/** Starts `salescrm serve --workers N` and waits until it says it listens. */
async function startServe(workers: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'serve',
      '--port',
      String(PORT),
      '--workers',
      String(workers),
    ],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('salescrm is listening on')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`serve --workers ${workers} exited with ${code}`)),
    );
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const saturate = (name: string) =>
  loadWithWrk(name, url, { seconds, headers, connections }) ??
  load(name, url, { seconds, headers, connections });

const runs: (LoadFigures & { workers: number })[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const workers of [1, 2]) {
    const server = await startServe(workers);
    // Warm the page cache of every worker before measuring.
    await load('warm-up', url, { seconds: 1, headers, connections: 8 });
    const figures = await saturate(`--workers ${workers}, round ${round}`);
    runs.push({ ...figures, workers });
    console.log(`${figures.name}: ${Math.round(figures.reqPerSec)} req/s`);
    await stop(server);
  }
}

const mean = (workers: number) => {
  const of = runs.filter((r) => r.workers === workers);
  return of.reduce((sum, r) => sum + r.reqPerSec, 0) / of.length;
};
const report = [
  `salescrm bench:workers — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${databaseUrl.split(':')[0]}; load: ${runs[0]!.tool}, ${connections} connections, ${seconds} s a run; the load generator shares the machine`,
  `workspace: ${people.toLocaleString('en-US')} people; GET /v2/people (first page, 50 people), rate limit off`,
  '',
  table(
    ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    runs.map((r) => [r.name, Math.round(r.reqPerSec), r.p50, r.p99, r.errors]),
  ),
  '',
  `--workers 2 / --workers 1 (mean req/s): ${(mean(2) / mean(1)).toFixed(2)}`,
].join('\n');
console.log(`\n${report}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/workers.md', `${report}\n`);
if (!values['database-url']) rmSync(dir, { recursive: true, force: true });

// `npm run bench:writes [-- --people N] [--seconds S]`: builds a demo workspace, then measures
// POST /v2/deal with one client and with eight, against the same server refusing a bad
// body (HTTP, auth and body parsing, no transaction) as the baseline; then, in this
// process, how long one write takes to refresh a person with 1,000 deals when one of them
// changes outcome, against a person with one deal.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { updateDeal } from '../src/resources/deals/commands.ts';
import { insertDeals } from '../src/resources/deals/writes.ts';
import { openStore } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { buildDemo, startChild, stopChild, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
  },
});
const people = Number(values.people);
const seconds = Number(values.seconds);
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

const api = await startChild('bench/api-server.ts', [databaseUrl, String(API_PORT)]);
const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };
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
  const personId = peopleIds[peopleIds.length - 1 - deals]!;
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
  .where('id', '=', peopleIds[peopleIds.length - 1 - 1_000]!)
  .executeTakeFirstOrThrow();
const counted = JSON.parse(String(person.body))['딜 개수'];
if (counted < 1_000) throw new Error(`the person shows ${counted} deals, expected 1,000 or more`);
await store.close();

const baseline = (c: number) =>
  runs.find((r) => r.connections === c && r.name.includes('baseline'))!;
const report = [
  `salescrm write bench — ${new Date().toISOString()}`,
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, SQLite; load: autocannon`,
  `workspace: ${people.toLocaleString('en-US')} people (demo built in ${demo.seconds.toFixed(1)} s); each deal links one of ${peopleIds.length.toLocaleString('en-US')} people`,
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

// `npm run bench:pull [-- --people N] [--rate-limit N] [--window-ms MS]`: how close a pull
// comes to the most its source's rate limit allows. A source (a demo of N people, 2,000 by
// default, on SQLite, served in this process on loopback) with its rate limit at 100
// requests a 10 s window, the live API's; the pull copies it into an empty database. The
// same pull runs first with the source's limit off: the baseline, what the pull costs in
// requests and how fast it goes when nothing holds it back. With the limit on, the most the
// limit allows is `requests / (limit / window)` seconds of walking; the figure is the
// records pulled a second against that most (goal: 90% or more), and the 429s met (goal:
// none but the odd one, each waited out).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { type PullResult, pull } from '../src/ingest/pull/run-pull.ts';
import { buildApp } from '../src/server/app.ts';
import { openStore } from '../src/store/database.ts';
import { countArg, table } from './lib.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '2000' },
    'rate-limit': { type: 'string', default: '100' },
    'window-ms': { type: 'string', default: '10000' },
  },
});
const people = countArg('people', values.people);
const limit = countArg('rate-limit', values['rate-limit']);
const windowMs = countArg('window-ms', values['window-ms']);

const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-pull-'));
try {
  const sourceStore = openStore(`sqlite:${join(dir, 'source.db')}`);
  await sourceStore.migrate();
  const built = performance.now();
  const demo = await createDemoWorkspace(sourceStore, { seed: 1, people });
  console.log(
    `demo of ${people} people built in ${((performance.now() - built) / 1000).toFixed(1)} s`,
  );

  /** One pull into a new database from the source served with `rateLimitMax`. */
  async function run(rateLimitMax: number) {
    const app = await buildApp({
      store: sourceStore,
      config: {
        basePath: '',
        rateLimitMax,
        rateLimitWindowMs: windowMs,
        pageCacheBytes: 8 * 1024 * 1024,
        logLevel: 'silent',
        logRequests: false,
        webhookAllowPrivate: false,
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const target = openStore(`sqlite:${join(dir, `copy-${rateLimitMax}.db`)}`);
    await target.migrate();
    const started = performance.now();
    let walkedAt = 0;
    let result: PullResult;
    try {
      result = await pull(target, {
        from: `http://127.0.0.1:${port}`,
        token: demo.token,
        stateDir: join(dir, `state-${rateLimitMax}`),
        onProgress: (p) => {
          if (p.stage === 'import' && walkedAt === 0) walkedAt = performance.now();
        },
      });
    } finally {
      await app.close();
      await target.close();
    }
    const total = (performance.now() - started) / 1000;
    const walk = (walkedAt - started) / 1000;
    return { result: result!, walk, total };
  }

  const base = await run(0);
  const limited = await run(limit);
  const perSecond = limit / (windowMs / 1000);
  const rows = [base, limited].map(({ result, walk, total }, i) => {
    const most = result.requests / perSecond;
    return [
      i === 0 ? 'limit off' : `${limit} / ${windowMs / 1000} s`,
      result.records,
      result.requests,
      result.rateLimited,
      walk.toFixed(1),
      total.toFixed(1),
      Math.round(result.records / total),
      i === 0 ? '' : Math.round(result.records / (most + (total - walk))),
      i === 0 ? '' : `${Math.round((100 * most) / walk)}%`,
    ];
  });
  console.log(
    table(
      [
        'source',
        'records',
        'requests',
        '429s',
        'walk s',
        'total s',
        'records/s',
        'most records/s the limit allows',
        'walk against the limit',
      ],
      rows,
    ),
  );
  console.log(
    `requests per 100 records: ${((100 * base.result.requests) / base.result.records).toFixed(1)}; ` +
      `skipped: ${JSON.stringify(base.result.skipped)}`,
  );
  await sourceStore.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

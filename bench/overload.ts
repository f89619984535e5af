// `npm run bench:overload [-- --people N] [--seconds S] [--factor F] [--patience MS]
// [--only REGEX] [--server-cpu SHARE] [--connections N] [--generator wrk|autocannon]`: an
// uncached route pushed past what the server can do. For the single deal
// (`GET /v2/deal/{id}`, ids in turn) and a search (`POST /v2/object/people/search`, a
// CONTAINS on 이름), first the saturation rate (closed loop, 32 connections), then an open
// loop at F times that rate (2 by default) for S seconds from up to N connections (1,000), each
// request sent on its schedule whether or not the earlier ones were answered. Reported: the
// rate the generator reached, the statuses, the 200s per second (over the time until the
// last answer) as a share of saturation and those answered within the client's patience
// (2 s), their p50/p99, 503s without Retry-After, and the server's peak RSS; for a server with load shedding off (OVERLOAD_DELAY_MS=0) and one with it at --delay
// (200 ms by default), side by side in one run. `--server-cpu 0.4` caps the server at 40% of
// its core (a cgroup): on a machine of two cores, the only way for the load generator, on
// the other core, to offer twice what the server can do and still read every answer on time.
// The load comes from wrk (C, `bench/overload.lua` on `bench/rate.lua`'s schedule) when it is
// installed, else from autocannon and undici (JavaScript, which at a few thousand requests a
// second is the limit itself: a shed request then looked as costly as a quarter of a read).
// wrk counts a request that outlives the patience as a timeout and reads its answer later;
// its timeout count is per check of its connections, so compare it between runs.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openStore } from '../src/store/database.ts';
import {
  buildDemo,
  capCpu,
  countArg,
  hasWrk,
  memoryOf,
  onCores,
  percentile,
  pinCores,
  pinThisProcessToClients,
  startChild,
  stopChild,
  table,
} from './lib.ts';
import { type OpenLoopRun, openLoop } from './open-loop.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    factor: { type: 'string', default: '2' },
    patience: { type: 'string', default: '2000' },
    delay: { type: 'string', default: '200' },
    only: { type: 'string' },
    'server-cpu': { type: 'string' },
    connections: { type: 'string', default: '1000' },
    generator: { type: 'string' },
  },
});
const people = countArg('people', values.people);
const seconds = countArg('seconds', values.seconds);
const factor = Number(values.factor);
if (!(factor > 0 && Number.isFinite(factor)))
  throw new Error(`--factor is a multiple of saturation above 0, not '${values.factor}'`);
const patience = countArg('patience', values.patience);
const shedDelay = countArg('delay', values.delay);
const serverCpu = values['server-cpu'] ? Number(values['server-cpu']) : undefined;
const connections = countArg('connections', values.connections);
if (serverCpu !== undefined && !(serverCpu > 0 && serverCpu <= 1))
  throw new Error('--server-cpu is a share of one core, above 0 and at most 1');
const generator = values.generator ?? (hasWrk() ? 'wrk' : 'autocannon');
if (generator !== 'wrk' && generator !== 'autocannon')
  throw new Error('--generator is wrk or autocannon');
if (generator === 'wrk' && !hasWrk()) throw new Error('--generator wrk: wrk is not installed');
const pinned = pinCores();
// This process, the load generator, on the client's cores too.
pinThisProcessToClients();
const dir = mkdtempSync(join(tmpdir(), 'salescrm-bench-overload-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const PORT = 38_431;
const origin = `http://127.0.0.1:${PORT}`;

console.log(`building a demo workspace of ${people.toLocaleString('en-US')} people in ${dir} …`);
const demo = buildDemo(databaseUrl, people);
const store = openStore(databaseUrl);
const dealIds = (
  await store.db
    .selectFrom('deals')
    .select('id')
    .where('workspace_id', '=', demo.workspaceId)
    .limit(500)
    .execute()
).map((r) => r.id);
await store.close();

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: (i: number) => string;
  body?: string;
}
const routes: Route[] = [
  {
    name: 'GET /v2/deal/{id}',
    method: 'GET',
    path: (i) => `/v2/deal/${dealIds[i % dealIds.length]}`,
  },
  {
    name: 'POST /v2/object/people/search',
    method: 'POST',
    path: () => '/v2/object/people/search',
    body: JSON.stringify({
      filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '민' }] }],
    }),
  },
];
if (values.only) {
  const only = new RegExp(values.only);
  routes.splice(0, routes.length, ...routes.filter((r) => only.test(r.name)));
  if (routes.length === 0) throw new Error(`--only ${values.only} names no route`);
}
const headers = { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' };

/** Closed loop: what the server answers a second when every connection waits for its answer. */
async function saturation(route: Route): Promise<number> {
  const duration = Math.max(5, Math.round(seconds / 2));
  if (generator === 'wrk') {
    const run = wrk(route, undefined, 32, duration);
    return run.ok / run.seconds;
  }
  const result = await closedLoop(route, duration);
  return result['2xx'] / (result.duration || 1);
}

/** What a run of `bench/overload.lua` counted. */
interface WrkRun {
  ok: number;
  shed: number;
  shedRetry: number;
  limited: number;
  other: number;
  /** Requests without an answer within the patience (wrk's count, see above). */
  timeouts: number;
  /** Connections that failed: refused, reset, broken. */
  failed: number;
  p50: number;
  p99: number;
  seconds: number;
}

/** wrk on the client's core: `rate` requests a second (undefined: a closed loop). */
function wrk(route: Route, rate: number | undefined, conns: number, duration: number): WrkRun {
  const paths = join(dir, 'paths.txt');
  const count = route.path(0) === route.path(1) ? 1 : dealIds.length;
  writeFileSync(paths, Array.from({ length: count }, (_, i) => route.path(i)).join('\n'));
  const args = [
    '-t1',
    `-c${conns}`,
    `-d${duration}s`,
    `--timeout`,
    `${Math.max(1, Math.round(patience / 1000))}s`,
  ];
  const out = spawnSync(
    ...onCores('client', 'wrk', [...args, '-s', 'bench/overload.lua', origin]),
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATHS: paths,
        METHOD: route.method,
        TOKEN: demo.token,
        ...(route.body ? { BODY: route.body } : {}),
        ...(rate ? { RATE: String(rate) } : {}),
      },
    },
  );
  const line = /overload: (.*)/.exec(out.stdout)?.[1];
  if (!line) throw new Error(`wrk printed no counts: ${out.stdout}${out.stderr}`);
  const n = Object.fromEntries(line.split(' ').map((kv) => kv.split('=') as [string, string]));
  const v = (k: string) => Number(n[k]);
  return {
    ok: v('200'),
    shed: v('503'),
    shedRetry: v('retry'),
    limited: v('429'),
    other: v('other'),
    timeouts: v('timeout'),
    failed: v('connect') + v('read') + v('write'),
    p50: v('p50'),
    p99: v('p99'),
    seconds: v('seconds'),
  };
}

function closedLoop(route: Route, duration: number) {
  let i = 0;
  return autocannon({
    url: origin,
    connections: 32,
    duration,
    requests: [
      {
        method: route.method,
        headers,
        ...(route.body ? { body: route.body } : {}),
        setupRequest: (req) => ({ ...req, path: route.path(i++) }),
      },
    ],
  });
}

/** Requests that got no answer, by the client's error code. */
const failures = new Map<string, number>();

/** Open loop: `rate` requests a second on a fixed schedule, answered or not. */
async function openLoopOf(route: Route, rate: number): Promise<OpenLoopRun> {
  const run = await openLoop(origin, {
    rate,
    seconds,
    connections,
    request: (n) => ({
      method: route.method,
      path: route.path(n),
      headers,
      ...(route.body ? { body: route.body } : {}),
    }),
  });
  for (const o of run.outcomes)
    if (o.error !== undefined) failures.set(o.error, (failures.get(o.error) ?? 0) + 1);
  return run;
}

/** Saturation of each route, measured once on the server without shedding. */
const saturations = new Map<Route, number>();
const rows: (string | number)[][] = [];
const wrkRows: (string | number)[][] = [];
for (const delay of ['0', String(shedDelay)]) {
  const server = await startChild('bench/api-server.ts', [databaseUrl, String(PORT)], {
    OVERLOAD_DELAY_MS: delay,
  });
  const uncap = serverCpu ? capCpu(server.pid!, serverCpu) : undefined;
  try {
    for (const route of routes) {
      // Each server warmed up: compiled code, caches, pages.
      if (generator === 'wrk') wrk(route, undefined, 32, 3);
      else await closedLoop(route, 3);
      if (!saturations.has(route)) saturations.set(route, await saturation(route));
      const sat = saturations.get(route)!;
      const rate = Math.round(sat * factor);
      console.log(
        `${route.name}, shedding ${delay === '0' ? 'off' : `at ${delay} ms`}: open loop at ${rate}/s …`,
      );
      if (generator === 'wrk') {
        const run = wrk(route, rate, connections, seconds);
        const sent = run.ok + run.shed + run.limited + run.other;
        wrkRows.push([
          route.name,
          delay === '0' ? 'off' : `${delay} ms`,
          Math.round(sat),
          rate,
          Math.round(sent / run.seconds),
          run.ok,
          run.limited,
          run.shed,
          run.other,
          run.shed - run.shedRetry,
          run.timeouts,
          run.failed,
          `${((run.ok / run.seconds / sat) * 100).toFixed(0)}%`,
          run.p50.toFixed(1),
          run.p99.toFixed(1),
          memoryOf(server.pid!).peakMB,
        ]);
        continue;
      }
      const { outcomes, sending, answering } = await openLoopOf(route, rate);
      const count = (s: number | 'error') => outcomes.filter((o) => o.status === s).length;
      const ok = outcomes.filter((o) => o.status === 200);
      const inTime = ok.filter((o) => o.ms <= patience);
      const others = outcomes.filter(
        (o) => o.status !== 200 && o.status !== 429 && o.status !== 503,
      ).length;
      const bare503 = outcomes.filter((o) => o.status === 503 && !o.retryAfter).length;
      rows.push([
        route.name,
        delay === '0' ? 'off' : `${delay} ms`,
        Math.round(sat),
        rate,
        Math.round(outcomes.length / sending),
        outcomes.length,
        count(200),
        count(429),
        count(503),
        others,
        bare503,
        `${((ok.length / answering / sat) * 100).toFixed(0)}%`,
        `${((inTime.length / answering / sat) * 100).toFixed(0)}%`,
        percentile(
          ok.map((o) => o.ms),
          50,
        ).toFixed(1),
        percentile(
          ok.map((o) => o.ms),
          99,
        ).toFixed(1),
        percentile(
          outcomes.filter((o) => o.status === 503).map((o) => o.ms),
          50,
        ).toFixed(1),
        memoryOf(server.pid!).peakMB,
      ]);
    }
  } finally {
    await stopChild(server);
    uncap?.();
  }
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `\n${factor}× saturation for ${seconds} s from ${connections.toLocaleString('en-US')} connections (${generator}), ${people.toLocaleString('en-US')} people, patience ${patience} ms${pinned ? ', server and client on cores of their own' : ''}${serverCpu ? `, the server capped at ${serverCpu} of its core` : ''}:\n`,
);
if (wrkRows.length > 0)
  console.log(
    table(
      [
        'route',
        'shedding',
        'saturation/s',
        'offered/s',
        'sent/s',
        '200',
        '429',
        '503',
        'other',
        '503 w/o Retry-After',
        `over ${patience} ms (wrk)`,
        'failed connections',
        '200/s ÷ saturation',
        'p50 ms',
        'p99 ms',
        'server peak MB',
      ],
      wrkRows,
    ),
  );
if (rows.length > 0)
  console.log(
    table(
      [
        'route',
        'shedding',
        'saturation/s',
        'offered/s',
        'sent/s',
        'sent',
        '200',
        '429',
        '503',
        'other',
        '503 w/o Retry-After',
        '200/s ÷ saturation',
        '200 in time ÷ saturation',
        '200 p50 ms',
        '200 p99 ms',
        '503 p50 ms',
        'server peak MB',
      ],
      rows,
    ),
  );
if (failures.size > 0)
  console.log(
    `\nrequests without an answer, by error: ${[...failures].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );

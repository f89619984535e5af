/** What `salescrm serve` and `start` do (`serve.ts` declares them; imported when one runs). */
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { type Config, workersCaches } from '../config.ts';
import { attachToWrites } from '../dispatch/attach.ts';
import { Dispatcher, dispatcherOptions } from '../dispatch/dispatcher.ts';
import { createDemoWorkspace } from '../ingest/demo/create-workspace.ts';
import { buildApp } from '../server/app.ts';
import { Metrics } from '../server/metrics.ts';
import { listenMetrics, type MetricsServer } from '../server/metrics-server.ts';
import { LISTEN_BACKLOG } from '../server/overload.ts';
import { ReadThreads } from '../server/read-threads.ts';
import { sharedRateLimiter } from '../server/redis-rate-limit.ts';
import { checkWritable, openStore } from '../store/database.ts';
import { databaseFileError } from '../store/sqlite-file.ts';
import { reportListening, runPrimary } from './cluster.ts';
import { startEventPruning } from './event-pruning.ts';
import { untilStopped } from './shutdown.ts';

/** The options of `serve` and `start`. */
export interface ServeOptions {
  port?: number;
  host?: string;
  workers: number;
}

/** Workspaces the banner names; it counts the rest. */
const NAMED_WORKSPACES = 3;

/** What the banner shows: the first workspaces and how many there are, and a demo token just made. */
interface Prepared {
  /** The oldest workspaces, `NAMED_WORKSPACES` at most. */
  workspaceIds: string[];
  workspaceCount: number;
  demoToken?: string | undefined;
}

/** `salescrm start`: `serve`, with a demo workspace first on an empty database. */
export function runStart(config: Config, options: ServeOptions): Promise<number> {
  return runServeProcess(config, options, true);
}

/** `salescrm serve`. */
export function runServe(config: Config, options: ServeOptions): Promise<number> {
  return runServeProcess(config, options, false);
}

/**
 * `salescrm serve` (and `start`, which on an empty database first creates a demo
 * workspace and prints its token). With `--workers N` (N > 1) this process becomes the
 * primary of N worker processes on one port. Each serving process also runs a webhook
 * dispatcher, woken after every write that commits, unless WEBHOOK_DISPATCH=0. Runs until
 * SIGTERM or SIGINT, then stops accepting, finishes in-flight requests (at most
 * SHUTDOWN_GRACE_MS) and, meanwhile, the webhook POSTs in flight (each at most
 * WEBHOOK_TIMEOUT_MS), closes the store and Redis, and returns 0.
 */
async function runServeProcess(
  config: Config,
  options: ServeOptions,
  demoWhenEmpty: boolean,
): Promise<number> {
  const port = options.port ?? config.port;
  const host = options.host ?? config.host;
  const { workers } = options;

  if (workers > 1 && cluster.isPrimary) {
    // Migrations and the demo run once, here, before any worker opens the store.
    const prepared = await prepare(config, demoWhenEmpty);
    return runPrimary({
      workers,
      graceMs: config.shutdownGraceMs,
      env: workersCaches(process.env, config, workers),
      onListening: (address, pids) =>
        printBanner(`${address}${config.basePath}`, prepared, ` (${pids.length} workers)`),
    });
  }

  const prepared = cluster.isWorker ? undefined : await prepare(config, demoWhenEmpty);
  const store = openStore(config.databaseUrl);
  // Searches go to threads of their own: SQLite's queries hold the thread that runs them,
  // and on both stores a search decides its filters on the records it reads, in JavaScript.
  const readThreads =
    config.readThreads > 0 ? new ReadThreads(config.databaseUrl, config.readThreads) : undefined;
  const limiter = await sharedRateLimiter(config);
  const pruning = startEventPruning(store, config.eventRetentionDays);
  // PostgreSQL: the dispatcher's statements on a pool of their own (`DATABASE_POOL_MAX` too),
  // so that under load the API's requests do not queue behind them for a connection, nor
  // they behind the API's (SQLite: the one writer).
  const dispatchStore =
    config.webhookDispatch && store.dialect === 'postgres' ? openStore(config.databaseUrl) : store;
  let stopWaking: (() => void) | undefined;
  const release = async () => {
    stopWaking?.();
    pruning.stop();
    await readThreads?.close();
    await limiter?.close();
    if (dispatchStore !== store) await dispatchStore.close();
    await store.close();
    // A worker's channel to the primary keeps it alive: let it go, so the process ends.
    cluster.worker?.disconnect();
  };

  let stopped: Promise<void>;
  let dispatcher: Dispatcher | undefined;
  let metricsServer: MetricsServer | undefined;
  const metrics =
    config.metrics || config.metricsPort !== undefined
      ? new Metrics(store, dispatchStore)
      : undefined;
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      store,
      config,
      logger: true,
      rateLimiter: limiter,
      metrics,
      readThreads,
    });
    if (limiter) limiter.log = app.log;
    pruning.log = app.log;
    if (config.webhookDispatch) {
      const wakeable = new Dispatcher(dispatchStore, dispatcherOptions(config, app.log));
      dispatcher = wakeable;
      metrics?.watchDispatcher(wakeable);
      // A write's deliveries go out at once rather than at the next poll.
      stopWaking = attachToWrites(store, wakeable);
    }
    stopped = untilStopped(app, config.shutdownGraceMs, () => void dispatcher?.stop());
    const address = await app.listen({ port, host, backlog: LISTEN_BACKLOG });
    if (metrics && config.metricsPort !== undefined) {
      metricsServer = await listenMetrics(metrics, config.metricsPort, host);
      console.log(`metrics on ${metricsServer.url}/metrics`);
    }
    dispatcher?.start();
    if (prepared) printBanner(`${address}${config.basePath}`, prepared, '');
    reportListening(address);
  } catch (error) {
    // E.g. the port is taken: end the process (exit 1) rather than linger on Redis or IPC.
    await metricsServer?.close();
    await app?.close();
    await dispatcher?.stop();
    await release();
    throw error;
  }
  await stopped;
  await metricsServer?.close();
  await dispatcher?.stop();
  await release();
  return 0;
}

/** Brings the schema up to date and, for `start` on an empty database, makes a demo. */
async function prepare(config: Config, demoWhenEmpty: boolean): Promise<Prepared> {
  const store = openStore(config.databaseUrl, { longRunning: true });
  try {
    // A database that reads but cannot be written would serve reads and fail every write.
    try {
      await store.migrate();
      await checkWritable(store);
    } catch (error) {
      throw (store.file && databaseFileError(store.file, error)) || error;
    }
    const rows = await store.db
      .selectFrom('workspaces')
      .select('id')
      .orderBy('created_at')
      .orderBy('id')
      .limit(NAMED_WORKSPACES)
      .execute();
    const { n } = await store.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const prepared: Prepared = { workspaceIds: rows.map((r) => r.id), workspaceCount: Number(n) };
    if (demoWhenEmpty && rows.length === 0) {
      console.log('empty database: creating a demo workspace…');
      const demo = await createDemoWorkspace(store, {});
      prepared.demoToken = demo.token;
      prepared.workspaceIds.push(demo.workspaceId);
      prepared.workspaceCount = 1;
    }
    return prepared;
  } finally {
    await store.close();
  }
}

function printBanner(url: string, prepared: Prepared, suffix: string): void {
  const first = prepared.workspaceIds[0];
  console.log(`salescrm is listening on ${url}${suffix}`);
  if (prepared.demoToken) {
    console.log(`demo workspace: ${first}`);
    console.log(`token: ${prepared.demoToken}`);
    console.log(
      `try:   curl -H 'Authorization: Bearer ${prepared.demoToken}' '${url}/v2/people?limit=2'`,
    );
  } else if (first) {
    const more = prepared.workspaceCount - prepared.workspaceIds.length;
    console.log(
      `workspaces: ${prepared.workspaceCount.toLocaleString('en')} (${prepared.workspaceIds.join(', ')}${more > 0 ? `, … ${more.toLocaleString('en')} more` : ''})`,
    );
    console.log(`a token:    npm run -s cli -- token create --workspace ${first}`);
  } else {
    console.log('no workspace yet: npm run -s cli -- demo');
  }
}

/** What `salescrm dispatch` does (`dispatch.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { Dispatcher, dispatcherOptions } from '../dispatch/dispatcher.ts';
import { jsonLog } from '../dispatch/log.ts';
import { Metrics } from '../server/metrics.ts';
import { listenMetrics, type MetricsServer } from '../server/metrics-server.ts';
import { withStore } from './with-store.ts';

/**
 * `salescrm dispatch`: a webhook dispatcher on its own (no HTTP API). Migrates the database,
 * sends due deliveries until SIGTERM or SIGINT, then finishes the POSTs in flight (each
 * bounded by WEBHOOK_TIMEOUT_MS), records them, and returns 0. On PostgreSQL it hears where
 * deliveries fall due (another process's write, a replay: `DELIVERIES_CHANNEL`) and claims
 * there at once; otherwise at its looks every WEBHOOK_POLL_MS. With METRICS_PORT, serves
 * `GET /metrics` on that port (on HOST): its dispatcher's tries and holdings, the backlog,
 * its pool and Node's own, as `serve`'s.
 */
export async function runDispatch(config: Config): Promise<number> {
  const log = jsonLog(config.logLevel);
  return withStore(config, async (store) => {
    const dispatcher = new Dispatcher(store, dispatcherOptions(config, log));
    const signal = untilSignal();
    let metricsServer: MetricsServer | undefined;
    if (config.metricsPort !== undefined) {
      const metrics = new Metrics(store);
      metrics.watchDispatcher(dispatcher);
      metricsServer = await listenMetrics(metrics, config.metricsPort, config.host);
      console.log(`metrics on ${metricsServer.url}/metrics`);
    }
    dispatcher.start();
    const stopHearing = store
      .changes?.()
      .onDeliveriesDue((workspaceId) => dispatcher.wake(workspaceId));
    log.info(
      { dispatcher: dispatcher.id, concurrency: config.webhookConcurrency },
      'salescrm is dispatching webhooks',
    );
    log.info({ signal: await signal }, 'stopping: finishing the deliveries in flight');
    stopHearing?.();
    await dispatcher.stop();
    await metricsServer?.close();
    log.info(dispatcher.stats, 'stopped');
    return 0;
  });
}

/** The first SIGTERM or SIGINT (later ones are ignored while stopping). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => resolve(signal);
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

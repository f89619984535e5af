import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PageCache } from '../http/page-cache.ts';
import type { Store } from '../store/database.ts';
import { countDueDeliveries } from '../store/outbox/deliveries.ts';
import type { LoadShedder } from './overload.ts';

/** What a metric of a request is labelled with. */
const REQUEST_LABELS = ['method', 'route', 'status'] as const;
/** Seconds: from a cached page (well under 1 ms) to a request cut by a timeout. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/**
 * Seconds from an event to the 2xx answer that delivered it: from a first attempt streamed
 * within tens of milliseconds to a retry hours later.
 */
const LAG_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 300, 1800, 3600, 21600];
/** The route label of a request that matched no route (a 404, a 405). */
const UNMATCHED = 'unmatched';

/**
 * What the metrics read of this process's webhook dispatcher (`src/dispatch/dispatcher.ts`,
 * which `serve` and `salescrm dispatch` join to them: the server does not import it).
 */
export interface WatchedDispatcher {
  /** Its tries answered 2xx, its other tries, and the first attempts streamed to it. */
  readonly stats: {
    readonly delivered: number;
    readonly failedTries: number;
    readonly streamed: number;
  };
  /** Deliveries it holds: waiting to start, in flight, or sent and not yet recorded. */
  readonly heldCount: number;
  /** Tells `listener` of each try answered 2xx, with its delivery's lag in seconds. */
  onDelivered(listener: (lagSeconds: number) => void): () => void;
}

/**
 * The service's metrics in the Prometheus text format (`prom-client`): requests by route
 * pattern and status, their durations, the page cache, writes in flight, the PostgreSQL
 * pools, the webhook backlog and this process's dispatcher, and Node's own (event loop
 * delay, memory, CPU). Each instance has a registry of its own, so apps in one process
 * (tests) never share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<(typeof REQUEST_LABELS)[number]>;
  private readonly durations: Histogram<(typeof REQUEST_LABELS)[number]>;
  private writesInFlight = 0;
  private cache: PageCache | undefined;
  private shedder: LoadShedder | undefined;
  private dispatcher: WatchedDispatcher | undefined;
  private readonly deliveryLag: Histogram;
  private stopHearing: (() => void) | undefined;

  /**
   * `dispatcherStore`: the store of `serve`'s webhook dispatcher when it has one of its own
   * (PostgreSQL), whose pool the pool gauges show as `server="dispatcher"`.
   */
  constructor(
    private readonly store: Store,
    dispatcherStore?: Store,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: REQUEST_LABELS,
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by method, route pattern and status.',
      labelNames: REQUEST_LABELS,
      buckets: DURATION_BUCKETS,
      registers,
    });
    const metrics = this;
    new Gauge({
      name: 'salescrm_write_requests_in_flight',
      help: 'Write requests (POST) received and not yet answered: queued for the database or being written.',
      registers,
      collect() {
        this.set(metrics.writesInFlight);
      },
    });
    new Counter({
      name: 'salescrm_requests_shed_total',
      help: 'API requests answered 503 by load shedding (OVERLOAD_DELAY_MS), before any route ran: not in http_requests_total.',
      registers,
      collect() {
        this.reset();
        this.inc(metrics.shedder?.shed ?? 0);
      },
    });
    new Counter({
      name: 'salescrm_page_cache_hits_total',
      help: 'List pages served from the page cache.',
      registers,
      collect() {
        this.reset();
        this.inc(metrics.cache?.hits ?? 0);
      },
    });
    new Counter({
      name: 'salescrm_page_cache_misses_total',
      help: 'List pages looked for in the page cache and rendered from the database.',
      registers,
      collect() {
        this.reset();
        this.inc(metrics.cache?.misses ?? 0);
      },
    });
    new Gauge({
      name: 'salescrm_page_cache_bytes',
      help: 'Bytes of rendered list pages kept in memory.',
      registers,
      collect() {
        this.set(metrics.cache?.bytes ?? 0);
      },
    });
    new Gauge({
      name: 'salescrm_webhook_deliveries_due',
      help: 'Webhook deliveries pending and due now, in every workspace: the backlog of the dispatchers.',
      registers,
      async collect() {
        this.set(await countDueDeliveries(metrics.store.reader, new Date().toISOString()));
      },
    });
    new Counter({
      name: 'salescrm_webhook_tries_total',
      help: "Webhook POSTs this process's dispatcher made, by outcome: delivered (answered 2xx) or failed (any other answer, or none).",
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        const stats = metrics.dispatcher?.stats;
        this.inc({ outcome: 'delivered' }, stats?.delivered ?? 0);
        this.inc({ outcome: 'failed' }, stats?.failedTries ?? 0);
      },
    });
    new Counter({
      name: 'salescrm_webhook_deliveries_streamed_total',
      help: "First attempts this process's writes handed its dispatcher with no delivery row (streamed).",
      registers,
      collect() {
        this.reset();
        this.inc(metrics.dispatcher?.stats.streamed ?? 0);
      },
    });
    this.deliveryLag = new Histogram({
      name: 'salescrm_webhook_delivery_lag_seconds',
      help: "Seconds from an event (its write) to the 2xx answer that delivered it, at each such try of this process's dispatcher: first attempts and retries alike.",
      buckets: LAG_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'salescrm_webhook_deliveries_held',
      help: "Webhook deliveries this process's dispatcher holds: waiting to start, in flight, or sent and not yet recorded.",
      registers,
      collect() {
        this.set(metrics.dispatcher?.heldCount ?? 0);
      },
    });
    if (store.poolStats) {
      const apiPools = store.poolStats.bind(store);
      const dispatcherPools =
        dispatcherStore && dispatcherStore !== store
          ? dispatcherStore.poolStats?.bind(dispatcherStore)
          : undefined;
      const poolStats = (): PoolValues[] => [
        ...apiPools(),
        ...(dispatcherPools?.() ?? [])
          .filter((s) => s.server === 'primary')
          .map((s) => ({ ...s, server: 'dispatcher' as const })),
      ];
      const poolGauge = (name: string, help: string, value: (s: PoolValues) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['server'],
          registers,
          collect() {
            for (const s of poolStats()) this.set({ server: s.server }, value(s));
          },
        });
      poolGauge(
        'salescrm_db_pool_connections',
        'PostgreSQL connections open, by server.',
        (s) => s.total,
      );
      poolGauge(
        'salescrm_db_pool_idle',
        'PostgreSQL connections open and idle, by server.',
        (s) => s.idle,
      );
      poolGauge(
        'salescrm_db_pool_waiting',
        'Queries waiting for a PostgreSQL connection, by server.',
        (s) => s.waiting,
      );
    }
  }

  /** Counts the page cache's hits and misses (none while the cache is off). */
  watchCache(cache: PageCache | undefined): void {
    this.cache = cache;
  }

  /** Counts the requests load shedding answered (none while it is off). */
  watchShedder(shedder: LoadShedder | undefined): void {
    this.shedder = shedder;
  }

  /** Counts the tries, the deliveries' lag and those held of this process's webhook dispatcher. */
  watchDispatcher(dispatcher: WatchedDispatcher | undefined): void {
    this.stopHearing?.();
    this.dispatcher = dispatcher;
    this.stopHearing = dispatcher?.onDelivered((lag) => this.deliveryLag.observe(lag));
  }

  /** Records every request of `app`: its route pattern (never the URL), status and time. */
  observe(app: FastifyInstance): void {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method === 'POST') {
        this.writesInFlight += 1;
        // `close` comes for every response, also one whose client went away before it.
        reply.raw.once('close', () => {
          this.writesInFlight -= 1;
        });
      }
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED,
        status: String(reply.statusCode),
      };
      this.requests.inc(labels);
      this.durations.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }

  /** The metrics now, in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The Content-Type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

type PoolValues = ReturnType<NonNullable<Store['poolStats']>>[number];

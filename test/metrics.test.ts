import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachToWrites } from '../src/dispatch/attach.ts';
import { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { Metrics } from '../src/server/metrics.ts';
import { makePerson } from './factories.ts';
import {
  get,
  post,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';
import { startServe } from './serve-process.ts';
import {
  answerOk,
  FAST_DISPATCH,
  insertWebhook,
  startReceiver,
  waitFor,
} from './webhook-fixtures.ts';

/**
 * Reads the Prometheus text format: every sample line is `name{labels} value`, every
 * comment `# HELP` or `# TYPE`; anything else fails the test. Answers value by series.
 */
function parseMetrics(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(line).toMatch(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    // NaN (a mean of no samples yet) in any case, as Prometheus reads it.
    const value = /^nan$/i.test(m![2]!) ? Number.NaN : Number(m![2]);
    expect(Number.isNaN(value) && !/^nan$/i.test(m![2]!), line).toBe(false);
    series.set(m![1]!, value);
  }
  return series;
}

/** The value of a series, 0 when it is not there yet. */
function sample(metrics: Map<string, number>, series: string): number {
  return metrics.get(series) ?? 0;
}

describe('GET /metrics', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let off: FastifyInstance;
  let on: FastifyInstance;

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    off = await testApp(store);
    on = await testApp(store, { metrics: true });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
    await store?.dispose();
  });

  async function scrape(app: FastifyInstance = on): Promise<Map<string, number>> {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.body);
  }

  it('is off by default: 404 without METRICS', async () => {
    const res = await off.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('needs no token, and parses', async () => {
    const metrics = await scrape();
    expect(metrics.size).toBeGreaterThan(20);
    // Node's own: the event loop's delay among them.
    expect(metrics.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(metrics.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('counts requests by route pattern and status, and times them', async () => {
    const people = 'http_requests_total{method="GET",route="/v2/people",status="200"}';
    const one = 'http_requests_total{method="GET",route="/v2/people/:peopleId",status="404"}';
    const created = 'http_requests_total{method="POST",route="/v2/people",status="201"}';
    const timed =
      'http_request_duration_seconds_count{method="GET",route="/v2/people",status="200"}';
    const before = await scrape();
    expect((await get(on, ws.token, '/v2/people')).status).toBe(200);
    expect((await get(on, ws.token, '/v2/people?limit=3')).status).toBe(200);
    expect((await get(on, ws.token, '/v2/people/no-such-person-7f3a')).status).toBe(404);
    expect((await post(on, ws.token, '/v2/people', { name: '지표 고객' })).status).toBe(201);
    const res = await on.inject({ method: 'GET', url: '/metrics' });
    const after = parseMetrics(res.body);
    expect(sample(after, people) - sample(before, people)).toBe(2);
    expect(sample(after, one) - sample(before, one)).toBe(1);
    expect(sample(after, created) - sample(before, created)).toBe(1);
    expect(sample(after, timed) - sample(before, timed)).toBe(2);
    // The pattern, never the raw URL: no id, no query string in any label.
    expect(res.body).not.toContain('no-such-person-7f3a');
    expect(res.body).not.toContain('limit=3');
    expect(sample(after, 'salescrm_write_requests_in_flight')).toBe(0);
  });

  it('counts the page cache: misses, then hits once a page is kept', async () => {
    const before = await scrape();
    for (let i = 0; i < 4; i++)
      expect((await get(on, ws.token, '/v2/organization')).status).toBe(200);
    const after = await scrape();
    const hits =
      sample(after, 'salescrm_page_cache_hits_total') -
      sample(before, 'salescrm_page_cache_hits_total');
    const misses =
      sample(after, 'salescrm_page_cache_misses_total') -
      sample(before, 'salescrm_page_cache_misses_total');
    // Asked once: not kept; asked again: kept; the third and fourth are served from memory.
    expect({ hits, misses }).toEqual({ hits: 2, misses: 2 });
    expect(sample(after, 'salescrm_page_cache_bytes')).toBeGreaterThan(0);
  });

  it('counts the webhook deliveries due', async () => {
    const other = await testWorkspace(store, '웹훅 지표');
    await insertWebhook(store, other.workspaceId, { url: 'https://example.com/hook' });
    const before = sample(await scrape(), 'salescrm_webhook_deliveries_due');
    expect((await post(on, other.token, '/v2/people', { name: '웹훅 고객 1' })).status).toBe(201);
    expect((await post(on, other.token, '/v2/people', { name: '웹훅 고객 2' })).status).toBe(201);
    const after = sample(await scrape(), 'salescrm_webhook_deliveries_due');
    expect(after - before).toBe(2);
  });

  it.runIf(TEST_DIALECT === 'postgres')('shows the PostgreSQL pool', async () => {
    const metrics = await scrape();
    expect(metrics.get('salescrm_db_pool_connections{server="primary"}')).toBeGreaterThan(0);
    expect(metrics.has('salescrm_db_pool_idle{server="primary"}')).toBe(true);
    // The scrape's own backlog query may be waiting for a connection meanwhile.
    expect(metrics.get('salescrm_db_pool_waiting{server="primary"}')).toBeGreaterThanOrEqual(0);
  });
});

describe("the webhook dispatcher's metrics", () => {
  it("count its tries by outcome, the first attempts streamed to it, what it holds, and each delivery's lag", async () => {
    const store = await testStore();
    const receiver = await startReceiver((req, res, receipt) => {
      // The second delivery is refused once: a failed try, then its retry delivers.
      if (refused === 0 && receiver.receipts.length === 2) {
        refused += 1;
        res.writeHead(503).end();
        return;
      }
      answerOk(req, res, receipt);
    });
    let refused = 0;
    const dispatcher = new Dispatcher(store, { ...FAST_DISPATCH, pollMs: 20 });
    const metrics = new Metrics(store);
    metrics.watchDispatcher(dispatcher);
    const detach = attachToWrites(store, dispatcher);
    try {
      const ws = await testWorkspace(store);
      await insertWebhook(store, ws.workspaceId, { url: receiver.url });
      const before = parseMetrics(await metrics.text());
      expect(sample(before, 'salescrm_webhook_tries_total{outcome="delivered"}')).toBe(0);
      expect(sample(before, 'salescrm_webhook_deliveries_held')).toBe(0);
      expect(sample(before, 'salescrm_webhook_delivery_lag_seconds_count')).toBe(0);
      dispatcher.start();
      const firstWriteMs = Date.now();
      for (let i = 0; i < 4; i++) await ws.write((w) => makePerson(w));
      await waitFor(() => dispatcher.stats.delivered === 4 && dispatcher.heldCount === 0);
      const after = parseMetrics(await metrics.text());
      const elapsedS = (Date.now() - firstWriteMs) / 1000;
      expect(sample(after, 'salescrm_webhook_tries_total{outcome="delivered"}')).toBe(4);
      expect(sample(after, 'salescrm_webhook_tries_total{outcome="failed"}')).toBe(1);
      expect(sample(after, 'salescrm_webhook_deliveries_streamed_total')).toBe(
        dispatcher.stats.streamed,
      );
      expect(sample(after, 'salescrm_webhook_deliveries_held')).toBe(0);
      // A lag a delivery, from its event: the one refused once waited its retry's delay (50
      // ms) at least, and none waited longer than the test.
      const lag = (series: string) =>
        sample(after, `salescrm_webhook_delivery_lag_seconds${series}`);
      expect(lag('_count')).toBe(4);
      expect(lag('_bucket{le="+Inf"}')).toBe(4);
      expect(lag('_bucket{le="0.05"}')).toBeLessThanOrEqual(3);
      expect(lag('_sum')).toBeGreaterThanOrEqual(0.05);
      expect(lag('_sum')).toBeLessThanOrEqual(4 * elapsedS);
    } finally {
      detach();
      await dispatcher.stop();
      await receiver.close();
      await store.dispose();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves the metrics on a port of their own, and not on the API port', async () => {
    const store = await testStore();
    try {
      const ws = await testWorkspace(store);
      // With its dispatcher (off by default in these tests), whose pool the gauges show too.
      const server = await startServe(store.url, { METRICS_PORT: '0', WEBHOOK_DISPATCH: '1' });
      try {
        const line = /metrics on (\S+)/.exec(server.out());
        expect(line, server.out()).not.toBeNull();
        const metricsUrl = line![1]!;
        expect(new URL(metricsUrl).port).not.toBe(new URL(server.url).port);
        const api = await fetch(`${server.url}/v2/people`, {
          headers: { authorization: `Bearer ${ws.token}` },
        });
        expect(api.status).toBe(200);
        expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
        const res = await fetch(metricsUrl);
        expect(res.status).toBe(200);
        const metrics = parseMetrics(await res.text());
        expect(
          metrics.get('http_requests_total{method="GET",route="/v2/people",status="200"}'),
        ).toBe(1);
        expect((await fetch(new URL('/v2/people', metricsUrl))).status).toBe(404);
        // PostgreSQL: the webhook dispatcher's pool of its own is shown beside the API's.
        if (TEST_DIALECT === 'postgres') {
          expect(metrics.has('salescrm_db_pool_connections{server="primary"}')).toBe(true);
          expect(metrics.has('salescrm_db_pool_waiting{server="dispatcher"}')).toBe(true);
        } else {
          expect(metrics.has('salescrm_db_pool_connections{server="dispatcher"}')).toBe(false);
        }
      } finally {
        await server.stop();
      }
    } finally {
      await store.dispose();
    }
  });
});

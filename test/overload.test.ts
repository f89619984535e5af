import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/server/app.ts';
import { OVERLOADED_MESSAGE } from '../src/server/overload.ts';
import { makeDeal, makePerson } from './factories.ts';
import { appWithWorkspace, type TestStore, type TestWorkspace, testApp } from './helpers.ts';

let store: TestStore;
let ws: TestWorkspace;
let dealId: string;
let app: FastifyInstance;

appWithWorkspace((made) => ({ store, app, ws } = made), {
  config: { overloadDelayMs: 50 },
  workspace: 'file',
});
beforeAll(async () => {
  dealId = await ws.write(async (w) => {
    const person = await makePerson(w, { name: '과부하 고객' });
    return makeDeal(w, { name: '과부하 딜', peopleId: person });
  });
});

/** Blocks the event loop, as a server that cannot keep up with what arrives does. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inject = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ws.token}` } });

describe('load shedding (OVERLOAD_DELAY_MS)', () => {
  it('answers API requests 503 with Retry-After while the event loop lags, probes never', async () => {
    const statuses = new Map<number, number>();
    let shed: Awaited<ReturnType<typeof inject>> | undefined;
    let shedDeal: Awaited<ReturnType<typeof inject>> | undefined;
    // A lag of 500 ms, then requests just after the next sample of the delay (every 100 ms):
    // most are shed.
    for (let round = 0; round < 20 && !(shed && shedDeal); round++) {
      block(500);
      await sleep(1);
      const [people, deal, health] = await Promise.all([
        inject('/v2/people'),
        inject(`/v2/deal/${dealId}`),
        app.inject({ method: 'GET', url: '/healthz' }),
      ]);
      expect(health.statusCode).toBe(200);
      for (const res of [people, deal]) {
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect([200, 503]).toContain(res.statusCode);
      }
      if (people.statusCode === 503) shed = people;
      if (deal.statusCode === 503) shedDeal = deal;
    }
    expect(shed, `statuses ${JSON.stringify([...statuses])}`).toBeDefined();
    expect(shed!.headers['retry-after']).toBe('1');
    expect(shed!.json()).toEqual({
      success: false,
      message: OVERLOADED_MESSAGE,
      reason: OVERLOADED_MESSAGE,
    });
    // The single deal answers its errors in shape B (DECISIONS 3).
    expect(shedDeal).toBeDefined();
    expect(shedDeal!.json()).toEqual({ error: OVERLOADED_MESSAGE });

    // Once the loop keeps up again, nothing is shed (a few tries: the machine may be busy).
    let calm: number[] = [];
    for (let round = 0; round < 10; round++) {
      await sleep(300);
      calm = (await Promise.all(Array.from({ length: 20 }, () => inject('/v2/people')))).map(
        (r) => r.statusCode,
      );
      if (calm.every((s) => s === 200)) break;
    }
    expect(calm).toEqual(calm.map(() => 200));
  });

  it("does not take a new server's start-up for overload", async () => {
    // Not yet ready: the start-up's own work blocks the loop (as building the routes and
    // schemas does), then the first requests arrive as soon as the server is ready.
    const fresh = await buildApp({
      store,
      config: { ...loadConfig({}), logLevel: 'silent', rateLimitMax: 0, overloadDelayMs: 50 },
    });
    try {
      block(500);
      await fresh.ready();
      await sleep(1);
      const statuses = (
        await Promise.all(
          Array.from({ length: 20 }, () =>
            fresh.inject({
              method: 'GET',
              url: '/v2/people',
              headers: { authorization: `Bearer ${ws.token}` },
            }),
          ),
        )
      ).map((r) => r.statusCode);
      expect(statuses).toEqual(statuses.map(() => 200));
    } finally {
      await fresh.close();
    }
  });

  it('is off unless the config turns it on', async () => {
    const plain = await testApp(store);
    try {
      block(300);
      await sleep(120);
      const res = await plain.inject({
        method: 'GET',
        url: '/v2/people',
        headers: { authorization: `Bearer ${ws.token}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

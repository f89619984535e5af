import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadShedder } from './overload.ts';

/** Blocks the event loop, as a stretch of reads that never lets it run its timers does. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once a sample has shown the loop keeping up (however long a busy machine takes). */
async function armed(shedder: LoadShedder): Promise<void> {
  while (!shedder.armed) await sleep(10);
}

/**
 * A bound no busy machine's scheduling reaches (an idle process's loop was 100 ms late at a
 * load of 23 on two cores), for what must not be shed.
 */
const CALM_BOUND_MS = 1_000;

/** A request of `GET /v2/people` and a response that records what was written. */
function exchange(authorization?: string) {
  const req = {
    url: '/v2/people',
    method: 'GET',
    headers: authorization ? { authorization } : {},
  } as IncomingMessage;
  const written: { status?: number } = {};
  const res = {
    writeHead(status: number) {
      written.status = status;
      return this;
    },
    end() {
      return this;
    },
  } as unknown as ServerResponse;
  return { req, res, written };
}

describe('LoadShedder', () => {
  let shedder: LoadShedder | undefined;
  afterEach(() => shedder?.stop());

  it('sheds within a stretch that has not let the loop sample its delay', async () => {
    // A poll of libuv reads up to 48 × 1,024 sockets before the loop runs its timers: with
    // thousands of connections sending, no sample is taken for seconds, and the requests
    // read meanwhile have waited as long.
    shedder = new LoadShedder(CALM_BOUND_MS, '', () => 0);
    shedder.start();
    await armed(shedder);
    const calm = exchange();
    expect(shedder.answer(calm.req, calm.res)).toBe(false);
    block(CALM_BOUND_MS + 500);
    const late = exchange();
    expect(shedder.answer(late.req, late.res)).toBe(true);
    expect(late.written.status).toBe(503);
    expect(shedder.shed).toBe(1);
  });

  it('sheds from the workspaces causing the load, and from the others only past four times the bound', async () => {
    // A stretch of 1,200 ms against a bound of 200 (the loop 1,100–1,200 ms late): a request
    // of the busy workspace is shed with a probability of 1 - 200/late (0.82–0.83), another
    // workspace's with 1 - 800/late (0.27–0.33); the draw is 0.7. (Long against the bound:
    // a busy machine's own scheduling delays stay far below it.)
    shedder = new LoadShedder(200, '', () => 0.7);
    shedder.causing = (authorization) => authorization === 'Bearer busy';
    shedder.start();
    await armed(shedder);
    block(1_200);
    const busy = exchange('Bearer busy');
    const other = exchange('Bearer other');
    expect(shedder.answer(other.req, other.res)).toBe(false);
    expect(shedder.answer(busy.req, busy.res)).toBe(true);
    expect(busy.written.status).toBe(503);
  });

  it('sheds nothing after the start until a sample shows the loop keeping up, however long the start-up took', async () => {
    shedder = new LoadShedder(50, '', () => 0);
    shedder.start();
    // The start-up's own work, past any window of the clock.
    block(1_000);
    const first = exchange();
    expect(shedder.answer(first.req, first.res)).toBe(false);
    await armed(shedder);
    block(400);
    const late = exchange();
    expect(shedder.answer(late.req, late.res)).toBe(true);
  });

  it('sheds nothing while the loop keeps its timers on time', async () => {
    shedder = new LoadShedder(CALM_BOUND_MS, '', () => 0);
    shedder.start();
    await armed(shedder);
    for (let i = 0; i < 20; i++) {
      block(5);
      const { req, res } = exchange();
      expect(shedder.answer(req, res)).toBe(false);
      await sleep(1);
    }
    expect(shedder.shed).toBe(0);
  });
});

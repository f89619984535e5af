import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { routeKind } from './api-route.ts';

/** How often the event loop's delay is sampled (milliseconds). */
const SAMPLE_MS = 100;
/** The share of API requests shed at most, so that some always get through and probe the load. */
const MOST_SHED = 0.95;

export const OVERLOADED_MESSAGE =
  '요청이 너무 많아 처리할 수 없습니다. 잠시 후 다시 시도해 주세요.';

/**
 * Load shedding: while the event loop's mean delay over the last sample is over `delayMs`,
 * API requests (`/v2`, `/v3`, `/mcp`) are answered 503 with `Retry-After: 1` before any work
 * (token, rate limit, database), each with the probability `1 - delayMs / delay` (a delay
 * twice the bound sheds half). Requests then wait for at most about twice the bound, instead
 * of queueing without end when more arrive than the server can answer; probes, metrics and
 * the document are never shed; nor is anything in the first 200 ms after the app is ready.
 * Measured by `@fastify/under-pressure`; `delayMs` 0 turns it off.
 */
export async function shedOverload(
  app: FastifyInstance,
  base: string,
  delayMs: number,
  random: () => number = Math.random,
): Promise<void> {
  if (delayMs <= 0) return;
  // Armed a couple of samples after the app is ready: the delay first measured includes the
  // start-up's own work (routes, schemas), which would refuse a new server's first requests.
  let armed = false;
  app.addHook('onReady', async () => {
    setTimeout(() => {
      armed = true;
    }, 2 * SAMPLE_MS).unref();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: delayMs,
    sampleInterval: SAMPLE_MS,
    pressureHandler: async (request, _reply, type, value) => {
      if (!armed || type !== underPressure.TYPE_EVENT_LOOP_DELAY || value === undefined) return;
      if (routeKind(request.routeOptions.url, base) === 'service') return;
      if (random() >= Math.min(MOST_SHED, 1 - delayMs / value)) return;
      throw new HttpError('unavailable', OVERLOADED_MESSAGE, { 'Retry-After': '1' });
    },
  });
}

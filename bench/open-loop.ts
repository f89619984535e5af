// An open-loop load generator: requests sent on a fixed schedule, whether or not the earlier
// ones were answered, each one's latency taken from its send. autocannon's
// `overallRate` is no such thing: it sends each second's budget as fast as its connections
// allow and then waits for the next second (200/s from 4 connections arrived as bursts of
// ~600/s for a third of each second), so its latencies at a fixed rate are a burst's.

import { Pool } from 'undici';

/** One request of the schedule. */
export interface ScheduledRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What one request got: its status (or `error`, with the client's error code), and when. */
export interface Outcome {
  status: number | 'error';
  /**
   * From the request's send (its slot, or later when the generator fell behind) to its
   * answer, including any wait for a free connection.
   */
  ms: number;
  retryAfter: boolean;
  error?: string;
}

/** What an open loop sent and got, and over how long (the generator may fall behind). */
export interface OpenLoopRun {
  outcomes: Outcome[];
  /** Seconds from the first send to the last. */
  sending: number;
  /** Seconds from the first send to the last answer. */
  answering: number;
}

/**
 * `rate` requests a second to `origin` for `seconds`, request `n` being `request(n)`, from up
 * to `connections` connections (a request finding them all busy waits for one, and its wait
 * counts in its latency).
 */
export async function openLoop(
  origin: string,
  options: {
    rate: number;
    seconds: number;
    connections: number;
    request: (n: number) => ScheduledRequest;
  },
): Promise<OpenLoopRun> {
  const { rate, seconds, connections, request } = options;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const outcomes: Promise<Outcome>[] = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    outcomes.push(
      pool
        .request(request(n))
        .then(async (res) => {
          await res.body.dump();
          return {
            status: res.statusCode,
            ms: performance.now() - sent,
            retryAfter: res.headers['retry-after'] !== undefined,
          };
        })
        .catch((e: Error & { code?: string }) => ({
          status: 'error' as const,
          ms: performance.now() - sent,
          retryAfter: false,
          error: e.code ?? e.message,
        })),
    );
  }
  const sending = (performance.now() - start) / 1000;
  const all = await Promise.all(outcomes);
  const answering = (performance.now() - start) / 1000;
  await pool.close();
  return { outcomes: all, sending, answering };
}

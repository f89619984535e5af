// An open-loop load generator: requests sent on a fixed schedule, whether or not the earlier
// ones were answered, each one's latency taken from its send. autocannon's
// `overallRate` is no such thing: it sends each second's budget as fast as its connections
// allow and then waits for the next second (200/s from 4 connections arrived at about
// 500–650/s for the first 0.3–0.4 s of each second), so its latencies at a fixed rate are a
// burst's. At rates above ~1,000/s this loop sends in clumps of a millisecond (its timer's
// resolution); wrk with bench/rate.lua keeps such a schedule better.

import { Pool } from 'undici';
import { percentile } from './percentile.ts';

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

/** What a fixed-rate run comes to, as the benches report it. */
export interface OpenLoopFigures {
  /** Answers with the expected status a second, over the time until the last answer. */
  reqPerSec: number;
  /** Of the answers with the expected status, ms. */
  p50: number;
  p99: number;
  /** Requests answered otherwise, or not at all. */
  bad: number;
}

/**
 * The figures of `run` at `rate`, counting as good the answers whose status `isGood`; says
 * so (naming the run `name`) when the generator fell behind its schedule by more than 5%.
 */
export function figuresOf(
  name: string,
  run: OpenLoopRun,
  rate: number,
  isGood: (status: number) => boolean,
): OpenLoopFigures {
  const good = run.outcomes.filter((o) => o.status !== 'error' && isGood(o.status));
  const ms = good.map((o) => o.ms);
  const sentRate = run.outcomes.length / run.sending;
  if (sentRate < rate * 0.95)
    console.log(`${name}: the open loop sent ${Math.round(sentRate)}/s, not ${rate}/s`);
  return {
    reqPerSec: good.length / run.answering,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    bad: run.outcomes.length - good.length,
  };
}

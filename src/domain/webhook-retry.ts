/**
 * When a webhook delivery is tried again (docs/webhooks.md, Delivery and signatures): a 2xx is
 * delivered; anything else waits the next delay of the schedule, give or take the jitter, and once
 * the schedule is spent the delivery is `failed`. Ten failed deliveries in a row disable the
 * webhook.
 */

/** Where a delivery is: waiting to be sent (or sent again), done, or given up. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** Deliveries of one webhook that end `failed` in a row, after which it is disabled. */
export const FAILED_IN_A_ROW_TO_DISABLE = 10;

/** The share a retry's delay may move either way, so retries of one outage spread out. */
export const RETRY_JITTER = 0.1;

/** Whether an HTTP status answers a delivery as delivered (any 2xx). */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode <= 299;
}

/**
 * The time (Unix ms) of the next try of a delivery whose `attempt`-th try (1 for the first)
 * failed at `nowMs`, or null when the schedule (`delaysSeconds`, one per retry) is spent.
 * `random` in [0, 1) picks the jitter.
 */
export function nextAttemptMs(
  attempt: number,
  delaysSeconds: readonly number[],
  nowMs: number,
  jitter: number = RETRY_JITTER,
  random: () => number = Math.random,
): number | null {
  const delay = delaysSeconds[attempt - 1];
  if (delay === undefined) return null;
  const factor = 1 + jitter * (2 * random() - 1);
  return nowMs + Math.max(0, Math.round(delay * 1000 * factor));
}

/**
 * What one try does to its delivery: `logged` (the delivery was no longer pending: another
 * dispatcher finished it, so the try is only logged), `delivered`, `retry` at `nextMs`, or
 * `failed` (the schedule is spent).
 */
export type AttemptEffect =
  | { kind: 'logged' }
  | { kind: 'delivered' }
  | { kind: 'retry'; nextMs: number }
  | { kind: 'failed' };

/** A try that only counts: its delivery is no longer its to settle. */
export const LOGGED: AttemptEffect = Object.freeze({ kind: 'logged' });

/**
 * Whether a delivery was replayed after its try began: its next attempt is set later than the
 * try's start (a try starts once its delivery is due, so never before it otherwise). The try
 * then only counts, whatever its answer, and the replay still goes out.
 */
export function replayedSince(nextAttemptAt: string | null, startedAt: string): boolean {
  return nextAttemptAt !== null && nextAttemptAt > startedAt;
}

/**
 * The effect of the `attempt`-th try (1 for the first) of a delivery in `status`, answered
 * with `statusCode` (null: no answer) at `nowMs`, under the schedule `delaysSeconds`.
 */
export function effectOfAttempt(
  status: string,
  attempt: number,
  statusCode: number | null,
  delaysSeconds: readonly number[],
  nowMs: number,
  jitter: number = RETRY_JITTER,
  random: () => number = Math.random,
): AttemptEffect {
  if (status !== 'pending') return LOGGED;
  if (isDelivered(statusCode)) return { kind: 'delivered' };
  const nextMs = nextAttemptMs(attempt, delaysSeconds, nowMs, jitter, random);
  return nextMs === null ? { kind: 'failed' } : { kind: 'retry', nextMs };
}

/**
 * What a batch of tries does to one webhook's failure streak: whether a delivery cleared it
 * (`reset`), and how many deliveries failed since. The store applies it in one statement
 * (the streak becomes `failed` when reset, else grows by `failed`, so concurrent batches add
 * up); at `FAILED_IN_A_ROW_TO_DISABLE` the webhook is disabled.
 */
export interface StreakChange {
  reset: boolean;
  failed: number;
}

/** No change to a streak: the start of a batch. */
export const NO_STREAK_CHANGE: StreakChange = Object.freeze({ reset: false, failed: 0 });

/** `change` followed by one try's `effect`: a delivery clears the streak, a failure adds one. */
export function streakAfter(change: StreakChange, effect: AttemptEffect): StreakChange {
  if (effect.kind === 'delivered') return { reset: true, failed: 0 };
  if (effect.kind === 'failed') return { reset: change.reset, failed: change.failed + 1 };
  return change;
}

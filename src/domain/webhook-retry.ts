/**
 * When a webhook delivery is tried again (DECISIONS 8, Delivery): a 2xx is delivered;
 * anything else waits the next delay of the schedule, give or take the jitter, and once
 * the schedule is spent the delivery is `failed`. Ten failed deliveries in a row disable
 * the webhook.
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

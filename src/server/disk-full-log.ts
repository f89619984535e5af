import type { FastifyBaseLogger } from 'fastify';

/** How often, at most, a full disk is logged while writes keep failing. */
export const DISK_FULL_LOG_INTERVAL_MS = 10_000;

/**
 * The log of writes refused for lack of space: one error line per interval, naming the
 * database and counting the writes refused since the previous line, rather than one per
 * request (a full disk fails every write until space is freed).
 */
export class DiskFullLog {
  #lastAt = Number.NEGATIVE_INFINITY;
  #refused = 0;

  constructor(
    private readonly database: string,
    private readonly intervalMs = DISK_FULL_LOG_INTERVAL_MS,
  ) {}

  /** Counts a refused write; logs when the last line is older than the interval. */
  report(log: FastifyBaseLogger, error: unknown, now = Date.now()): void {
    this.#refused += 1;
    if (now - this.#lastAt < this.intervalMs) return;
    const { code, message } = error as { code?: unknown; message?: unknown };
    log.error(
      { database: this.database, refusedWrites: this.#refused, code, cause: message },
      `disk full: writes to ${this.database} fail for lack of space and answer 507 until space is freed`,
    );
    this.#lastAt = now;
    this.#refused = 0;
  }
}

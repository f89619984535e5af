/** The outcome of counting one request against a workspace's limit. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Counts requests per key in fixed windows. */
export interface RateLimiter {
  /** Counts `cost` requests (1 unless given) against `key`. */
  hit(key: string, cost?: number): RateDecision | Promise<RateDecision>;
}

/** A fixed-window counter in this process's memory. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweepAt = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  hit(key: string, cost = 1): RateDecision {
    const now = this.clock();
    if (now >= this.sweepAt) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now - ((now - (w?.start ?? now)) % this.windowMs), count: 0 };
      this.windows.set(key, w);
    }
    w.count += cost;
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    return {
      allowed: w.count <= this.max,
      limit: this.max,
      remaining: Math.max(0, this.max - w.count),
      resetSeconds,
    };
  }

  /** Drops windows that have ended, so idle workspaces cost no memory. */
  private sweep(now: number): void {
    for (const [key, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(key);
    this.sweepAt = now + this.windowMs;
  }
}

/**
 * How fast a pull asks its source: within the source's rate limit as its answers state it
 * (`RateLimit-Remaining`, `RateLimit-Reset`), and no faster than a set pace for a source
 * that states none. The waits are the pull's only delays: a source that says it has room
 * is asked at once.
 */

/** Waits `ms` milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the pacer has seen: waits, and how long they took in all. */
export interface PaceCounts {
  waits: number;
  waitedMs: number;
}

/**
 * Paces requests: `before()` waits until the next one may go, `after(headers)` reads what
 * the answer says of the limit. `maxPerSecond` (0: none) caps sources that send no limit
 * headers; once a source has sent them, they alone decide.
 */
export class Pacer {
  /** When the next request may go (ms since the epoch). */
  private notBefore = 0;
  /** When the last request went. */
  private lastAt = 0;
  private headersSeen = false;
  readonly counts: PaceCounts = { waits: 0, waitedMs: 0 };

  constructor(
    private readonly maxPerSecond = 0,
    private readonly sleep: Sleep = realSleep,
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits until a request may go. */
  async before(): Promise<void> {
    let at = this.notBefore;
    if (!this.headersSeen && this.maxPerSecond > 0) {
      at = Math.max(at, this.lastAt + 1000 / this.maxPerSecond);
    }
    const wait = at - this.now();
    if (wait > 0) {
      this.counts.waits++;
      this.counts.waitedMs += wait;
      await this.sleep(wait);
    }
    this.lastAt = this.now();
  }

  /**
   * Reads an answer's limit headers: with none left in the window, the next request waits
   * until it resets (`RateLimit-Reset` seconds).
   */
  after(headers: { get(name: string): string | null }): void {
    const remaining = numberOf(headers.get('ratelimit-remaining'));
    const reset = numberOf(headers.get('ratelimit-reset'));
    if (remaining === undefined) return;
    this.headersSeen = true;
    if (remaining <= 0 && reset !== undefined) {
      this.notBefore = Math.max(this.notBefore, this.now() + reset * 1000);
    }
  }
}

function numberOf(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** What `due` answers when no workspace is due (shared: the loop asks at every turn). */
const NONE_DUE: readonly string[] = Object.freeze([]);

/**
 * The workspaces a dispatcher looks in again soon, though no write wakes it there: those where
 * its claim left due deliveries to another dispatcher's claim or lease (`Claim.blocked`), which
 * may end without that dispatcher taking them (it held an earlier first attempt, or had the
 * webhook locked while its own claim looked). The first look again comes `firstMs` after the
 * claim, each next one twice as long after the last while the workspace stays blocked, up to
 * `mostMs` (the poll, whose look in every due workspace comes anyway). Keeps no timer: the
 * dispatcher's loop asks what is due and how long until the next.
 */
export class LooksAgain {
  /** Per workspace: when to look again (Infinity once handed out), and the last wait. */
  private readonly waits = new Map<string, { atMs: number; waitMs: number }>();
  private nextAtMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly firstMs: number,
    private readonly mostMs: number,
    /** Past this many workspaces waiting, the oldest waits are forgotten (each poll looks). */
    private readonly most = 100_000,
  ) {}

  /** A claim looked in `looked` and left deliveries to another dispatcher in `blocked`. */
  looked(looked: readonly string[], blocked: readonly string[], nowMs: number): void {
    if (this.waits.size > 0 && looked.length > 0) {
      const stillBlocked = new Set(blocked);
      for (const id of looked) if (!stillBlocked.has(id)) this.waits.delete(id);
    }
    for (const id of blocked) {
      const last = this.waits.get(id);
      const waitMs = last ? Math.min(2 * last.waitMs, this.mostMs) : this.firstMs;
      if (!last && this.waits.size >= this.most) this.waits.clear();
      const atMs = nowMs + waitMs;
      this.waits.set(id, { atMs, waitMs });
      if (atMs < this.nextAtMs) this.nextAtMs = atMs;
    }
  }

  /**
   * The workspaces to look in again by `nowMs`, each handed out once per claim that blocked.
   * The dispatcher's loop asks at every turn: when none is due, it allocates nothing.
   */
  due(nowMs: number): readonly string[] {
    if (nowMs < this.nextAtMs) return NONE_DUE;
    const due: string[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [id, wait] of this.waits) {
      if (wait.atMs <= nowMs) {
        due.push(id);
        wait.atMs = Number.POSITIVE_INFINITY;
      } else if (wait.atMs < next) {
        next = wait.atMs;
      }
    }
    this.nextAtMs = next;
    return due;
  }

  /**
   * Milliseconds until the next look again is due (Infinity when none waits); early rather
   * than late after a wait grew, until the next `due` reckons it again.
   */
  untilNext(nowMs: number): number {
    return Math.max(0, this.nextAtMs - nowMs);
  }
}

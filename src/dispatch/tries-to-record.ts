import type { AttemptOutcome } from '../store/outbox/attempts.ts';

/** How long tries wait to be recorded, and how many at most. */
export interface RecordPace {
  /** A try no write may record waits this long at most (ms). */
  recordMs: number;
  /** A try a write may record (`carry`) waits this long at most for one (ms). */
  carryMs: number;
  /** Past this many waiting, every try is due. */
  most: number;
}

interface Waiting {
  outcome: AttemptOutcome;
  /** When the try ended (`performance.now()`). */
  at: number;
  /** Whether a write of its workspace may record it (`carry`). */
  carriable: boolean;
  /** A write carried it: it stays in the list, skipped, until the list is compacted. */
  carried?: boolean;
}

/**
 * The tries a dispatcher sent that are not yet recorded, in the order they ended, until the
 * dispatcher records them (`takeDue`) or, on PostgreSQL, a write of their workspace records
 * them in its last statement (`carry`): a try that may be carried waits for a write a while,
 * the others only as long as it takes to gather a few into one record. A write's `carry`
 * costs what its workspace's tries number, not what wait in all (it runs at every write).
 */
export class TriesToRecord {
  /** In the order they ended (those put back first), carried ones among them until compacted. */
  private waiting: Waiting[] = [];
  /** Of `waiting`, how many were carried. */
  private carriedCount = 0;
  /** The carriable tries waiting, by workspace, in the order they ended; and their number. */
  private readonly carriableIn = new Map<string, Waiting[]>();
  private carriable = 0;
  /**
   * The workspaces where a streamed try waits that no write may record: their writes carry
   * nothing until it is recorded.
   */
  private readonly streamedUncarriableIn = new Set<string>();

  constructor(private readonly pace: RecordPace) {}

  get size(): number {
    return this.waiting.length - this.carriedCount;
  }

  add(outcome: AttemptOutcome, carriable: boolean, at = performance.now()): void {
    const waiting: Waiting = { outcome, at, carriable };
    this.waiting.push(waiting);
    if (carriable) this.countCarriable(waiting);
    else if (outcome.streamed) this.streamedUncarriableIn.add(outcome.workspaceId);
  }

  /**
   * Puts tries back before those waiting, for the dispatcher to record (a record that failed,
   * a write that did not commit): they wait as if they had just ended.
   */
  putBack(outcomes: readonly AttemptOutcome[], at = performance.now()): void {
    this.waiting = [
      ...outcomes.map((outcome) => ({ outcome, at, carriable: false })),
      ...this.waiting,
    ];
    for (const outcome of outcomes)
      if (outcome.streamed) this.streamedUncarriableIn.add(outcome.workspaceId);
  }

  /**
   * Takes the carriable tries of a workspace, when there are some and `recordable` accepts
   * them all (else none: they wait for the dispatcher's record).
   */
  carry(
    workspaceId: string,
    recordable: (tries: readonly AttemptOutcome[]) => boolean,
  ): AttemptOutcome[] | undefined {
    const mine = this.carriableIn.get(workspaceId);
    if (mine === undefined) return undefined;
    // A streamed try no write may record (not answered 2xx) goes first: the record of a later
    // one moves its stream's mark past it, which only its own record may.
    if (this.streamedUncarriableIn.has(workspaceId)) return undefined;
    const tries = mine.map((w) => w.outcome);
    if (!recordable(tries)) return undefined;
    for (const w of mine) w.carried = true;
    this.carriedCount += mine.length;
    this.carriable -= mine.length;
    this.carriableIn.delete(workspaceId);
    // Carried ones are dropped from the list once they are half of it.
    if (this.carriedCount * 2 > this.waiting.length) {
      this.waiting = this.waiting.filter((w) => !w.carried);
      this.carriedCount = 0;
    }
    return tries;
  }

  /** Makes every waiting try one no write records (the writes stopped carrying). */
  uncarry(): void {
    this.waiting = this.waiting.filter((w) => !w.carried);
    this.carriedCount = 0;
    this.carriableIn.clear();
    this.carriable = 0;
    this.streamedUncarriableIn.clear();
    for (const w of this.waiting) {
      w.carriable = false;
      if (w.outcome.streamed) this.streamedUncarriableIn.add(w.outcome.workspaceId);
    }
  }

  /** Milliseconds until some try is due to be recorded from `now` (0: now; Infinity: none waits). */
  untilDue(now = performance.now()): number {
    if (this.size >= this.pace.most) return 0;
    // The first of each kind decides (they wait in the order they ended, those put back
    // first); the counts say which kinds wait, so neither search runs past the end.
    const oldest = (carriable: boolean) => {
      for (const w of this.waiting) if (!w.carried && w.carriable === carriable) return w.at;
      return Number.POSITIVE_INFINITY;
    };
    return Math.min(
      this.carriable > 0
        ? Math.max(0, oldest(true) + this.pace.carryMs - now)
        : Number.POSITIVE_INFINITY,
      this.size > this.carriable
        ? Math.max(0, oldest(false) + this.pace.recordMs - now)
        : Number.POSITIVE_INFINITY,
    );
  }

  /**
   * Takes the tries due, in the order they ended: all of them when `all` is set or too many
   * wait; else, once any is due, each no write may record and each that waited for one
   * long enough. (A record costs a statement per workspace on PostgreSQL, however many it
   * gathers, so the young carriable ones stay for their writes.)
   */
  takeDue(all: boolean, now = performance.now()): AttemptOutcome[] {
    if (!all && this.untilDue(now) > 0) return [];
    const kept: Waiting[] = [];
    const taken: AttemptOutcome[] = [];
    const every = all || this.size >= this.pace.most;
    for (const w of this.waiting) {
      if (w.carried) continue;
      if (!every && w.carriable && now - w.at < this.pace.carryMs) kept.push(w);
      else taken.push(w.outcome);
    }
    // Those kept are all carriable: no streamed one that no write may record waits.
    this.waiting = kept;
    this.carriedCount = 0;
    this.carriableIn.clear();
    this.carriable = 0;
    this.streamedUncarriableIn.clear();
    for (const w of kept) this.countCarriable(w);
    return taken;
  }

  private countCarriable(waiting: Waiting): void {
    const list = this.carriableIn.get(waiting.outcome.workspaceId);
    if (list) list.push(waiting);
    else this.carriableIn.set(waiting.outcome.workspaceId, [waiting]);
    this.carriable += 1;
  }
}

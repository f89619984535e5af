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
}

/**
 * The tries a dispatcher sent that are not yet recorded, in the order they ended, until the
 * dispatcher records them (`takeDue`) or, on PostgreSQL, a write of their workspace records
 * them in its last statement (`carry`): a try that may be carried waits for a write a while,
 * the others only as long as it takes to gather a few into one record.
 */
export class TriesToRecord {
  private waiting: Waiting[] = [];
  /** How many carriable tries wait, by workspace, and in all. */
  private readonly carriableIn = new Map<string, number>();
  private carriable = 0;
  /** Streamed tries waiting that no write may record: while one waits, `carry` looks. */
  private streamedUncarriable = 0;

  constructor(private readonly pace: RecordPace) {}

  get size(): number {
    return this.waiting.length;
  }

  add(outcome: AttemptOutcome, carriable: boolean, at = performance.now()): void {
    this.waiting.push({ outcome, at, carriable });
    if (carriable) this.countCarriable(outcome.workspaceId);
    else if (outcome.streamed) this.streamedUncarriable += 1;
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
    this.streamedUncarriable += outcomes.filter((o) => o.streamed).length;
  }

  /**
   * Takes the carriable tries of a workspace, when there are some and `recordable` accepts
   * them all (else none: they wait for the dispatcher's record).
   */
  carry(
    workspaceId: string,
    recordable: (tries: readonly AttemptOutcome[]) => boolean,
  ): AttemptOutcome[] | undefined {
    const count = this.carriableIn.get(workspaceId);
    if (count === undefined) return undefined;
    // A streamed try no write may record (not answered 2xx) goes first: the record of a later
    // one moves its stream's mark past it, which only its own record may.
    const streamedFirst = (w: Waiting) =>
      !w.carriable && w.outcome.streamed !== undefined && w.outcome.workspaceId === workspaceId;
    if (this.streamedUncarriable > 0 && this.waiting.some(streamedFirst)) return undefined;
    const mine = (w: Waiting) => w.carriable && w.outcome.workspaceId === workspaceId;
    const tries = this.waiting.filter(mine).map((w) => w.outcome);
    if (!recordable(tries)) return undefined;
    this.waiting = this.waiting.filter((w) => !mine(w));
    this.carriableIn.delete(workspaceId);
    this.carriable -= count;
    return tries;
  }

  /** Makes every waiting try one no write records (the writes stopped carrying). */
  uncarry(): void {
    for (const w of this.waiting) w.carriable = false;
    this.streamedUncarriable = this.waiting.filter((w) => w.outcome.streamed).length;
    this.carriableIn.clear();
    this.carriable = 0;
  }

  /** Milliseconds until some try is due to be recorded from `now` (0: now; Infinity: none waits). */
  untilDue(now = performance.now()): number {
    if (this.waiting.length >= this.pace.most) return 0;
    // The first of each kind decides (they wait in the order they ended, those put back
    // first); the counts say which kinds wait, so neither search runs past the end.
    const until = (carriable: boolean, wait: number) => {
      const oldest = this.waiting.find((w) => w.carriable === carriable)!;
      return Math.max(0, oldest.at + wait - now);
    };
    return Math.min(
      this.carriable > 0 ? until(true, this.pace.carryMs) : Number.POSITIVE_INFINITY,
      this.waiting.length > this.carriable
        ? until(false, this.pace.recordMs)
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
    const every = all || this.waiting.length >= this.pace.most;
    for (const w of this.waiting) {
      if (!every && w.carriable && now - w.at < this.pace.carryMs) kept.push(w);
      else taken.push(w.outcome);
    }
    this.waiting = kept;
    this.carriableIn.clear();
    this.carriable = 0;
    this.streamedUncarriable = 0;
    for (const w of kept) this.countCarriable(w.outcome.workspaceId);
    return taken;
  }

  private countCarriable(workspaceId: string): void {
    this.carriableIn.set(workspaceId, (this.carriableIn.get(workspaceId) ?? 0) + 1);
    this.carriable += 1;
  }
}

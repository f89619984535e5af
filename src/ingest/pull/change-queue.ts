/**
 * The changes `pull --follow` has heard of and not applied yet, from webhook deliveries or the
 * event feed (docs/webhooks.md, Payloads). Deliveries repeat (at least once): an event already
 * applied (`eventId` + `objectId`) is skipped. Each record waits once however many of its
 * events came (the change applied is the record as the source has it when it is read), in the
 * order its first event came; a merge's `삭제` is paired with the `병합` of the same `eventId`
 * to merge in the copy rather than delete.
 */
import { type ChangedKind, kindOfObjectType } from './apply-change.ts';

/** What to do for one record. */
export type QueuedChange =
  | { is: 'read'; kind: ChangedKind; id: string; eventId: string }
  | { is: 'gone'; kind: ChangedKind; id: string; eventId: string }
  | { is: 'merged'; kind: ChangedKind; id: string; mergedId: string; eventId: string };

/** How many applied events are remembered, to skip their repeats (the oldest are forgotten). */
const REMEMBERED = 200_000;

/** Events waiting to be applied, one entry a record. */
export class ChangeQueue {
  private readonly waiting = new Map<string, { change: QueuedChange; keys: string[] }>();
  /** Applied events (`eventId` + `objectId`), oldest first. */
  private readonly applied = new Set<string>();
  /** The record each merge (`eventId`, kind) kept, from its `병합`. */
  private readonly keptBy = new Map<string, string>();
  private wake: (() => void) | undefined;
  /** Events of record types a pull does not carry (custom objects), left to the walk. */
  ignored = 0;

  get size(): number {
    return this.waiting.size;
  }

  /** Takes one event's payload (a delivery's body, an item of the feed). */
  push(payload: Record<string, unknown>): void {
    const { event, objectType, objectId, eventId } = payload;
    if (typeof objectId !== 'string' || typeof eventId !== 'string') return;
    const kind = kindOfObjectType(objectType);
    if (kind === undefined) {
      this.ignored++;
      return;
    }
    const key = `${eventId}\u0000${objectId}`;
    if (this.applied.has(key)) return;
    let change: QueuedChange = { is: 'read', kind, id: objectId, eventId };
    if (event === '병합') this.keptBy.set(`${eventId}\u0000${kind}`, objectId);
    if (event === '삭제') {
      const kept = this.keptBy.get(`${eventId}\u0000${kind}`);
      change =
        kept !== undefined
          ? { is: 'merged', kind, id: kept, mergedId: objectId, eventId }
          : { is: 'gone', kind, id: objectId, eventId };
    }
    const at = `${change.kind}\u0000${change.is === 'merged' ? change.mergedId : change.id}`;
    const held = this.waiting.get(at);
    if (held) {
      held.keys.push(key);
      // A record gone or merged away since: that is what the copy must do now.
      if (change.is !== 'read') held.change = change;
    } else {
      this.waiting.set(at, { change, keys: [key] });
    }
    this.nudge();
  }

  /** Ends a `wait` under way (something besides an event wants the follow's attention). */
  nudge(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The next change, with the events it stands for, or undefined when none waits. */
  take(): { change: QueuedChange; keys: string[] } | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    this.waiting.delete(first.value[0]);
    return first.value[1];
  }

  /** Remembers events as applied, so that their repeats are skipped. */
  done(keys: readonly string[]): void {
    for (const key of keys) {
      this.applied.add(key);
      if (this.applied.size > REMEMBERED) {
        this.applied.delete(this.applied.values().next().value!);
        const oldest = this.keptBy.keys().next();
        if (!oldest.done && this.keptBy.size > REMEMBERED) this.keptBy.delete(oldest.value);
      }
    }
  }

  /** Resolves once an event waits (or `nudge`), or at `ms`, or when `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.waiting.size > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}

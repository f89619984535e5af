import { workspaceKey } from '../domain/ids.ts';
import type { WrittenEvents } from '../store/outbox/handover.ts';
import type { StreamKey } from '../store/outbox/streams.ts';

/** What a dispatcher knows of one webhook's stream (`store/outbox/streams.ts`). */
export interface StreamState {
  readonly key: StreamKey;
  /**
   * Every first attempt of the webhook's events up to this number is held by the dispatcher
   * or was sent by it; undefined when it does not know (a write of another process, or one
   * whose deliveries it could not take, came between).
   */
  position: number | undefined;
  /** When its lease ends (Unix ms); 0 while the dispatcher does not hold the stream. */
  leaseEnds: number;
  /** Its taking is under way. */
  acquiring: boolean;
  /** Not to be taken before then (Unix ms): the last try found it another's, or it was broken. */
  retryAt: number;
  /**
   * While held or being taken, a write of another process came between two of this one's:
   * writes elsewhere give the webhook deliveries too, which wait for this holder's claim
   * while it holds the stream.
   */
  broken: boolean;
}

/** Streams a dispatcher tracks at most; past them, it takes no new ones. */
const MAX_STREAMS = 100_000;

/**
 * The streams a dispatcher holds or may take, and how far it holds each webhook's first
 * attempts: a write may stream a webhook's deliveries (no rows) when the dispatcher holds its
 * stream and its first event follows the position. No I/O: the dispatcher takes, renews and
 * lets go; this keeps the account.
 */
export class HeldStreams {
  private readonly states = new Map<string, StreamState>();
  /** The streams tracked in each workspace. */
  private readonly inWorkspace = new Map<string, Set<StreamState>>();
  /** The streams tracked and not held. */
  private readonly unheld = new Set<StreamState>();

  /** Whether a stream of the workspace is tracked (its writes then tell their numbers). */
  in(workspaceId: string): boolean {
    return this.inWorkspace.has(workspaceId);
  }

  get(workspaceId: string, webhookId: string): StreamState | undefined {
    return this.states.get(workspaceKey(workspaceId, webhookId));
  }

  /**
   * After a write's handover: the webhooks whose first attempts the dispatcher took (`taken`,
   * each with its last event taken), and the write's events when they were told. A webhook
   * taken is held to the write's last event; another tracked stream of the workspace stays
   * whole only if the write made it no delivery and its position met the write's first.
   */
  written(
    workspaceId: string,
    taken: ReadonlyMap<string, number>,
    events: WrittenEvents | undefined,
  ): void {
    if (events) {
      for (const state of this.inWorkspace.get(workspaceId) ?? []) {
        const id = state.key.webhookId;
        if (taken.has(id)) state.position = events.last;
        else if (!events.made.has(id) && state.position === events.first - 1)
          state.position = events.last;
        else {
          const holding = state.leaseEnds > 0 || state.acquiring;
          if (holding && state.position !== undefined && state.position !== events.first - 1) {
            if (state.leaseEnds > 0 && !state.broken) this.brokenHeld += 1;
            state.broken = true;
          }
          state.position = undefined;
        }
      }
    }
    for (const [webhookId, lastSeq] of taken) {
      if (this.get(workspaceId, webhookId)) continue;
      if (this.states.size >= MAX_STREAMS) break;
      const state: StreamState = {
        key: { workspaceId, webhookId },
        position: events?.last ?? lastSeq,
        leaseEnds: 0,
        acquiring: false,
        retryAt: 0,
        broken: false,
      };
      this.states.set(workspaceKey(workspaceId, webhookId), state);
      const inWorkspace = this.inWorkspace.get(workspaceId);
      if (inWorkspace) inWorkspace.add(state);
      else this.inWorkspace.set(workspaceId, new Set([state]));
      this.unheld.add(state);
    }
  }

  /**
   * The stream is held, its lease ending at `leaseEnds` (Unix ms); broken at once if a write
   * of another process came between while it was being taken.
   */
  taken(state: StreamState, leaseEnds: number): void {
    state.leaseEnds = leaseEnds;
    if (state.broken) this.brokenHeld += 1;
    this.unheld.delete(state);
  }

  /** Taking the stream failed: not tried again before `retryAt` (Unix ms). */
  notTaken(state: StreamState, retryAt: number): void {
    state.broken = false;
    state.retryAt = retryAt;
  }

  /** Held streams that writes of another process broke (`broken`): to let go. */
  broken(): StreamState[] {
    if (this.brokenHeld === 0) return [];
    return this.held().filter((s) => s.broken);
  }

  /** How many held streams are broken. */
  private brokenHeld = 0;

  /** Whether a held stream is broken. */
  get anyBroken(): boolean {
    return this.brokenHeld > 0;
  }

  /** A broken stream let go: not taken again before `retryAt` (Unix ms). */
  letGo(state: StreamState, retryAt: number): void {
    if (state.leaseEnds > 0 && state.broken) this.brokenHeld -= 1;
    state.leaseEnds = 0;
    state.broken = false;
    state.position = undefined;
    state.retryAt = retryAt;
    this.unheld.add(state);
  }

  /** The streams to take now: known positions, not held, not being taken, not refused lately. */
  toAcquire(nowMs: number): StreamState[] {
    const out: StreamState[] = [];
    for (const state of this.unheld) {
      if (state.acquiring || state.position === undefined) continue;
      if (state.retryAt > nowMs) continue;
      out.push(state);
    }
    return out;
  }

  /** The streams held. */
  held(): StreamState[] {
    return [...this.states.values()].filter((s) => s.leaseEnds > 0);
  }

  /** The held streams whose leases end within `ms` of `nowMs`. */
  endingWithin(nowMs: number, ms: number): StreamState[] {
    this.lookedAt = nowMs;
    return this.held().filter((s) => s.leaseEnds - nowMs < ms);
  }

  /**
   * Whether to look for leases to renew (`endingWithin`): once a second at most, as the
   * dispatcher's loop asks at every turn.
   */
  renewLookDue(nowMs: number): boolean {
    return this.states.size > 0 && nowMs - this.lookedAt >= 1_000;
  }

  private lookedAt = 0;

  /** Forgets a stream: let go, lost to a recovery, or its webhook disabled. */
  drop(key: StreamKey): void {
    const k = workspaceKey(key.workspaceId, key.webhookId);
    const state = this.states.get(k);
    if (!state) return;
    if (state.leaseEnds > 0 && state.broken) this.brokenHeld -= 1;
    this.states.delete(k);
    this.unheld.delete(state);
    const inWorkspace = this.inWorkspace.get(key.workspaceId);
    inWorkspace?.delete(state);
    if (inWorkspace?.size === 0) this.inWorkspace.delete(key.workspaceId);
  }
}

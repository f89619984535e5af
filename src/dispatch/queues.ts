import { workspaceKey } from '../domain/ids.ts';
import type { WebhookKey } from '../store/outbox/attempts.ts';
import type { DeliveryKey } from '../store/outbox/bookkeeping.ts';
import type { Delivery } from '../store/outbox/deliveries.ts';

/** One webhook's deliveries held by the dispatcher. */
interface WebhookQueue {
  key: WebhookKey;
  /** First attempts waiting, in event order. */
  firsts: Delivery[];
  /** Retries waiting, in due order. */
  retries: Delivery[];
  /** POSTs in flight. */
  sending: number;
  /** A first attempt is in flight: the next waits for it. */
  firstSending: boolean;
  /** Deliveries held, by id: waiting, in flight, or sent and not yet recorded. */
  held: Set<string>;
}

/**
 * The deliveries a dispatcher holds (claimed and not yet recorded), queued per webhook, and
 * which to send next: first attempts of one webhook one at a time in event order, retries
 * beside them (they may overtake), within the limits in all and per webhook, a webhook at a
 * time in turn. No I/O: the dispatcher claims, sends and records; this keeps the account.
 */
export class WebhookQueues {
  /** Deliveries held, and when their leases end (Unix ms), by id. */
  readonly held = new Map<string, { delivery: Delivery; leaseEnds: number }>();
  private readonly queues = new Map<string, WebhookQueue>();
  /**
   * The queues with a delivery waiting to start: those `start` looks at (most held
   * deliveries are in flight, or sent and waiting to be recorded).
   */
  private readonly waiting = new Set<WebhookQueue>();
  /** POSTs in flight, in all. */
  sending = 0;
  private turn = 0;

  /** Holds a claimed delivery (once), queued behind its webhook's earlier first attempts. */
  hold(delivery: Delivery, leaseEnds: number): void {
    if (this.held.has(delivery.id)) return;
    this.held.set(delivery.id, { delivery, leaseEnds });
    const key = workspaceKey(delivery.workspaceId, delivery.webhookId);
    let queue = this.queues.get(key);
    if (!queue) {
      queue = {
        key: { workspaceId: delivery.workspaceId, webhookId: delivery.webhookId },
        firsts: [],
        retries: [],
        sending: 0,
        firstSending: false,
        held: new Set(),
      };
      this.queues.set(key, queue);
    }
    queue.held.add(delivery.id);
    this.waiting.add(queue);
    if (delivery.attemptCount > 0) {
      queue.retries.push(delivery);
      return;
    }
    // In event order: a claim may hold a first attempt that an earlier claim's follow.
    let at = queue.firsts.length;
    while (at > 0 && queue.firsts[at - 1]!.eventSeq > delivery.eventSeq) at -= 1;
    queue.firsts.splice(at, 0, delivery);
  }

  /** Whether a delivery waits to start. */
  get hasWaiting(): boolean {
    return this.waiting.size > 0;
  }

  /** How many of a webhook's deliveries are held. */
  heldOf(workspaceId: string, webhookId: string): number {
    return this.queues.get(workspaceKey(workspaceId, webhookId))?.held.size ?? 0;
  }

  /** How many of a webhook's held deliveries are streamed first attempts (no row). */
  streamedOf(workspaceId: string, webhookId: string): number {
    const queue = this.queues.get(workspaceKey(workspaceId, webhookId));
    let n = 0;
    for (const id of queue?.held ?? []) if (this.held.get(id)?.delivery.streamedAt) n += 1;
    return n;
  }

  /** The ids of a webhook's deliveries held. */
  heldIdsOf(workspaceId: string, webhookId: string): string[] {
    const queue = this.queues.get(workspaceKey(workspaceId, webhookId));
    return queue ? [...queue.held] : [];
  }

  /** The deliveries held in a workspace, and their webhooks: from its webhooks' queues. */
  heldIn(workspaceId: string): { id: string; webhookId: string }[] {
    const out: { id: string; webhookId: string }[] = [];
    for (const queue of this.queues.values()) {
      if (queue.key.workspaceId !== workspaceId) continue;
      for (const id of queue.held) out.push({ id, webhookId: queue.key.webhookId });
    }
    return out;
  }

  /** The most deliveries held of any one webhook. */
  mostHeldOfOne(): number {
    let most = 0;
    for (const queue of this.queues.values()) most = Math.max(most, queue.held.size);
    return most;
  }

  /**
   * The deliveries to send now, each counted as in flight until `ended`: within
   * `concurrency` POSTs in all and `perWebhook` per webhook, a webhook at a time in turn;
   * only `webhook`'s when given.
   */
  start(concurrency: number, perWebhook: number, webhook?: WebhookKey): Delivery[] {
    const starting: Delivery[] = [];
    // The queues with deliveries waiting, once: starting a delivery adds none.
    const queues = webhook === undefined ? [...this.waiting] : this.waitingOf(webhook);
    let started = true;
    while (started && this.sending < concurrency) {
      started = false;
      for (let i = 0; i < queues.length && this.sending < concurrency; i++) {
        const queue = queues[(this.turn + i) % queues.length]!;
        if (queue.sending >= perWebhook) continue;
        let delivery: Delivery | undefined;
        if (queue.firsts.length > 0 && !queue.firstSending) delivery = queue.firsts.shift();
        else delivery = queue.retries.shift();
        if (!delivery) continue;
        if (queue.firsts.length === 0 && queue.retries.length === 0) this.waiting.delete(queue);
        queue.sending += 1;
        if (delivery.attemptCount === 0) queue.firstSending = true;
        this.sending += 1;
        starting.push(delivery);
        started = true;
      }
      this.turn += 1;
    }
    return starting;
  }

  /** A webhook's queue, when a delivery of it waits to start (else none). */
  private waitingOf(webhook: WebhookKey): WebhookQueue[] {
    const queue = this.queues.get(workspaceKey(webhook.workspaceId, webhook.webhookId));
    return queue && this.waiting.has(queue) ? [queue] : [];
  }

  /** A POST `start` gave ended: its webhook may send again (the delivery stays held). */
  ended(delivery: Delivery): void {
    const queue = this.queues.get(workspaceKey(delivery.workspaceId, delivery.webhookId));
    this.sending -= 1;
    if (!queue) return;
    queue.sending -= 1;
    if (delivery.attemptCount === 0) queue.firstSending = false;
  }

  /** Lets go of a delivery (recorded, or let go unsent); its webhook's queue goes when empty. */
  forget(key: DeliveryKey & { webhookId: string }): void {
    if (!this.held.delete(key.id)) return;
    const qk = workspaceKey(key.workspaceId, key.webhookId);
    const queue = this.queues.get(qk);
    if (!queue) return;
    queue.held.delete(key.id);
    if (queue.held.size === 0 && queue.sending === 0) {
      this.queues.delete(qk);
      this.waiting.delete(queue);
    }
  }

  /**
   * Lets go of the deliveries waiting (not in flight) of one webhook, or of all when
   * `webhook` is undefined; returns them, for their leases to be released.
   */
  letGo(webhook?: WebhookKey): Delivery[] {
    const queues =
      webhook === undefined
        ? [...this.queues.values()]
        : [this.queues.get(workspaceKey(webhook.workspaceId, webhook.webhookId))];
    const waiting: Delivery[] = [];
    for (const queue of queues) {
      if (!queue) continue;
      waiting.push(...queue.firsts, ...queue.retries);
      queue.firsts = [];
      queue.retries = [];
      this.waiting.delete(queue);
    }
    for (const delivery of waiting) this.forget(delivery);
    return waiting;
  }

  /** The held deliveries whose leases end within `ms` of `nowMs` (Unix ms). */
  leasesEndingWithin(nowMs: number, ms: number): Delivery[] {
    const due: Delivery[] = [];
    for (const entry of this.held.values())
      if (entry.leaseEnds - nowMs < ms) due.push(entry.delivery);
    return due;
  }

  /** Deliveries whose leases were renewed to end at `ends` (Unix ms). */
  renewed(keys: readonly DeliveryKey[], ends: number): void {
    for (const key of keys) {
      const entry = this.held.get(key.id);
      if (entry) entry.leaseEnds = ends;
    }
  }
}

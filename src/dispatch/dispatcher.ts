import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { workspaceKey } from '../domain/ids.ts';
import { isDelivered } from '../domain/webhook-retry.ts';
import type { Store } from '../store/database.ts';
import {
  type AttemptOutcome,
  carriable,
  recordAttempts,
  type WebhookKey,
} from '../store/outbox/attempts.ts';
import {
  claimDeliveries,
  type Delivery,
  releaseDeliveries,
  renewDeliveryLeases,
  WORKSPACES_PER_CLAIM,
} from '../store/outbox/deliveries.ts';
import { WEBHOOKS_LEASE } from '../store/outbox/dispatch-lease.ts';
import type { DeliveryTaker, Handover } from '../store/outbox/handover.ts';
import {
  acquireStream,
  makeDeliveryRows,
  recoverLapsedStreams,
  releaseStreams,
  renewStreams,
} from '../store/outbox/streams.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { attemptDelivery } from './attempt.ts';
import { deliveryLagSeconds } from './delivery-lag.ts';
import { HeldStreams } from './held-streams.ts';
import { DispatchLeaseHolder } from './lease-holder.ts';
import { type DispatchLog, SILENT_LOG } from './log.ts';
import { LooksAgain } from './looks-again.ts';
import { WebhookQueues } from './queues.ts';
import { SendPacer } from './send-pacer.ts';
import { TriesToRecord } from './tries-to-record.ts';

/** How a dispatcher sends. */
export interface DispatcherOptions {
  /** Seconds before each retry (`WEBHOOK_RETRY_DELAYS`); after the last, a delivery fails. */
  retryDelays: readonly number[];
  /** The most one POST may take (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** POSTs in flight at most, in all (`WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /** POSTs in flight at most to one webhook (`WEBHOOK_CONCURRENCY_PER_WEBHOOK`). */
  perWebhook: number;
  /** How often an idle dispatcher looks for due deliveries (`WEBHOOK_POLL_MS`). */
  pollMs: number;
  /**
   * POSTs handed over within this many ms of a burst's start wait for the next burst
   * (`WEBHOOK_SEND_GAP_MS`, `SendPacer`); by default `POSTGRES_SEND_GAP_MS` on PostgreSQL,
   * 0 (each at once) on SQLite.
   */
  sendGapMs?: number;
  /**
   * Whether a delivery may reach loopback, private and link-local addresses
   * (`WEBHOOK_ALLOW_PRIVATE`); otherwise every send resolves the host again and refuses them.
   */
  allowPrivate: boolean;
  log?: DispatchLog;
  /** How long a claimed delivery is leased (renewed while held); default max(30 s, 2 × timeout + 10 s). */
  leaseMs?: number;
  /** SQLite: how long the dispatch lease lasts unless renewed (default 15 s; renewed every third). */
  dispatchLeaseMs?: number;
  /** Bytes of an answer's body read at most (default 64 KiB). */
  maxAnswerBytes?: number;
  /** Share of a retry's delay it may move either way (default 10 %). */
  jitter?: number;
  /** How long tries answered 2xx wait for a write to record them (`CARRY_MS` by default). */
  carryMs?: number;
}

/** The dispatcher's options from the service's settings. */
export function dispatcherOptions(
  config: Pick<
    Config,
    | 'webhookRetryDelays'
    | 'webhookTimeoutMs'
    | 'webhookConcurrency'
    | 'webhookConcurrencyPerWebhook'
    | 'webhookPollMs'
    | 'webhookAllowPrivate'
    | 'webhookSendGapMs'
  >,
  log?: DispatchLog,
): DispatcherOptions {
  return {
    retryDelays: config.webhookRetryDelays,
    timeoutMs: config.webhookTimeoutMs,
    concurrency: config.webhookConcurrency,
    perWebhook: config.webhookConcurrencyPerWebhook,
    pollMs: config.webhookPollMs,
    allowPrivate: config.webhookAllowPrivate,
    sendGapMs: config.webhookSendGapMs,
    log,
  };
}

/** What a dispatcher has done since it started. */
export interface DispatchStats {
  claims: number;
  /** Deliveries this process's writes leased to it (`outbox/handover.ts`), claimed by none. */
  taken: number;
  sent: number;
  delivered: number;
  /** Tries answered other than 2xx, or not answered. */
  failedTries: number;
  /** Tries that writes of this process recorded in their last statement (`carryRecord`). */
  carried: number;
  /** First attempts this process's writes streamed to it, with no rows (`streams.ts`). */
  streamed: number;
}

/** Longest wait after a database error. */
const MAX_BACKOFF_MS = 30_000;
/** Longest an idle loop sleeps between looks at its leases. */
const MAX_IDLE_MS = 1_000;
/**
 * Tries are recorded once this many have ended… (each transaction costs more than its rows:
 * on SQLite, with its large pages, a commit of a few rows writes as much as one of many)
 */
const RECORD_BATCH = 64;
/**
 * …or once the oldest unrecorded one ended this long ago. Not sooner when the dispatcher
 * idles: at the pace of the API's writes (a delivery or two at a time), recording each at
 * once would cost a transaction per delivery, and nobody waits for the record.
 */
const RECORD_DELAY_MS = 50;
/**
 * PostgreSQL, with this process's writes carrying records (`carryRecord`): tries answered 2xx
 * wait this long at most for the next write of their workspace to record them, before the
 * dispatcher records them itself. A record of its own costs a round trip and a transaction
 * (about 0.3 ms of the server's CPU, and a commit); while writes stream in, the next write
 * comes sooner. The delivery reads as pending meanwhile; its receiver has it.
 */
const CARRY_MS = 500;
/**
 * A stream that writes of another process broke is not taken again for this long: where
 * several processes write to a webhook, its deliveries go by handover and claims.
 */
const BROKEN_STREAM_PAUSE_MS = 60_000;
/**
 * PostgreSQL: POSTs that writes hand over while others started within this many ms start
 * together at its end (`SendPacer`): under a stream of writes a delivery waits this long at
 * most for its burst; a lone write's goes at once. There each write's commit comes back on
 * its own, and its POST went out alone. On SQLite the writes of one turn of the event loop
 * run back to back and their POSTs already go out together (undici writes them once the turn
 * ends), so pacing would add its wait and save nothing (docs/benchmarks.md, Webhooks in 100
 * workspaces: POSTs in bursts).
 */
const POSTGRES_SEND_GAP_MS = 20;
/** Workspaces whose last look a dispatcher remembers at most; beyond, it starts over. */
const MAX_LOOKED_IN = 100_000;
/**
 * A workspace where this process's writes keep handing deliveries over is still looked in by
 * a claim over every due workspace this often at least: a write saw only its own webhooks'
 * first attempts, not a retry of another webhook due there.
 */
const HANDED_LOOK_MS = 1_000;
/**
 * Claims that `wake()` asks for are this far apart at least: a lone write's deliveries go
 * at once, a stream of writes costs a claim per this many ms rather than one per write.
 */
const WAKE_GAP_MS = 25;
/**
 * A workspace where a claim left due deliveries to another dispatcher's claim or lease is
 * looked in again this long after (then twice as long each time, up to a poll): about the time
 * another dispatcher takes to send a first attempt and record it (`RECORD_DELAY_MS`).
 */
const BLOCKED_LOOK_MS = 60;

/**
 * Sends webhook deliveries (docs/webhooks.md, Delivery and signatures): claims due deliveries in
 * batches, POSTs them signed, with bounded concurrency in all and per webhook, and records each
 * try. First attempts of one webhook go out one at a time in event order; retries may overtake. No
 * database transaction is open during a POST; a database error is logged and backed off from, never
 * thrown. On SQLite one dispatcher per database claims at a time (the dispatch lease); on
 * PostgreSQL any number claim side by side. The writes of its own process may lease their
 * deliveries to it as they commit (`DeliveryTaker`), which then need no claim, and once it
 * holds a webhook's stream, hand it that webhook's first attempts with no rows at all
 * (`outbox/streams.ts`, docs/deploy.md, Streamed first attempts).
 */
export class Dispatcher implements DeliveryTaker {
  /** This dispatcher's id, as holder of leases. */
  readonly id = randomUUID();
  readonly stats: DispatchStats = {
    claims: 0,
    taken: 0,
    sent: 0,
    delivered: 0,
    failedTries: 0,
    carried: 0,
    streamed: 0,
  };
  private readonly log: DispatchLog;
  readonly leaseMs: number;
  private readonly heldCap: number;
  private readonly perWebhookHeld: number;
  /** Deliveries claimed and not yet recorded, per webhook, and when their leases end. */
  private readonly queues = new WebhookQueues();
  /** When the POSTs waiting start (`send-pacer.ts`), and the timer of the next burst. */
  private readonly pacer: SendPacer;
  private burstTimer: NodeJS.Timeout | undefined;
  /** The webhooks' streams it holds or may take (`outbox/streams.ts`). */
  private readonly streamsHeld = new HeldStreams();
  /** Who hears of each try answered 2xx, with its delivery's lag (`onDelivered`). */
  private readonly deliveredListeners = new Set<(lagSeconds: number) => void>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Tries that ended and are not yet recorded. */
  private readonly tries: TriesToRecord;
  /** PostgreSQL: whether this process's writes record tries (`carryRecordsInWrites`). */
  private writesCarry = false;
  private running: Promise<void> | undefined;
  /**
   * The loop's tasks while they run: recording the tries that ended; claiming in the
   * workspaces `wake` named; claiming in every due workspace (and keeping the leases).
   */
  private recording: Promise<void> | undefined;
  private claimingWoken: Promise<void> | undefined;
  private claimingDue: Promise<void> | undefined;
  /** An error of a task, for the loop to back off from. */
  private failure: unknown;
  private stopped: Promise<void> | undefined;
  private stopRequested = false;
  private signal: (() => void) | undefined;
  /**
   * The workspaces `wake` named since the last claim: a claim that only a wake asks for looks
   * in them alone, not in every workspace whose mark is due (most of which, while writes
   * stream in, hold nothing but deliveries this dispatcher is sending or has yet to record).
   */
  private readonly wokenIn = new Set<string>();
  /** Where a claim left deliveries to another dispatcher: looked in again soon, as if woken. */
  private readonly looksAgain: LooksAgain;
  /** `wake` named no workspace: the next claim looks in every due one. */
  private wokenAll = false;
  /** The last claim left due deliveries behind. */
  private more = false;
  /** Deliveries recorded (so no longer held) since the last claim. */
  private freed = 0;
  /** When a claim in woken workspaces last began. */
  private lastWokenClaim = 0;
  /** When a claim last looked in every workspace whose mark is due. */
  private lastFullClaim = 0;
  /** SQLite: the dispatch lease, which one dispatcher per database holds to claim. */
  private readonly dispatchLease: DispatchLeaseHolder;
  /** The claim (`stats.claims`) that last looked in each workspace: they take turns. */
  private readonly lookedIn = new Map<string, number>();
  /**
   * When a claim in woken workspaces last looked in each (Unix ms): a claim in every due
   * workspace passes over those looked in within a poll (`ClaimRequest.passOver`), so each is
   * looked in again one poll later at most.
   */
  private readonly wokenLookedAt = new Map<string, number>();
  /** When a write last handed this dispatcher deliveries in each workspace (Unix ms). */
  private readonly handedAt = new Map<string, number>();
  /** When a claim over every due workspace last looked in each (Unix ms). */
  private readonly dueLookedAt = new Map<string, number>();
  /**
   * When this dispatcher disabled each webhook (Unix ms): a write that saw it still active
   * may lease it deliveries after, which are let go rather than sent.
   */
  private readonly disabledAt = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly options: DispatcherOptions,
  ) {
    this.log = options.log ?? SILENT_LOG;
    this.looksAgain = new LooksAgain(BLOCKED_LOOK_MS, Math.max(BLOCKED_LOOK_MS, options.pollMs));
    this.pacer = new SendPacer(
      options.sendGapMs ?? (store.dialect === 'postgres' ? POSTGRES_SEND_GAP_MS : 0),
    );
    this.leaseMs = options.leaseMs ?? Math.max(30_000, 2 * options.timeoutMs + 10_000);
    this.dispatchLease = new DispatchLeaseHolder(
      store.db,
      this.id,
      options.dispatchLeaseMs ?? 15_000,
      this.log,
    );
    // Deep enough that a webhook's queue does not run dry between claims (its first attempts
    // go one at a time), bounded so that one webhook cannot take every place.
    this.perWebhookHeld = Math.max(64, 4 * options.perWebhook);
    // In all, enough that while many workspaces' writes stream in, a claim takes what is due
    // in each rather than waiting for the last claim's deliveries to be recorded (on
    // PostgreSQL a claim and a record cost round trips per workspace, not per delivery).
    this.heldCap = Math.max(16 * options.concurrency, this.perWebhookHeld);
    this.tries = new TriesToRecord({
      recordMs: RECORD_DELAY_MS,
      carryMs: options.carryMs ?? CARRY_MS,
      // Tries waiting to be recorded are still held: past half of what may be held, all go.
      most: Math.max(RECORD_BATCH, this.heldCap / 2),
    });
  }

  /** How many deliveries it holds: waiting to start, in flight, or sent and not yet recorded. */
  get heldCount(): number {
    return this.queues.held.size;
  }

  /** Starts the loop (once). */
  start(): void {
    this.running ??= this.loop();
  }

  /**
   * Looks for due deliveries now rather than at the next poll (say, after a commit): in
   * `workspaceId` when given (the workspace a write of this process gave deliveries), else in
   * every workspace whose mark is due. Every workspace is still looked in at each poll.
   */
  wake(workspaceId?: string): void {
    if (workspaceId === undefined) this.wokenAll = true;
    else this.wokenIn.add(workspaceId);
    this.signal?.();
  }

  /**
   * The ids of a webhook's deliveries this dispatcher holds, when a write may lease it more of
   * them: it is running, and has room for them.
   */
  heldIdsOf(workspaceId: string, webhookId: string): readonly string[] | undefined {
    if (this.running === undefined || this.stopRequested) return undefined;
    if (this.queues.held.size >= this.heldCap) return undefined;
    const ids = this.queues.heldIdsOf(workspaceId, webhookId);
    return ids.length < this.perWebhookHeld ? ids : undefined;
  }

  /** Whether it holds (or may take) a webhook's stream in the workspace (`streams.ts`). */
  streamsIn(workspaceId: string): boolean {
    return this.streamsHeld.in(workspaceId);
  }

  /**
   * Whether a write may stream a webhook's first attempts to it with no rows: it holds the
   * webhook's stream for a while yet, holds (or sent) every first attempt of the webhook's
   * events before `first`, and has room. SQLite: while it holds the dispatch lease (the
   * claimer and the streamer are then one: no claim elsewhere waits on its stream). The
   * stream's lease end (Unix ms) when it may.
   */
  streams(workspaceId: string, webhookId: string, first: number): number | undefined {
    if (this.running === undefined || this.stopRequested) return undefined;
    if (this.store.dialect === 'sqlite' && !this.dispatchLease.held) return undefined;
    const state = this.streamsHeld.get(workspaceId, webhookId);
    if (!state || state.position !== first - 1) return undefined;
    if (state.leaseEnds - Date.now() < this.leaseMs / 3) return undefined;
    if (this.queues.held.size >= this.heldCap) return undefined;
    if (this.queues.heldOf(workspaceId, webhookId) >= this.perWebhookHeld) return undefined;
    return state.leaseEnds;
  }

  /**
   * Holds the deliveries a write of this process leased or streamed to it, as a claim's, once
   * the write committed; lets them go when stopping, or when it disabled their webhook
   * meanwhile. Then takes the streams of the webhooks it now holds every first attempt of.
   */
  take(handover: Handover): void {
    const nowMs = Date.now();
    const letGo: Delivery[] = [];
    const taken = new Map<string, number>();
    for (const delivery of handover.deliveries) {
      const disabled = this.disabledAt.get(workspaceKey(delivery.workspaceId, delivery.webhookId));
      if (this.stopRequested || (disabled !== undefined && nowMs - disabled < this.leaseMs)) {
        letGo.push(delivery);
        continue;
      }
      const streamed = delivery.streamedAt !== undefined;
      // A streamed one has no row, so no lease to renew.
      this.queues.hold(delivery, streamed ? Number.POSITIVE_INFINITY : handover.leaseEndsMs);
      this.stats.taken += 1;
      if (streamed) this.stats.streamed += 1;
      taken.set(
        delivery.webhookId,
        Math.max(taken.get(delivery.webhookId) ?? 0, delivery.eventSeq),
      );
      // The next looks at every due workspace pass over it for a while (`passOver`).
      remember(this.handedAt, delivery.workspaceId, nowMs);
    }
    for (const delivery of letGo) taken.delete(delivery.webhookId);
    const workspaceId = handover.events?.workspaceId ?? handover.deliveries[0]?.workspaceId;
    if (workspaceId !== undefined) this.streamsHeld.written(workspaceId, taken, handover.events);
    if (letGo.length > 0)
      this.background('letting go of deliveries a write leased', () => this.letGoOf(letGo));
    this.acquireStreams(nowMs);
    this.pump();
  }

  /** Runs `fn` beside the loop, its error logged; shutdown waits for it. */
  private background(what: string, fn: () => Promise<unknown>): void {
    const running = this.quietly(what, fn).then(() => {});
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  /**
   * Lets go of deliveries it will not send: the leases of those with rows, and rows for the
   * streamed ones (pending, as a write would have made them).
   */
  private async letGoOf(deliveries: readonly Delivery[]): Promise<void> {
    const rows = deliveries.filter((d) => d.streamedAt === undefined);
    const streamed = deliveries.filter((d) => d.streamedAt !== undefined);
    if (streamed.length > 0) await makeDeliveryRows(this.store, streamed);
    if (rows.length > 0) await releaseDeliveries(this.store, rows);
  }

  /**
   * Takes the streams of webhooks whose every first attempt it holds (SQLite: while it holds
   * the dispatch lease), each in a transaction of its own beside the loop.
   */
  private acquireStreams(nowMs: number): void {
    const sqlite = this.store.dialect === 'sqlite';
    if (this.stopRequested || (sqlite && !this.dispatchLease.held)) return;
    for (const state of this.streamsHeld.toAcquire(nowMs)) {
      state.acquiring = true;
      const until = nowMs + this.leaseMs;
      this.background('taking a webhook stream', async () => {
        try {
          const ok = await acquireStream(
            this.store,
            state.key,
            this.id,
            state.position ?? 0,
            new Date(until).toISOString(),
            sqlite ? { name: WEBHOOKS_LEASE, now: new Date(nowMs).toISOString() } : undefined,
          );
          if (ok) this.streamsHeld.taken(state, until);
          else this.streamsHeld.notTaken(state, Date.now() + this.leaseMs);
        } catch (error) {
          this.streamsHeld.notTaken(state, Date.now() + this.leaseMs);
          throw error;
        } finally {
          state.acquiring = false;
        }
      });
    }
  }

  /**
   * Stops: claims nothing more, lets go deliveries claimed but not started, lets POSTs in
   * flight finish (each bounded by the timeout) and records them, and gives up the lease.
   * Never throws; calling it again returns the same promise.
   */
  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async loop(): Promise<void> {
    let backoff = 0;
    while (!this.stopRequested) {
      if (this.failure !== undefined) {
        const error = this.failure;
        this.failure = undefined;
        // Both tasks settle first: a backoff pauses dispatching, not half of it.
        await this.settled();
        backoff = Math.min(Math.max(2 * backoff, this.options.pollMs, 100), MAX_BACKOFF_MS);
        const unavailable = isStoreUnavailable(error);
        this.log.error(
          { err: error, retryInMs: backoff },
          unavailable
            ? 'webhook dispatch: the database cannot be reached; backing off'
            : 'webhook dispatch: error; backing off',
        );
        await this.idle(backoff, false);
        continue;
      }
      // Recording and claiming each as a task of its own (on PostgreSQL, on connections of
      // their own), none waiting for another: a write's wake is claimed while the last tries
      // are still being recorded, and while a claim looks in every due workspace (a claim
      // skips what is held, and a try is held until recorded). SQLite claims one at a time:
      // there, two claims side by side could each lease a first attempt of one webhook
      // and hold them out of order.
      if (this.recording === undefined && this.recordDue())
        this.recording = this.task(
          () => this.flush(),
          () => (this.recording = undefined),
        );
      const sqlite = this.store.dialect === 'sqlite';
      if (
        this.claimingDue === undefined &&
        !(sqlite && this.claimingWoken) &&
        (this.dueClaimDue() || this.leasesToRenew(Date.now()))
      )
        this.claimingDue = this.task(
          async () => {
            await this.keepLeases();
            if (this.dueClaimDue()) await this.claim('due');
          },
          () => (this.claimingDue = undefined),
        );
      for (const workspaceId of this.looksAgain.due(Date.now())) this.wokenIn.add(workspaceId);
      if (this.claimingWoken === undefined && !(sqlite && this.claimingDue) && this.wokenClaimDue())
        this.claimingWoken = this.task(
          () => this.claim('woken'),
          () => (this.claimingWoken = undefined),
        );
      await this.idle(this.untilNextLook(), true);
      if (this.failure === undefined) backoff = 0;
    }
    await this.settled();
  }

  /** The loop's tasks, once each has ended. */
  private async settled(): Promise<void> {
    await Promise.allSettled([this.recording, this.claimingWoken, this.claimingDue]);
  }

  /**
   * Runs a task of the loop: its error is kept for the loop to back off from; its end
   * (`done`, then a signal) lets the loop start the next.
   */
  private task(run: () => Promise<unknown>, done: () => void): Promise<void> {
    return run().then(
      () => {
        done();
        this.signal?.();
      },
      (error: unknown) => {
        done();
        this.failure ??= error;
        this.signal?.();
      },
    );
  }

  /** Whether a lease this dispatcher holds is to be renewed (`keepLeases`). */
  private leasesToRenew(nowMs: number): boolean {
    return (
      this.dispatchLease.due(nowMs) ||
      this.queues.leasesEndingWithin(nowMs, (2 * this.leaseMs) / 3).length > 0 ||
      (this.streamsHeld.anyBroken &&
        this.streamsHeld
          .broken()
          .some((s) => this.queues.streamedOf(s.key.workspaceId, s.key.webhookId) === 0)) ||
      (this.streamsHeld.renewLookDue(nowMs) &&
        this.streamsHeld.endingWithin(nowMs, (2 * this.leaseMs) / 3).length > 0)
    );
  }

  /** Whether the tries that ended are to be recorded now, or may wait for more. */
  private recordDue(): boolean {
    return this.tries.untilDue() === 0;
  }

  /** A claim in the workspaces `wake` named is due: some were named, not too soon after the last. */
  private wokenClaimDue(): boolean {
    return (
      this.wokenIn.size > 0 &&
      this.queues.held.size < this.heldCap &&
      Date.now() - this.lastWokenClaim >= WAKE_GAP_MS
    );
  }

  /**
   * A claim in every due workspace is due: at each poll, when `wake` named none, and when
   * the last claim left due deliveries behind and enough places have been freed since for
   * the next to be worth it.
   */
  private dueClaimDue(): boolean {
    if (this.queues.held.size >= this.heldCap) return false;
    if (this.wokenAll) return true;
    if (this.more && this.freed >= this.refill()) return true;
    return Date.now() - this.lastFullClaim >= this.options.pollMs;
  }

  private refill(): number {
    return Math.max(1, Math.floor(this.perWebhookHeld / 2));
  }

  /**
   * How long the loop may sleep before its next look (a POST ending, a task ending or
   * `wake()` cut it short; leases are looked at once a second at least).
   */
  private untilNextLook(): number {
    let wait = MAX_IDLE_MS;
    // A running task's end signals: until then, nothing of its own to wait for.
    if (this.recording === undefined) {
      wait = Math.min(wait, this.tries.untilDue());
      if (wait === 0) return 0;
    }
    // Full: nothing to claim until a POST ends (which signals), but leases need renewing.
    if (this.queues.held.size >= this.heldCap) return wait;
    const now = Date.now();
    wait = Math.min(wait, this.looksAgain.untilNext(now));
    if (this.claimingWoken === undefined && this.wokenIn.size > 0)
      wait = Math.min(wait, Math.max(0, WAKE_GAP_MS - (now - this.lastWokenClaim)));
    if (this.claimingDue !== undefined) return wait;
    if (this.wokenAll || (this.more && this.freed >= this.refill())) return 0;
    return Math.min(wait, Math.max(0, this.options.pollMs - (now - this.lastFullClaim)));
  }

  /**
   * Waits `ms`, or less: until a POST ends or `wake()` is called (when `interruptible`),
   * or `stop()` is. Even a wait of 0 lets the event loop turn.
   */
  private idle(ms: number, interruptible: boolean): Promise<void> {
    if (this.stopRequested) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.signal = interruptible
        ? done
        : () => {
            if (this.stopRequested) done();
          };
    });
  }

  /**
   * Claims in the workspaces `wake` named (`woken`: at most a claim's number of them, the
   * rest at the next), or in every workspace whose mark is due (`due`), and holds what it
   * took, each workspace's as soon as it is claimed.
   */
  private async claim(kind: 'woken' | 'due'): Promise<void> {
    const nowMs = Date.now();
    let workspaces: string[] | undefined;
    // Deliveries are likely there: after a write, or when the last claim left some.
    let likely = true;
    if (kind === 'woken') {
      this.lastWokenClaim = nowMs;
      workspaces = [];
      for (const id of this.wokenIn) {
        if (workspaces.length === WORKSPACES_PER_CLAIM) break;
        workspaces.push(id);
        this.wokenIn.delete(id);
      }
    } else {
      // A look that locks nothing first in each (most due workspaces hold nothing but what
      // this dispatcher sends, while writes stream in), unless a write named none.
      likely = this.wokenAll;
      this.lastFullClaim = nowMs;
      this.wokenAll = false;
      this.more = false;
      this.freed = 0;
    }
    const sqlite = this.store.dialect === 'sqlite';
    if (sqlite && !(await this.dispatchLease.hold(nowMs))) return;
    // PostgreSQL: streams whose holder died are recovered at each poll (SQLite: by the claim
    // in their workspace, which holds the dispatch lease).
    if (!sqlite && kind === 'due')
      await recoverLapsedStreams(this.store, new Date(nowMs).toISOString());
    this.stats.claims += 1;
    const number = this.stats.claims;
    const leaseEnds = nowMs + this.leaseMs;
    const claim = await claimDeliveries(this.store, {
      now: new Date(nowMs).toISOString(),
      leaseUntil: new Date(leaseEnds).toISOString(),
      limit: this.heldCap - this.queues.held.size,
      perWebhook: this.perWebhookHeld,
      held: this.queues.held,
      heldOf: (workspaceId, webhookId) => this.queues.heldOf(workspaceId, webhookId),
      heldIn: (workspaceId) => this.queues.heldIn(workspaceId),
      mostHeldOfOne: this.queues.mostHeldOfOne(),
      likely,
      workspaces,
      lease: sqlite ? { name: WEBHOOKS_LEASE, holder: this.id } : undefined,
      holder: this.id,
      lookedIn: (workspaceId) => this.lookedIn.get(workspaceId) ?? -1,
      passOver: (workspaceId) => this.passOver(workspaceId, nowMs),
      claimed: (deliveries) => {
        for (const delivery of deliveries) this.queues.hold(delivery, leaseEnds);
        // A claim's deliveries go at once, not with the next burst: a claim takes many at a
        // time already, and while this dispatcher holds a webhook's first attempts, another's
        // claims leave that webhook's later ones until they are recorded (a wait for the
        // burst made those wait for a poll more often).
        if (!this.stopRequested) this.startNow(Date.now());
      },
    });
    if (this.lookedIn.size > MAX_LOOKED_IN) this.lookedIn.clear();
    for (const workspaceId of claim.looked) this.lookedIn.set(workspaceId, number);
    // Passed over by the next looks at every due workspace, unless the claim left some
    // behind (a backlog: those looks take the rest, so an earlier claim's mark goes too) or
    // left some to another dispatcher (looked in again soon: `looksAgain`).
    this.looksAgain.looked(claim.looked, claim.blocked, Date.now());
    if (kind === 'woken') {
      // Passed over by the next looks at every due workspace, unless the claim left some
      // behind there or left them to another dispatcher. Those it had no room to look in are
      // woken again: the next woken claim looks there.
      const again =
        claim.left.length + claim.blocked.length > 0
          ? new Set([...claim.left, ...claim.blocked])
          : undefined;
      for (const workspaceId of claim.looked) {
        if (again?.has(workspaceId)) this.wokenLookedAt.delete(workspaceId);
        else remember(this.wokenLookedAt, workspaceId, nowMs);
      }
      if (claim.looked.length < workspaces!.length && claim.leaseHeld) {
        const looked = new Set(claim.looked);
        for (const id of workspaces!) if (!looked.has(id)) this.wokenIn.add(id);
      }
    }
    if (kind === 'due')
      for (const workspaceId of claim.looked) remember(this.dueLookedAt, workspaceId, nowMs);
    if (!claim.leaseHeld) {
      this.dispatchLease.lost();
      return;
    }
    // More due than this claim took: the next comes once places are freed. Not when the
    // claim only left workspaces unlooked at and took nothing: those wait for the poll (and
    // are looked in first then), rather than a claim after each record looking in workspaces
    // that hold nothing to take.
    if (claim.more && (kind === 'woken' || claim.deliveries.length > 0)) this.more = true;
  }

  /**
   * Whether a claim over every due workspace passes over one: claimed in after a write within
   * the last poll (that claim saw what was due there), or handed deliveries by a write within
   * the last poll and looked in by such a claim within `HANDED_LOOK_MS` (a write hands over
   * its own deliveries alone). While writes stream in, most due workspaces hold only
   * deliveries on their way, and their marks are put back once those are recorded.
   */
  private passOver(workspaceId: string, nowMs: number): boolean {
    const within = (map: Map<string, number>, ms: number) =>
      nowMs - (map.get(workspaceId) ?? -Infinity) < ms;
    if (within(this.wokenLookedAt, this.options.pollMs)) return true;
    return within(this.handedAt, this.options.pollMs) && within(this.dueLookedAt, HANDED_LOOK_MS);
  }

  /** Renews the leases that would end within two thirds of their length. */
  private async keepLeases(): Promise<void> {
    const nowMs = Date.now();
    await this.dispatchLease.keep(nowMs);
    await this.keepStreams(nowMs);
    const due = this.queues.leasesEndingWithin(nowMs, (2 * this.leaseMs) / 3);
    if (due.length === 0) return;
    const ends = nowMs + this.leaseMs;
    await renewDeliveryLeases(this.store, due, new Date(ends).toISOString());
    this.queues.renewed(due, ends);
  }

  /**
   * Renews the streams' leases that would end within two thirds of their length; forgets
   * those another dispatcher recovered. Without the dispatch lease (SQLite), lets go of
   * those whose streamed first attempts are all recorded instead (another process claims
   * now, and would wait on them).
   */
  private async keepStreams(nowMs: number): Promise<void> {
    // Streams that writes of other processes broke: let go once what they were handed is
    // recorded (those writes' deliveries would wait for this holder's claims meanwhile), and
    // not taken again for a while (several processes write to the webhook).
    const broken = this.streamsHeld
      .broken()
      .filter((s) => this.queues.streamedOf(s.key.workspaceId, s.key.webhookId) === 0);
    if (broken.length > 0) {
      await releaseStreams(
        this.store,
        broken.map((s) => s.key),
        this.id,
      );
      for (const state of broken) this.streamsHeld.letGo(state, nowMs + BROKEN_STREAM_PAUSE_MS);
    }
    const due = this.streamsHeld.endingWithin(nowMs, (2 * this.leaseMs) / 3);
    if (due.length === 0) return;
    const keys = due.map((s) => s.key);
    if (this.store.dialect === 'sqlite' && !this.dispatchLease.held) {
      const done = keys.filter((k) => this.queues.streamedOf(k.workspaceId, k.webhookId) === 0);
      await releaseStreams(this.store, done, this.id);
      for (const key of done) this.streamsHeld.drop(key);
    }
    const ends = nowMs + this.leaseMs;
    const renewing = keys.filter((k) => this.streamsHeld.get(k.workspaceId, k.webhookId));
    const kept = await renewStreams(this.store, renewing, this.id, new Date(ends).toISOString());
    const still = new Set(kept.map((k) => workspaceKey(k.workspaceId, k.webhookId)));
    for (const key of renewing) {
      const state = this.streamsHeld.get(key.workspaceId, key.webhookId);
      if (!state) continue;
      if (still.has(workspaceKey(key.workspaceId, key.webhookId))) state.leaseEnds = ends;
      else this.streamsHeld.drop(key);
    }
  }

  /**
   * Starts what may start: within the limits, a webhook at a time in turn; at once, or with
   * the next burst when one started within the gap (`SendPacer`). For the deliveries writes
   * hand over, and those a POST's end leaves waiting.
   */
  private pump(): void {
    if (this.stopRequested || this.burstTimer !== undefined) return;
    const nowMs = Date.now();
    const wait = this.pacer.wait(nowMs);
    if (wait > 0) {
      this.burstTimer = setTimeout(() => {
        this.burstTimer = undefined;
        this.pump();
      }, wait);
      return;
    }
    this.startNow(nowMs);
  }

  /** Starts what may start now (of `webhook` alone when given), whatever the pacer says. */
  private startNow(nowMs: number, webhook?: WebhookKey): void {
    const starting = this.queues.start(this.options.concurrency, this.options.perWebhook, webhook);
    if (webhook === undefined) this.pacer.started(nowMs, starting.length);
    for (const delivery of starting) this.send(delivery);
  }

  /**
   * A POST ended: its webhook's next starts at once (a webhook's first attempts go one at a
   * time, each after the last's answer: a burst's pace would cap a webhook's backlog at one
   * a gap); everything else waits for the next burst, unless every place was taken (a
   * backlog: places free one by one, and waiting would leave them empty).
   */
  private afterPost(delivery: Delivery, wasFull: boolean): void {
    if (this.stopRequested) return;
    this.startNow(Date.now(), wasFull ? undefined : delivery);
    if (this.queues.hasWaiting) this.pump();
  }

  /**
   * Calls `listener` at each try answered 2xx with its delivery's lag (`deliveryLagSeconds`):
   * the seconds from its event (its write's time) to the answer, retries' waits included.
   * Returns the function that stops it.
   */
  onDelivered(listener: (lagSeconds: number) => void): () => void {
    this.deliveredListeners.add(listener);
    return () => this.deliveredListeners.delete(listener);
  }

  private send(delivery: Delivery): void {
    this.stats.sent += 1;
    const sent = attemptDelivery(delivery, {
      timeoutMs: this.options.timeoutMs,
      maxAnswerBytes: this.options.maxAnswerBytes,
      allowPrivate: this.options.allowPrivate,
    })
      .then((outcome) => {
        const wasFull = this.queues.sending >= this.options.concurrency;
        this.queues.ended(delivery);
        if (isDelivered(outcome.statusCode)) {
          this.stats.delivered += 1;
          const lag =
            this.deliveredListeners.size > 0
              ? deliveryLagSeconds(delivery.occurredAt, Date.now())
              : undefined;
          if (lag !== undefined) for (const listener of this.deliveredListeners) listener(lag);
        } else this.stats.failedTries += 1;
        const first = this.tries.size === 0;
        this.tries.add(outcome, this.writesCarry && isDelivered(outcome.statusCode));
        this.afterPost(delivery, wasFull);
        // The loop sets its timer by the oldest waiting try: it needs waking for the first
        // (it may be asleep for a second), or once enough wait to record them now; not at
        // every POST's end, which would cost a turn of the loop a delivery.
        if (first || this.tries.size >= RECORD_BATCH) this.signal?.();
      })
      .catch((error: unknown) => {
        this.log.error(
          { err: error, deliveryId: delivery.id },
          'webhook dispatch: error after a POST',
        );
      });
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /**
   * PostgreSQL: makes this process's writes record the tries of their workspace that were
   * answered 2xx (`carryRecord`), which then wait `CARRY_MS` for one. Returns the function
   * that stops it. (SQLite records without a round trip: nothing to save there.)
   */
  carryRecordsInWrites(): () => void {
    if (this.store.dialect !== 'postgres') return () => {};
    this.writesCarry = true;
    return () => {
      this.writesCarry = false;
      // Those waiting are recorded at the usual pace.
      this.tries.uncarry();
      this.signal?.();
    };
  }

  /**
   * The tries of a workspace's deliveries that were answered 2xx and wait to be recorded, for
   * a write of this process to record in its last statement; they wait no longer, until
   * `carried`.
   */
  carryRecord(workspaceId: string): readonly AttemptOutcome[] | undefined {
    if (this.stopRequested) return undefined;
    return this.tries.carry(workspaceId, carriable);
  }

  /**
   * A write that carried `tries` committed (they are recorded), or did not: then the
   * dispatcher records them itself, soon (the loop is woken to set its timer by them).
   * Recorded, they wake the loop only when a claim waits for the places they free: else its
   * timer, set by the oldest try waiting then, at most makes it turn once early. (While
   * writes stream in, one turn a write cost a scan of what is held, a timer and a promise.)
   */
  carried(tries: readonly AttemptOutcome[], committed: boolean, failure?: unknown): void {
    if (!committed) {
      if (failure !== undefined)
        this.log.warn(
          { err: failure, tries: tries.length, workspaceId: tries[0]?.workspaceId },
          'webhook dispatch: the last statement of a write that recorded tries failed; recording them apart',
        );
      this.tries.putBack(tries);
    } else {
      const wasFull = this.queues.held.size >= this.heldCap;
      for (const outcome of tries) this.queues.forget(outcome);
      this.freed += tries.length;
      this.stats.carried += tries.length;
      if (!wasFull && !(this.more && this.freed >= this.refill())) return;
    }
    this.signal?.();
  }

  /** Records the tries that ended, in the order they ended. */
  private async flush(all = false): Promise<void> {
    for (;;) {
      const batch = this.tries.takeDue(all);
      if (batch.length === 0) return;
      let disabled: WebhookKey[];
      try {
        disabled = await recordAttempts(this.store, batch, {
          retryDelays: this.options.retryDelays,
          jitter: this.options.jitter,
        });
      } catch (error) {
        if (isStoreUnavailable(error)) {
          // Kept, in order, for when the database is back.
          this.tries.putBack(batch);
          throw error;
        }
        disabled = await this.recordOneByOne(batch, error);
      }
      for (const outcome of batch) this.queues.forget(outcome);
      this.freed += batch.length;
      for (const webhook of disabled) await this.disabled(webhook);
    }
  }

  /**
   * A batch the database refused other than for being unreachable: each try on its own, so
   * one bad row does not hold back the rest. A try that still fails is logged and dropped;
   * its delivery stays leased, and is sent again once the lease ends. A streamed one has no
   * row to stay leased (and a later record would move its stream's mark past it): it gets
   * a pending row, and is sent again (`unrecordedStreamed`).
   */
  private async recordOneByOne(batch: AttemptOutcome[], cause: unknown): Promise<WebhookKey[]> {
    this.log.warn(
      { err: cause, tries: batch.length },
      'webhook dispatch: recording a batch failed; recording one at a time',
    );
    const disabled: WebhookKey[] = [];
    for (const outcome of batch) {
      try {
        disabled.push(
          ...(await recordAttempts(this.store, [outcome], {
            retryDelays: this.options.retryDelays,
            jitter: this.options.jitter,
          })),
        );
      } catch (error) {
        if (isStoreUnavailable(error)) {
          this.tries.add(outcome, false);
          continue;
        }
        this.log.error(
          { err: error, deliveryId: outcome.id },
          'webhook dispatch: could not record a try',
        );
        if (outcome.streamed) await this.unrecordedStreamed(outcome);
      }
    }
    return disabled;
  }

  /** A streamed try that could not be recorded: a pending row, so that it is sent again. */
  private async unrecordedStreamed(outcome: AttemptOutcome): Promise<void> {
    const { eventSeq, at } = outcome.streamed!;
    const row = { ...outcome, eventSeq, streamedAt: at };
    await this.quietly('giving an unrecorded streamed try a row', () =>
      makeDeliveryRows(this.store, [row]),
    );
  }

  /** A webhook the record disabled: its waiting deliveries are let go (they stay pending). */
  private async disabled(webhook: WebhookKey): Promise<void> {
    remember(this.disabledAt, workspaceKey(webhook.workspaceId, webhook.webhookId), Date.now());
    this.log.warn(
      { workspaceId: webhook.workspaceId, webhookId: webhook.webhookId },
      'webhook dispatch: webhook disabled after ten failed deliveries in a row',
    );
    const key = { workspaceId: webhook.workspaceId, webhookId: webhook.webhookId };
    await this.letGoOf(this.queues.letGo(webhook));
    if (this.streamsHeld.get(key.workspaceId, key.webhookId)) {
      await releaseStreams(this.store, [key], this.id);
      this.streamsHeld.drop(key);
    }
  }

  private async shutdown(): Promise<void> {
    this.stopRequested = true;
    clearTimeout(this.burstTimer);
    this.burstTimer = undefined;
    this.signal?.();
    await this.running?.catch(() => {});
    const waiting = this.queues.letGo();
    const letGo = await this.quietly('stopping: letting go of waiting deliveries', () =>
      this.letGoOf(waiting),
    );
    await Promise.allSettled([...this.inFlight]);
    const recorded = await this.quietly('stopping: recording the last tries', () =>
      this.flush(true),
    );
    // Its streams let go once what it was handed is recorded or has rows (a write that
    // streamed to it just before the stop hands over after it: those get rows in the
    // background, awaited here); else they lapse, and a claim recovers them.
    await Promise.allSettled([...this.inFlight]);
    const streams = this.streamsHeld.held().map((s) => s.key);
    if (letGo && recorded && this.tries.size === 0 && streams.length > 0)
      await this.quietly('stopping: letting go of webhook streams', () =>
        releaseStreams(this.store, streams, this.id),
      );
    if (this.dispatchLease.held)
      await this.quietly('stopping: giving up the dispatch lease', () =>
        this.dispatchLease.release(),
      );
  }

  /** Runs `fn`, its error logged rather than thrown; whether it succeeded. */
  private async quietly(what: string, fn: () => Promise<unknown>): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (error) {
      this.log.error({ err: error }, `webhook dispatch: ${what} failed`);
      return false;
    }
  }
}

/** Sets a workspace's (or webhook's) time in one of the dispatcher's maps, which start over past their bound. */
function remember(map: Map<string, number>, key: string, ms: number): void {
  if (map.size > MAX_LOOKED_IN) map.clear();
  map.set(key, ms);
}

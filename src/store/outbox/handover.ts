import { signingSecrets } from '../../domain/webhook-signature.ts';
import type { Subscription } from '../catalog.ts';
import type { Executor, Store } from '../database.ts';
import { type SqlText, sqlText } from '../sql-text.ts';
import { preparedRows } from '../sqlite-executors.ts';
import type { AttemptOutcome } from './attempts.ts';
import type { Delivery } from './deliveries.ts';

/**
 * Deliveries a write hands to its own process's dispatcher (docs/deploy.md, Webhook
 * delivery): the write's transaction leases the deliveries it adds to that dispatcher, which
 * its catalog tells where and how to send, and once it commits the dispatcher holds them as if
 * it had claimed them, so the common case, a write and its delivery in one process, costs no
 * claim.
 *
 * The rule that first attempts of one webhook go out one at a time in event order holds as
 * with claims: a write leases a webhook's new deliveries only when every pending first
 * attempt of that webhook is one the dispatcher holds already (it queues the new ones behind
 * them, in event order), and the webhook is active. Else it leaves them unleased, for a claim.
 * The write holds the workspace's write lock, so no other write adds deliveries meanwhile; a
 * claim elsewhere skips leased deliveries, and holds later first attempts behind them.
 *
 * Leased deliveries are due again when their lease ends (a dispatcher that stops without
 * sending them lets them go; one that dies leaves them to that time): the write brings the
 * workspace's due mark forward to the lease's end.
 */

/**
 * Deliveries a write leased to its taker, until `leaseEndsMs` (Unix ms), and those it
 * streamed (`streamedAt` set: no row, `streams.ts`).
 */
export interface Handover {
  deliveries: Delivery[];
  leaseEndsMs: number;
  /**
   * When the taker holds a stream in the workspace: the numbers of the write's events, and
   * the webhooks they made deliveries for (so that it knows which of its streams the write
   * left whole).
   */
  events?: WrittenEvents;
}

/** A handover of no delivery: the write's events alone, for the taker's streams. */
export function eventsOnly(events: WrittenEvents): Handover {
  return { deliveries: [], leaseEndsMs: 0, events };
}

/** A write's events as a taker with streams in their workspace hears of them. */
export interface WrittenEvents {
  workspaceId: string;
  first: number;
  last: number;
  /** The webhooks the events made deliveries for. */
  made: ReadonlySet<string>;
}

/** A dispatcher that takes the deliveries its process's writes add. */
export interface DeliveryTaker {
  /** The taker's id, as the holder of leases. */
  readonly id?: string;
  /**
   * The deliveries of the webhook the dispatcher holds (their ids), when it has room for
   * more of them; undefined when it takes none now (stopping, or full).
   */
  heldIdsOf(workspaceId: string, webhookId: string): readonly string[] | undefined;
  /** How long a taken delivery is leased (ms). */
  readonly leaseMs: number;
  /** After the write committed: the deliveries it leased to the taker. */
  take(handover: Handover): void;
  /**
   * PostgreSQL: the tries of the workspace's deliveries that the taker sent, all answered 2xx
   * and not yet recorded, for the write to record in its last statement (`attempts.ts`,
   * `deliveredParts`): a record with no round trip of its own. Undefined when there are none.
   * The write then owes `carried` its outcome.
   */
  carryRecord?(workspaceId: string): readonly AttemptOutcome[] | undefined;
  /**
   * Whether the write that carried `tries` committed; if not, the taker records them. `failure`:
   * the error of the write's last statement, which they were part of (it may be theirs).
   */
  carried?(tries: readonly AttemptOutcome[], committed: boolean, failure?: unknown): void;
  /** Whether the taker holds a webhook's stream in the workspace (`streams.ts`). */
  streamsIn?(workspaceId: string): boolean;
  /**
   * Whether the taker streams the first attempts of a webhook's events numbered from `first`
   * on, with no rows: it holds the webhook's stream, and holds (or sent) every first attempt
   * of its events before `first`. The end of the stream's lease (Unix ms) when it does.
   */
  streams?(workspaceId: string, webhookId: string, first: number): number | undefined;
}

const takers = new WeakMap<Store, DeliveryTaker>();

/**
 * Makes the writes of `store` in this process lease the deliveries they add to `taker` (one
 * per store). Returns the function that stops it.
 */
export function handDeliveriesTo(store: Store, taker: DeliveryTaker): () => void {
  takers.set(store, taker);
  return () => {
    if (takers.get(store) === taker) takers.delete(store);
  };
}

/** The dispatcher that the writes of `store` hand their deliveries to, if any. */
export function deliveryTakerOf(store: Store): DeliveryTaker | undefined {
  return takers.get(store);
}

/**
 * What a write offers to lease: the webhooks of its deliveries that the taker has room for,
 * the ids of their deliveries it holds already, and the lease.
 */
export interface HandoverOffer {
  /** The webhooks offered, and the deliveries of each the taker holds. */
  readonly held: ReadonlyMap<string, readonly string[]>;
  /** Pending deliveries of a webhook read at most to see that the taker holds its first attempts. */
  readonly window: number;
  readonly leaseUntil: string;
  readonly leaseEndsMs: number;
  /** The taker's id (`DeliveryTaker.id`). */
  readonly holder: string | undefined;
}

/**
 * The offer of a write whose new deliveries go to `webhookIds`, or undefined when there is no
 * taker or it has room for none of them.
 */
export function handoverOffer(
  taker: DeliveryTaker | undefined,
  workspaceId: string,
  webhookIds: Iterable<string>,
): HandoverOffer | undefined {
  if (!taker) return undefined;
  const held = new Map<string, readonly string[]>();
  let most = 0;
  for (const webhookId of webhookIds) {
    if (held.has(webhookId)) continue;
    const ids = taker.heldIdsOf(workspaceId, webhookId);
    if (!ids) continue;
    held.set(webhookId, ids);
    most = Math.max(most, ids.length);
  }
  if (held.size === 0) return undefined;
  const leaseEndsMs = Date.now() + taker.leaseMs;
  return {
    held,
    // Past the held ones, a few more: a pending first attempt among them is not the taker's.
    window: most + 8,
    leaseUntil: new Date(leaseEndsMs).toISOString(),
    leaseEndsMs,
    holder: taker.id,
  };
}

/**
 * The offered webhooks whose new deliveries the taker may take (SQLite): read in the write's
 * transaction before its deliveries are inserted. The offered webhooks are active ones of the
 * write's catalog (which the write reads under its lock): one is free when, of its first
 * `window` pending deliveries, every first attempt is one the taker holds, and fewer than
 * `window` are pending (else there may be more past them). A plain lookup on keys for each.
 */
export async function freeWebhooks(
  trx: Executor,
  workspaceId: string,
  offer: HandoverOffer,
): Promise<Set<string>> {
  const free = new Set<string>();
  for (const [webhookId, held] of offer.held) {
    // Another dispatcher's stream: its first attempts may be in its memory alone.
    const streams = await preparedRows<{ holder: string }>(trx, STREAM_SQL, [
      workspaceId,
      webhookId,
    ]);
    if (streams.some((r) => r.holder !== offer.holder)) continue;
    const pending = await preparedRows<{ id: string; attempt_count: number }>(trx, PENDING_SQL, [
      workspaceId,
      webhookId,
      offer.window,
    ]);
    if (pending.length >= offer.window) continue;
    const holds = new Set(held);
    if (pending.some((d) => Number(d.attempt_count) === 0 && !holds.has(d.id))) continue;
    free.add(webhookId);
  }
  return free;
}

const STREAM_SQL = `select holder from webhook_streams
  where workspace_id = ? and webhook_id = ? and holder is not null`;

const PENDING_SQL = `select id, attempt_count from webhook_deliveries
  where workspace_id = ? and webhook_id = ? and status = 'pending'
  order by next_attempt_at, event_seq limit ?`;

/**
 * The same as a part of a PostgreSQL write's last statement (`closePostgresWrite`): the CTE
 * `h`, a row for each offered webhook with `free`, read before the statement's inserts.
 */
export function freeWebhooksCte(workspaceId: string, offer: HandoverOffer): SqlText {
  const webhookIds = [...offer.held.keys()];
  const held = [...offer.held.values()].flat();
  // Not free either while another dispatcher holds the webhook's stream (`freeWebhooks`).
  return sqlText`h as (select o.webhook_id, p.blocking = 0 and p.seen < ${offer.window}::int
      and not exists (select 1 from webhook_streams s where s.workspace_id = ${workspaceId}
        and s.webhook_id = o.webhook_id and s.holder is not null
        and s.holder <> ${offer.holder ?? ''}) as free
    from unnest(${webhookIds}::text[]) as o(webhook_id)
    cross join lateral (
      select count(*) filter (where d.attempt_count = 0 and not (d.id = any(${held}::text[]))) as blocking,
        count(*) as seen
      from (select id, attempt_count from webhook_deliveries
        where workspace_id = ${workspaceId} and webhook_id = o.webhook_id and status = 'pending'
        order by next_attempt_at, event_seq limit ${offer.window}::int) d
    ) p)`;
}

/**
 * The webhooks of a write's deliveries whose first attempts the taker streams (no rows,
 * `streams.ts`): those of `webhookIds` it holds the stream of, whole up to the write's
 * `first` event; each with its stream's lease end (Unix ms).
 */
export function streamedWebhooks(
  taker: DeliveryTaker | undefined,
  workspaceId: string,
  webhookIds: Iterable<string>,
  first: number,
): Map<string, number> {
  const streamed = new Map<string, number>();
  if (!taker?.streams) return streamed;
  for (const webhookId of webhookIds) {
    if (streamed.has(webhookId)) continue;
    const ends = taker.streams(workspaceId, webhookId, first);
    if (ends !== undefined) streamed.set(webhookId, ends);
  }
  return streamed;
}

/** A new delivery as the write made it: its id, webhook, event number and payload. */
export interface MadeDelivery {
  id: string;
  webhookId: string;
  eventSeq: number;
  payload: string;
}

/**
 * The deliveries to hand over of those `made`: those of the `free` webhooks, and those of the
 * `streamed` ones (marked streamed, `streamedAt` the write's time), ready to send as the
 * write's catalog has them (`subscriptions`).
 */
export function handedDeliveries(
  workspaceId: string,
  made: readonly MadeDelivery[],
  free: ReadonlySet<string>,
  subscriptions: readonly Subscription[],
  now: string,
  streamed: ReadonlyMap<string, number> = new Map(),
): Delivery[] {
  const handed: Delivery[] = [];
  for (const d of made) {
    const isStreamed = streamed.has(d.webhookId);
    if (!free.has(d.webhookId) && !isStreamed) continue;
    const webhook = subscriptions.find((s) => s.id === d.webhookId);
    if (!webhook) continue;
    handed.push({
      workspaceId,
      id: d.id,
      webhookId: d.webhookId,
      eventSeq: d.eventSeq,
      attemptCount: 0,
      url: webhook.url,
      payload: d.payload,
      occurredAt: now,
      secrets: signingSecrets(
        webhook.secret,
        webhook.previousSecret,
        webhook.previousSecretUntil,
        now,
      ),
      ...(isStreamed ? { streamedAt: now } : {}),
    });
  }
  return handed;
}

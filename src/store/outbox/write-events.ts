import { type EventFacts, eventPayload } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import { activeSubscriptions, type Subscription } from '../catalog.ts';
import type { WorkspaceVersions } from '../change-feed.ts';
import type { Executor } from '../database.ts';
import { insertMany } from '../insert.ts';
import { markDeliveriesDue } from './due-workspaces.ts';
import {
  type DeliveryTaker,
  eventsOnly,
  freeWebhooks,
  type Handover,
  type HandoverOffer,
  handedDeliveries,
  handoverOffer,
  streamedWebhooks,
} from './handover.ts';

/**
 * Writes a transaction's events: numbers them after the workspace's last (the caller holds
 * the workspace's write lock, so numbers follow commit order), inserts them, and adds a
 * pending delivery for each active webhook that subscribes to one. Returns how many events
 * it wrote.
 */
export async function writeEvents(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
): Promise<number> {
  if (events.length === 0) return 0;
  const first = await numberEvents(trx, workspaceId, events.length);
  await insertNumberedEvents(trx, workspaceId, events, first);
  return events.length;
}

/**
 * Inserts events numbered from `first` (numbers the caller took from the workspace's
 * `event_seq`) and their deliveries to `subscriptions` (read when not given), those of
 * webhooks `taker` is free to take leased to it (`handover.ts`).
 */
export async function insertNumberedEvents(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
  subscriptions?: readonly Subscription[],
  taker?: DeliveryTaker,
): Promise<FannedOut> {
  const payloads = await insertEvents(trx, workspaceId, events, first);
  return fanOut(trx, workspaceId, events, first, subscriptions, taker, payloads);
}

/** Inserts events numbered from `first`; returns their payloads, in order. */
export async function insertEvents(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
): Promise<string[]> {
  const rows = events.map((e, i) => eventValues(workspaceId, first + i, e));
  await insertMany(
    trx,
    'events',
    rows.map((values) => Object.fromEntries(EVENT_COLUMNS.map((c, j) => [c, values[j]]))),
  );
  return rows.map((values) => values[PAYLOAD_COLUMN] as string);
}

/**
 * Takes the next `count` numbers of the workspace's events and returns the first. The
 * caller's transaction holds the workspace row from here to its commit, so numbers follow
 * commit order.
 */
export async function numberEvents(
  trx: Executor,
  workspaceId: string,
  count: number,
): Promise<number> {
  const { event_seq: last } = await trx
    .updateTable('workspaces')
    .set((eb) => ({ event_seq: eb('event_seq', '+', count) }))
    .where('id', '=', workspaceId)
    .returning('event_seq')
    .executeTakeFirstOrThrow();
  return Number(last) - count + 1;
}

/** The columns of an event row, in the order `eventValues` gives them. */
export const EVENT_COLUMNS = [
  'workspace_id',
  'seq',
  'event_id',
  'event',
  'object_type',
  'object_id',
  'field_name',
  'occurred_at',
  'payload',
] as const;

/** Where an event's payload is among its row values. */
const PAYLOAD_COLUMN = EVENT_COLUMNS.indexOf('payload');

/** An event's row values, in `EVENT_COLUMNS` order. */
export function eventValues(workspaceId: string, seq: number, e: EventFacts): unknown[] {
  return [
    workspaceId,
    seq,
    e.eventId,
    e.event,
    e.objectType,
    e.objectId,
    e.field?.name ?? null,
    e.occurredAt,
    eventPayload(e),
  ];
}

/** A delivery an event makes: the event (its index in the write's events), the webhook, its id. */
export interface NewDelivery {
  eventIndex: number;
  webhookId: string;
  id: string;
}

/** The deliveries of `events` to the webhooks of `subscriptions` that want them. */
export function deliveriesOf(
  events: readonly EventFacts[],
  subscriptions: readonly Subscription[],
): NewDelivery[] {
  const out: NewDelivery[] = [];
  if (subscriptions.length === 0) return out;
  events.forEach((e, i) => {
    for (const s of subscriptions) {
      if (wants(s, e.event, e.objectType, e.field?.name))
        out.push({ eventIndex: i, webhookId: s.id, id: newId() });
    }
  });
  return out;
}

/** Whether a webhook wants an event: its topic, its record's type, the field it changed. */
export function wants(
  s: Pick<Subscription, 'objectTypes' | 'events' | 'fields'>,
  event: string,
  objectType: string,
  field: string | null | undefined,
): boolean {
  if (!s.objectTypes.has(objectType) || !s.events.has(event)) return false;
  return !(field && s.fields && !s.fields.has(field));
}

/** What a write's fan-out added: how many deliveries, and those leased to its taker. */
export interface FannedOut {
  added: number;
  handed?: Handover;
  /** PostgreSQL: the versions the write's last statement left the workspace at. */
  versions?: WorkspaceVersions;
}

/**
 * Adds the deliveries of `events` (numbered from `first`; `payloads`, their payloads when the
 * caller made them already) to the webhooks that want them, those of the webhooks `taker` is
 * free to take leased to it, and brings the workspace's due mark forward to them
 * (to the lease's end when every one is leased).
 */
export async function fanOut(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
  subscriptions?: readonly Subscription[],
  taker?: DeliveryTaker,
  payloads?: readonly string[],
): Promise<FannedOut> {
  const plan = await planDeliveries(trx, workspaceId, events, subscriptions, taker);
  if (!plan) return { added: 0 };
  const fannedOut = await insertDeliveries(trx, workspaceId, events, first, plan, payloads);
  await markDeliveriesDue(trx, workspaceId, plan.dueAt);
  return fannedOut;
}

/**
 * The deliveries a write's events make, planned before anything of the write's close is
 * written (so that a SQLite write brings the due mark forward in the statement that bumps its
 * versions): which webhooks want which event, and which of them the taker is free to take.
 */
export interface PlannedDeliveries {
  readonly made: readonly NewDelivery[];
  /** The active webhooks the deliveries go to, as the write's catalog has them. */
  readonly wanted: readonly Subscription[];
  readonly offer: HandoverOffer | undefined;
  /** The offered webhooks whose new deliveries the taker may take (`freeWebhooks`). */
  readonly free: ReadonlySet<string>;
  /**
   * The webhooks whose deliveries the taker streams, with no rows (`streams.ts`), and when
   * each stream's lease ends (Unix ms).
   */
  readonly streamed: ReadonlyMap<string, number>;
  /** The number of the first event, when the taker holds a stream in the workspace. */
  readonly first: number | undefined;
  /**
   * When the deliveries are due: at once, or when their lease (or stream's lease) ends if
   * every one is leased or streamed.
   */
  readonly dueAt: string;
}

/** The deliveries `events` make, or undefined when no active webhook wants any (`PlannedDeliveries`). */
export async function planDeliveries(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  subscriptions?: readonly Subscription[],
  taker?: DeliveryTaker,
  first?: number,
): Promise<PlannedDeliveries | undefined> {
  if (events.length === 0) return undefined;
  const wanted = subscriptions ?? (await activeSubscriptions(trx, workspaceId));
  if (wanted.length === 0) return undefined;
  const made = deliveriesOf(events, wanted);
  if (made.length === 0) return undefined;
  const streamed =
    first === undefined
      ? new Map<string, number>()
      : streamedWebhooks(
          taker,
          workspaceId,
          made.map((d) => d.webhookId),
          first,
        );
  const rest = made.filter((d) => !streamed.has(d.webhookId));
  const offer =
    rest.length > 0
      ? handoverOffer(
          taker,
          workspaceId,
          rest.map((d) => d.webhookId),
        )
      : undefined;
  const free = offer ? await freeWebhooks(trx, workspaceId, offer) : new Set<string>();
  const allTaken = rest.every((d) => free.has(d.webhookId));
  let dueAt = createdAtOf(events);
  if (allTaken) {
    const ends = [...streamed.values(), ...(offer ? [offer.leaseEndsMs] : [])];
    dueAt = new Date(Math.min(...ends)).toISOString();
  }
  return { made, wanted, offer, free, streamed, first, dueAt };
}

/**
 * Inserts the deliveries `plan` made for `events` (numbered from `first`), those to the free
 * webhooks leased to the taker; the caller brings the due mark forward to `plan.dueAt`.
 */
export async function insertDeliveries(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
  plan: PlannedDeliveries,
  payloads?: readonly string[],
): Promise<FannedOut> {
  const { made, offer, free, streamed } = plan;
  const createdAt = createdAtOf(events);
  const rest = pendingDelivery(createdAt);
  const rows = made.filter((d) => !streamed.has(d.webhookId));
  if (rows.length > 0) {
    await insertMany(
      trx,
      'webhook_deliveries',
      rows.map((d) => ({
        workspace_id: workspaceId,
        id: d.id,
        webhook_id: d.webhookId,
        event_seq: first + d.eventIndex,
        ...rest,
        leased_until: offer && free.has(d.webhookId) ? offer.leaseUntil : null,
      })),
    );
  }
  const writtenEvents =
    plan.first === undefined
      ? undefined
      : {
          workspaceId,
          first,
          last: first + events.length - 1,
          made: new Set(made.map((d) => d.webhookId)),
        };
  if (free.size === 0 && streamed.size === 0) {
    return {
      added: made.length,
      handed: writtenEvents && eventsOnly(writtenEvents),
    };
  }
  const handed = handedDeliveries(
    workspaceId,
    made.map((d) => ({
      id: d.id,
      webhookId: d.webhookId,
      eventSeq: first + d.eventIndex,
      payload: payloads?.[d.eventIndex] ?? eventPayload(events[d.eventIndex]!),
    })),
    free,
    plan.wanted,
    createdAt,
    streamed,
  );
  return {
    added: made.length,
    handed: { deliveries: handed, leaseEndsMs: offer?.leaseEndsMs ?? 0, events: writtenEvents },
  };
}

/** The time of a write's deliveries: that of its first event. */
function createdAtOf(events: readonly EventFacts[]): string {
  return events[0]!.occurredAt;
}

/**
 * A new delivery's columns besides its workspace, id, webhook and event: pending, not tried
 * yet, due at once (`createdAt`: its event's time). Both stores' writes insert these.
 */
export function pendingDelivery(createdAt: string) {
  return {
    status: 'pending',
    attempt_count: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: createdAt,
    leased_until: null,
    delivered_at: null,
    created_at: createdAt,
  } as const;
}

import { type EventFacts, eventPayload } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import { activeSubscriptions, type Subscription } from '../catalog.ts';
import type { Executor } from '../database.ts';
import { insertMany } from '../insert.ts';
import { markDeliveriesDue } from './due-workspaces.ts';

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
 * `event_seq`) and their deliveries to `subscriptions` (read when not given).
 */
export async function insertNumberedEvents(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
  subscriptions?: readonly Subscription[],
): Promise<void> {
  await insertMany(
    trx,
    'events',
    events.map((e, i) => {
      const values = eventValues(workspaceId, first + i, e);
      return Object.fromEntries(EVENT_COLUMNS.map((c, j) => [c, values[j]]));
    }),
  );
  await fanOut(trx, workspaceId, events, first, subscriptions);
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
      if (!s.objectTypes.has(e.objectType) || !s.events.has(e.event)) continue;
      if (e.field && s.fields && !s.fields.has(e.field.name)) continue;
      out.push({ eventIndex: i, webhookId: s.id, id: newId() });
    }
  });
  return out;
}

/**
 * Adds the deliveries of `events` (numbered from `first`) to the webhooks that want them,
 * and brings the workspace's due mark forward to them.
 */
export async function fanOut(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
  subscriptions?: readonly Subscription[],
): Promise<void> {
  const wanted = subscriptions ?? (await activeSubscriptions(trx, workspaceId));
  if (wanted.length === 0) return;
  const rest = pendingDelivery(events[0]!.occurredAt);
  const deliveries = deliveriesOf(events, wanted).map((d) => ({
    workspace_id: workspaceId,
    id: d.id,
    webhook_id: d.webhookId,
    event_seq: first + d.eventIndex,
    ...rest,
  }));
  if (deliveries.length === 0) return;
  await insertMany(trx, 'webhook_deliveries', deliveries);
  await markDeliveriesDue(trx, workspaceId, rest.created_at);
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

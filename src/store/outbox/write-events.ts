import { type EventFacts, eventPayload } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import type { Executor } from '../database.ts';
import { insertMany } from '../insert.ts';

/** A webhook's subscription, as fan-out reads it. */
interface Subscription {
  id: string;
  objectTypes: ReadonlySet<string>;
  events: ReadonlySet<string>;
  /** Field names whose `수정` fire; undefined for all. */
  fields: ReadonlySet<string> | undefined;
}

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
  const { event_seq: last } = await trx
    .updateTable('workspaces')
    .set((eb) => ({ event_seq: eb('event_seq', '+', events.length) }))
    .where('id', '=', workspaceId)
    .returning('event_seq')
    .executeTakeFirstOrThrow();
  const first = Number(last) - events.length + 1;
  await insertMany(
    trx,
    'events',
    events.map((e, i) => ({
      workspace_id: workspaceId,
      seq: first + i,
      event_id: e.eventId,
      event: e.event,
      object_type: e.objectType,
      object_id: e.objectId,
      field_name: e.field?.name ?? null,
      occurred_at: e.occurredAt,
      payload: eventPayload(e),
    })),
  );
  await fanOut(trx, workspaceId, events, first);
  return events.length;
}

/** Adds the deliveries of `events` (numbered from `first`) to the webhooks that want them. */
async function fanOut(
  trx: Executor,
  workspaceId: string,
  events: readonly EventFacts[],
  first: number,
): Promise<void> {
  const subscriptions = await activeSubscriptions(trx, workspaceId);
  if (subscriptions.length === 0) return;
  const deliveries: Record<string, unknown>[] = [];
  const createdAt = events[0]!.occurredAt;
  events.forEach((e, i) => {
    for (const s of subscriptions) {
      if (!s.objectTypes.has(e.objectType) || !s.events.has(e.event)) continue;
      if (e.field && s.fields && !s.fields.has(e.field.name)) continue;
      deliveries.push({
        workspace_id: workspaceId,
        id: newId(),
        webhook_id: s.id,
        event_seq: first + i,
        status: 'pending',
        attempt_count: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: createdAt,
        leased_until: null,
        delivered_at: null,
        created_at: createdAt,
      });
    }
  });
  await insertMany(trx, 'webhook_deliveries', deliveries);
}

async function activeSubscriptions(trx: Executor, workspaceId: string): Promise<Subscription[]> {
  const rows = await trx
    .selectFrom('webhooks')
    .select(['id', 'object_types', 'events', 'fields'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    objectTypes: new Set(JSON.parse(r.object_types) as string[]),
    events: new Set(JSON.parse(r.events) as string[]),
    fields: r.fields === null ? undefined : new Set(JSON.parse(r.fields) as string[]),
  }));
}

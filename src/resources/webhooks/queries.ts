import type { Kysely } from 'kysely';
import type { Database } from '../../model/tables.ts';
import type { DeliveryRow, WebhookRow } from '../../render/webhooks.ts';
import type { Position } from '../../store/keyset.ts';
import { keysetPage } from '../../store/keyset-rows.ts';

/** The webhooks of a workspace, oldest first. */
export function workspaceWebhooks(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One webhook of a workspace, or undefined when the workspace has no such webhook. */
export function webhookById(
  db: Kysely<Database>,
  workspaceId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** How many webhooks a workspace has. */
export async function webhookCount(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const { n } = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Which deliveries a page shows. */
export interface DeliveryFilter {
  /** Only deliveries in this status. */
  status?: string | undefined;
}

/** One page of a webhook's deliveries, and whether more follow it. */
export interface DeliveryPage {
  rows: DeliveryRow[];
  more: boolean;
}

/** Where a delivery stands in its webhook's log: its event's number, then its id. */
export function deliveryPosition(row: DeliveryRow): Position {
  return { sortKey: String(row.event_seq), id: row.id };
}

/**
 * A page of a webhook's deliveries, newest event first (ties by id), after `after`: one
 * range of the delivery log index, each delivery with its event's id, topic and record.
 */
export async function deliveryPage(
  db: Kysely<Database>,
  workspaceId: string,
  webhookId: string,
  filter: DeliveryFilter,
  after: Position | undefined,
  limit: number,
): Promise<DeliveryPage> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('events as e', (join) =>
      join.onRef('e.workspace_id', '=', 'd.workspace_id').onRef('e.seq', '=', 'd.event_seq'),
    )
    .select([
      'd.id',
      'd.event_seq',
      'd.status',
      'd.attempt_count',
      'd.last_status_code',
      'd.last_error',
      'd.next_attempt_at',
      'd.delivered_at',
      'e.event_id',
      'e.event',
      'e.object_type',
      'e.object_id',
    ])
    .where('d.workspace_id', '=', workspaceId)
    .where('d.webhook_id', '=', webhookId);
  if (filter.status !== undefined) query = query.where('d.status', '=', filter.status as never);
  const past = after && ([Number(after.sortKey), after.id] as const);
  return keysetPage(query, ['d.event_seq', 'd.id'], past, limit, 'desc');
}

/** One delivery of a webhook in a workspace, or undefined when there is no such delivery. */
export function deliveryOf(
  db: Kysely<Database>,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

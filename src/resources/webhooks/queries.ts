import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, WebhookSentTable } from '../../model/tables.ts';
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
 * A page of a webhook's deliveries, newest event first (ties by id), after `after`, each
 * with its event's id, topic and record: those with delivery rows, and the streamed first
 * attempts answered 2xx (`webhook_sent`, docs/deploy.md, Streamed first attempts), which
 * read as delivered at the first try. One range of each table's index, merged.
 */
export async function deliveryPage(
  db: Kysely<Database>,
  workspaceId: string,
  webhookId: string,
  filter: DeliveryFilter,
  after: Position | undefined,
  limit: number,
): Promise<DeliveryPage> {
  const past = after && ([Number(after.sortKey), after.id] as const);
  let rows = db
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
      ...EVENT_OF_DELIVERY,
    ])
    .where('d.workspace_id', '=', workspaceId)
    .where('d.webhook_id', '=', webhookId);
  if (filter.status !== undefined) rows = rows.where('d.status', '=', filter.status as never);
  const withRows = await keysetPage(rows, ['d.event_seq', 'd.id'], past, limit, 'desc');
  if (filter.status !== undefined && filter.status !== 'delivered') return withRows;
  const sent = db
    .selectFrom('webhook_sent as d')
    .leftJoin('events as e', (join) =>
      join.onRef('e.workspace_id', '=', 'd.workspace_id').onRef('e.seq', '=', 'd.event_seq'),
    )
    .select([
      'd.id',
      'd.event_seq',
      sql<'delivered'>`'delivered'`.as('status'),
      sql<number>`1`.as('attempt_count'),
      'd.status_code as last_status_code',
      sql<string | null>`null`.as('last_error'),
      sql<string | null>`null`.as('next_attempt_at'),
      'd.delivered_at',
      ...EVENT_OF_DELIVERY,
    ])
    .where('d.workspace_id', '=', workspaceId)
    .where('d.webhook_id', '=', webhookId);
  const delivered = await keysetPage(sent, ['d.event_seq', 'd.id'], past, limit, 'desc');
  const merged = [...withRows.rows, ...delivered.rows].sort(newestFirst);
  return {
    rows: merged.slice(0, limit),
    more: merged.length > limit || withRows.more || delivered.more,
  };
}

/** What the delivery log shows of each delivery's event (`e`). */
const EVENT_OF_DELIVERY = ['e.event_id', 'e.event', 'e.object_type', 'e.object_id'] as const;

/** Newest event first, then the greater id: the delivery log's order. */
function newestFirst(a: DeliveryRow, b: DeliveryRow): number {
  const bySeq = Number(b.event_seq) - Number(a.event_seq);
  if (bySeq !== 0) return bySeq;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * A delivery of a webhook in a workspace, or undefined when there is no such delivery: its
 * row, or a streamed first attempt's sent row (`sent`).
 */
export async function deliveryOf(
  db: Kysely<Database>,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
): Promise<{ id: string; sent?: Selectable<WebhookSentTable> } | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (row) return row;
  const sent = await db
    .selectFrom('webhook_sent')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return sent && { id: sent.id, sent };
}

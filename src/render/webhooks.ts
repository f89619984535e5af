import type { Selectable } from 'kysely';
import { EVENT_OBJECT_TYPES, isEventObjectType } from '../domain/events.ts';
import type { WebhookDeliveryTable, WebhookTable } from '../model/tables.ts';

/** A webhook row as the webhook routes read it. */
export type WebhookRow = Selectable<WebhookTable>;

/** A delivery row with the keys of its event (null once the event is pruned). */
export type DeliveryRow = Pick<
  Selectable<WebhookDeliveryTable>,
  | 'id'
  | 'event_seq'
  | 'status'
  | 'attempt_count'
  | 'last_status_code'
  | 'last_error'
  | 'next_attempt_at'
  | 'delivered_at'
> & {
  event_id: string | null;
  event: string | null;
  object_type: string | null;
  object_id: string | null;
};

/**
 * A webhook as the API shows it: `id`, `url`, `objectTypeList`, `eventList`, `fieldList`,
 * `status`, then `secret` when asked for (creation and rotation only), then `createdAt`.
 */
export function renderWebhook(row: WebhookRow, withSecret = false): Record<string, unknown> {
  const webhook: Record<string, unknown> = {
    id: row.id,
    url: row.url,
    objectTypeList: JSON.parse(row.object_types),
    eventList: JSON.parse(row.events),
    fieldList: row.fields === null ? null : JSON.parse(row.fields),
    status: row.status,
  };
  if (withSecret) webhook.secret = row.secret;
  webhook.createdAt = row.created_at;
  return webhook;
}

/** A delivery of `GET /v2/webhook/{webhookId}/delivery`, its record type named as events name it. */
export function renderDelivery(row: DeliveryRow): Record<string, unknown> {
  const type = row.object_type;
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event,
    objectType: type !== null && isEventObjectType(type) ? EVENT_OBJECT_TYPES[type] : type,
    objectId: row.object_id,
    status: row.status,
    attemptCount: Number(row.attempt_count),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
  };
}

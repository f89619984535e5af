import { DomainError } from '../../domain/errors.ts';
import { EVENT_TOPICS } from '../../domain/events.ts';
import { newWebhookSecret } from '../../domain/webhook-signature.ts';
import type { WebhookRow } from '../../render/webhooks.ts';
import { markDeliveriesDue } from '../../store/outbox/due-workspaces.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { deliveryOf, webhookById, webhookCount } from './queries.ts';

/** The most webhooks one workspace may have. */
export const MAX_WEBHOOKS = 100;

/**
 * How long a rotated-out secret keeps signing beside the new one (docs/decisions.md, Events and
 * webhooks).
 */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

/** A webhook to save: its id and secret were made before its URL was verified. */
export interface NewWebhook {
  id: string;
  secret: string;
  url: string;
  objectTypeList: readonly string[];
  /** Default: all four topics. */
  eventList?: readonly string[] | undefined;
  /** Field names whose `수정` fire; null or undefined for every field. */
  fieldList?: readonly string[] | null | undefined;
}

/** What an update changes; undefined keys stay as they are. */
export interface WebhookChange {
  url?: string | undefined;
  objectTypeList?: readonly string[] | undefined;
  eventList?: readonly string[] | undefined;
  fieldList?: readonly string[] | null | undefined;
  status?: 'active' | 'disabled' | undefined;
}

/** The 404 of a webhook the workspace does not have. */
export function webhookNotFound(id: string): DomainError {
  return new DomainError('not_found', `웹훅을 찾을 수 없습니다: '${id}'`);
}

/** A webhook of the write's workspace, or a 404. */
export async function pathWebhook(w: WorkspaceWrite, id: string): Promise<WebhookRow> {
  const row = await webhookById(w.trx, w.workspaceId, id);
  if (!row) throw webhookNotFound(id);
  return row;
}

/** Saves a verified webhook, active; refused (400) when the workspace has `MAX_WEBHOOKS`. */
export async function insertWebhook(w: WorkspaceWrite, webhook: NewWebhook): Promise<WebhookRow> {
  if ((await webhookCount(w.trx, w.workspaceId)) >= MAX_WEBHOOKS) throw tooManyWebhooks();
  const row: WebhookRow = {
    workspace_id: w.workspaceId,
    id: webhook.id,
    url: webhook.url,
    object_types: JSON.stringify(webhook.objectTypeList),
    events: JSON.stringify(webhook.eventList ?? EVENT_TOPICS),
    fields: webhook.fieldList ? JSON.stringify(webhook.fieldList) : null,
    status: 'active',
    secret: webhook.secret,
    previous_secret: null,
    previous_secret_until: null,
    failure_streak: 0,
    created_at: w.now,
    updated_at: w.now,
  };
  await w.trx.insertInto('webhooks').values(row).execute();
  return row;
}

/** The 400 of a workspace that has as many webhooks as it may. */
export function tooManyWebhooks(): DomainError {
  return new DomainError(
    'invalid_body',
    `웹훅은 워크스페이스당 ${MAX_WEBHOOKS}개까지 등록할 수 있습니다.`,
  );
}

/**
 * Changes a webhook (its new URL already verified); setting it `active` starts its count of
 * failed deliveries afresh. Returns the changed row.
 */
export async function changeWebhook(
  w: WorkspaceWrite,
  id: string,
  change: WebhookChange,
): Promise<WebhookRow> {
  const row = await pathWebhook(w, id);
  const set: Partial<WebhookRow> = {};
  if (change.url !== undefined) set.url = change.url;
  if (change.objectTypeList !== undefined) set.object_types = JSON.stringify(change.objectTypeList);
  if (change.eventList !== undefined) set.events = JSON.stringify(change.eventList);
  if (change.fieldList !== undefined)
    set.fields = change.fieldList === null ? null : JSON.stringify(change.fieldList);
  if (change.status !== undefined) set.status = change.status;
  if (change.status === 'active') set.failure_streak = 0;
  if (Object.keys(set).length === 0) return row;
  set.updated_at = w.now;
  await w.trx
    .updateTable('webhooks')
    .set(set)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .execute();
  return { ...row, ...set };
}

/** Deletes a webhook with its deliveries, their attempts, and its stream. */
export async function deleteWebhook(w: WorkspaceWrite, id: string): Promise<void> {
  await pathWebhook(w, id);
  await w.trx
    .deleteFrom('webhook_attempts')
    .where('workspace_id', '=', w.workspaceId)
    .where('delivery_id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('workspace_id', '=', w.workspaceId)
        .where('webhook_id', '=', id),
    )
    .execute();
  await w.trx
    .deleteFrom('webhook_deliveries')
    .where('workspace_id', '=', w.workspaceId)
    .where('webhook_id', '=', id)
    .execute();
  for (const table of ['webhook_sent', 'webhook_streams'] as const) {
    await w.trx
      .deleteFrom(table)
      .where('workspace_id', '=', w.workspaceId)
      .where('webhook_id', '=', id)
      .execute();
  }
  await w.trx
    .deleteFrom('webhooks')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * Gives a webhook a new secret; the old one keeps signing beside it for 24 hours (a secret
 * rotated out earlier is dropped). Returns the changed row.
 */
export async function rotateWebhookSecret(w: WorkspaceWrite, id: string): Promise<WebhookRow> {
  const row = await pathWebhook(w, id);
  const set = {
    secret: newWebhookSecret(),
    previous_secret: row.secret,
    previous_secret_until: new Date(Date.parse(w.now) + PREVIOUS_SECRET_MS).toISOString(),
    updated_at: w.now,
  };
  await w.trx
    .updateTable('webhooks')
    .set(set)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .execute();
  return { ...row, ...set };
}

/**
 * Sends a delivery again: it goes back to `pending`, due now; its attempts so far and their
 * count stay. A webhook or delivery the workspace does not have is a 404.
 */
export async function replayDelivery(
  w: WorkspaceWrite,
  webhookId: string,
  deliveryId: string,
): Promise<void> {
  await pathWebhook(w, webhookId);
  const found = await deliveryOf(w.trx, w.workspaceId, webhookId, deliveryId);
  if (!found) {
    throw new DomainError('not_found', `웹훅 전송 기록을 찾을 수 없습니다: '${deliveryId}'`);
  }
  if (found.sent) {
    // A streamed first attempt delivered at once (`outbox/streams.ts`) has no row yet: it gets
    // one, as a delivery row delivered at its first try would read.
    const sent = found.sent;
    await w.trx
      .insertInto('webhook_deliveries')
      .values({
        workspace_id: w.workspaceId,
        id: sent.id,
        webhook_id: webhookId,
        event_seq: sent.event_seq,
        status: 'delivered',
        attempt_count: 1,
        last_status_code: sent.status_code,
        last_error: null,
        next_attempt_at: null,
        leased_until: null,
        delivered_at: sent.delivered_at,
        created_at: sent.delivered_at,
      })
      .execute();
    await w.trx
      .deleteFrom('webhook_sent')
      .where('workspace_id', '=', w.workspaceId)
      .where('webhook_id', '=', webhookId)
      .where('event_seq', '=', sent.event_seq)
      .execute();
  }
  await w.trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: w.now, delivered_at: null })
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', deliveryId)
    .execute();
  // Due now: dispatchers look only in workspaces whose mark is due (`outbox/due-workspaces.ts`).
  await markDeliveriesDue(w.trx, w.workspaceId, w.now);
}

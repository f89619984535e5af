import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { DELIVERY_STATUSES } from '../../domain/webhook-retry.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderDelivery, renderWebhook } from '../../render/webhooks.ts';
import type { Page } from '../../store/keyset.ts';
import { webhookNotFound } from './commands.ts';
import {
  type DeliveryPage,
  deliveryPage,
  deliveryPosition,
  webhookById,
  workspaceWebhooks,
} from './queries.ts';

/**
 * `GET /v2/webhook`, `GET /v2/webhook/{webhookId}` and its delivery log
 * `GET /v2/webhook/{webhookId}/delivery` (docs/decisions.md, Events and webhooks). Read afresh on
 * every request: a dispatcher changes deliveries and webhooks without a write of the workspace's
 * records.
 */
export function registerWebhookRoutes(app: FastifyInstance, { store, base }: RouteDeps): void {
  app.get(`${base}/v2/webhook`, { config: { errorShape: 'A' } }, async (request, reply) => {
    nameIgnored(reply, readQuery(request.query, []));
    const rows = await workspaceWebhooks(store.reader, request.auth.workspaceId);
    const webhookList = rows.map((row) => renderWebhook(row));
    return sendJson(reply, JSON.stringify({ success: true, data: { webhookList } }));
  });

  app.get<{ Params: { webhookId: string } }>(
    `${base}/v2/webhook/:webhookId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('webhookId', request.params.webhookId);
      nameIgnored(reply, readQuery(request.query, []));
      const row = await webhookById(store.reader, request.auth.workspaceId, id);
      if (!row) throw webhookNotFound(id);
      return sendJson(
        reply,
        JSON.stringify({ success: true, data: { webhook: renderWebhook(row) } }),
      );
    },
  );

  app.get<{ Params: { webhookId: string } }>(
    `${base}/v2/webhook/:webhookId/delivery`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('webhookId', request.params.webhookId);
      const query = readQuery(request.query, ['status', 'cursor', 'limit']);
      const status = deliveryStatus(query.values.status);
      const ws = request.auth.workspaceId;
      // No page cache: a dispatcher's progress does not change the workspace's data version.
      return sendListPage(request, reply, undefined, query, async () => {
        if (!(await webhookById(store.reader, ws, id))) throw webhookNotFound(id);
        return {
          listKey: 'deliveryList',
          cursorKeys: NEXT_CURSOR,
          scope: `/v2/webhook/delivery\u0000${id}\u0000${status ?? ''}`,
          fetch: async (after, limit) =>
            listPage(await deliveryPage(store.reader, ws, id, { status }, after, limit)),
        };
      });
    },
  );
}

/** The `status` filter of the delivery log, or a 400 naming the statuses it may be. */
function deliveryStatus(raw: string | undefined): string | undefined {
  if (raw === undefined || (DELIVERY_STATUSES as readonly string[]).includes(raw)) return raw;
  throw new DomainError(
    'invalid_parameter',
    `'status' 파라미터는 ${DELIVERY_STATUSES.join(', ')} 중 하나여야 합니다: '${raw.slice(0, 100)}'`,
  );
}

/** A page of deliveries as a list page: each rendered, and where the page ended. */
function listPage(page: DeliveryPage): Page {
  const last = page.rows[page.rows.length - 1];
  if (!last) return { bodies: null, count: 0, last: undefined, more: false };
  return {
    bodies: page.rows.map((row) => JSON.stringify(renderDelivery(row))).join(','),
    count: page.rows.length,
    last: deliveryPosition(last),
    more: page.more,
  };
}

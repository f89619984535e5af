import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateWebhookBody, UpdateWebhookBody } from '../../api-schema/bodies/webhooks.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { sendWritten } from '../../http/send.ts';
import { renderWebhook } from '../../render/webhooks.ts';
import { writeWorkspace } from '../../store/write.ts';
import { deleteWebhook, replayDelivery, rotateWebhookSecret } from './commands.ts';
import { createWebhook, updateWebhook } from './verified-writes.ts';
import type { WebhookVerifier } from './verify.ts';

type WebhookParams = { Params: { webhookId: string; deliveryId?: string } };

/** Query parameters and body keys of a write that takes no body: ignored, and named. */
function ignoredWithoutBody(request: FastifyRequest): string[] {
  const { body } = request;
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  return [...readQuery(request.query, []).ignored, ...keys];
}

/**
 * The webhook writes (docs/decisions.md, Events and webhooks): register (201, with the secret),
 * update, delete, rotate the secret (with the new secret), and replay a delivery (202). A new URL
 * is verified with `verifier` before anything is written.
 */
export function registerWebhookWrites(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  verifier: WebhookVerifier,
): void {
  const config = { config: { errorShape: 'A' as const } };
  const readCreate = bodyReader(CreateWebhookBody);
  app.post(`${base}/v2/webhook`, config, async (request, reply) => {
    const ignored = readQuery(request.query, []).ignored;
    const body = readCreate(request.body);
    const row = await createWebhook(store, verifier, request.auth.workspaceId, body.value);
    return sendWritten(reply, 201, 'webhook', renderWebhook(row, true), [
      ...ignored,
      ...body.ignored,
    ]);
  });

  const readUpdate = bodyReader(UpdateWebhookBody);
  app.post<WebhookParams>(`${base}/v2/webhook/:webhookId`, config, async (request, reply) => {
    const id = checkedId('webhookId', request.params.webhookId);
    const ignored = readQuery(request.query, []).ignored;
    const body = readUpdate(request.body);
    const row = await updateWebhook(store, verifier, request.auth.workspaceId, id, body.value);
    return sendWritten(reply, 200, 'webhook', renderWebhook(row), [...ignored, ...body.ignored]);
  });

  app.post<WebhookParams>(
    `${base}/v2/webhook/:webhookId/delete`,
    config,
    async (request, reply) => {
      const id = checkedId('webhookId', request.params.webhookId);
      const ignored = ignoredWithoutBody(request);
      await writeWorkspace(store, request.auth.workspaceId, (w) => deleteWebhook(w, id));
      return sendWritten(reply, 200, '', undefined, ignored);
    },
  );

  app.post<WebhookParams>(
    `${base}/v2/webhook/:webhookId/rotate-secret`,
    config,
    async (request, reply) => {
      const id = checkedId('webhookId', request.params.webhookId);
      const ignored = ignoredWithoutBody(request);
      const row = await writeWorkspace(store, request.auth.workspaceId, (w) =>
        rotateWebhookSecret(w, id),
      );
      return sendWritten(reply, 200, 'webhook', renderWebhook(row, true), ignored);
    },
  );

  app.post<WebhookParams>(
    `${base}/v2/webhook/:webhookId/delivery/:deliveryId/replay`,
    config,
    async (request, reply) => {
      const id = checkedId('webhookId', request.params.webhookId);
      const deliveryId = checkedId('deliveryId', request.params.deliveryId ?? '');
      const ignored = ignoredWithoutBody(request);
      await writeWorkspace(store, request.auth.workspaceId, (w) =>
        replayDelivery(w, id, deliveryId),
      );
      return sendWritten(reply, 202, '', undefined, ignored);
    },
  );
}

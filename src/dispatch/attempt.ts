import { webhookHeaders } from '../domain/webhook-signature.ts';
import type { AttemptOutcome } from '../store/outbox/attempts.ts';
import type { Delivery } from '../store/outbox/deliveries.ts';
import { postWebhook, type SendLimits } from './send.ts';

/** The `user-agent` of every delivery. */
export const USER_AGENT = 'salescrm-webhooks/1.0';

/** One signed POST of a delivery; how it went. Never throws. */
export async function attemptDelivery(
  delivery: Delivery,
  limits: SendLimits,
): Promise<AttemptOutcome> {
  const startedMs = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let durationMs = 0;
  try {
    const timestamp = Math.floor(startedMs / 1000);
    const answer = await postWebhook(
      {
        url: delivery.url,
        body: delivery.payload,
        headers: {
          ...webhookHeaders(delivery.id, timestamp, delivery.payload, delivery.secrets),
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
        },
      },
      limits,
    );
    ({ statusCode, error, durationMs } = answer);
  } catch (caught) {
    error = `could not send: ${(caught as Error)?.message ?? String(caught)}`;
    durationMs = Date.now() - startedMs;
  }
  return {
    workspaceId: delivery.workspaceId,
    id: delivery.id,
    webhookId: delivery.webhookId,
    startedAt: new Date(startedMs).toISOString(),
    durationMs,
    statusCode,
    error,
    ...(delivery.streamedAt === undefined
      ? {}
      : { streamed: { eventSeq: delivery.eventSeq, at: delivery.streamedAt } }),
  };
}

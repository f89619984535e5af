/**
 * Receives the service's webhooks: checks each delivery's signature against the raw body,
 * answers 204 at once, skips deliveries it has seen (by `webhook-id`: retries repeat it),
 * and logs the events.
 *
 *   WEBHOOK_SECRET=whsec_... PORT=4000 npm run -s example:webhook-receiver
 *
 * `WEBHOOK_SECRET` may list several secrets (space or comma separated), e.g. the old and
 * the new one while rotating. Registering a webhook needs its URL to answer the service's
 * verification POST, which comes before the secret is known: the receiver answers that
 * ping (it carries nothing to act on) whether or not it can check it, so start it without
 * `WEBHOOK_SECRET`, register, then restart it with the secret the registration printed;
 * deliveries refused in between are retried. The service refuses loopback and private URLs
 * unless it runs with `WEBHOOK_ALLOW_PRIVATE=1`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  type RecordEvent,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from 'salescrm/client';

/** The largest body read; the service's payloads are far smaller. */
const MAX_BODY_BYTES = 1 << 20;
/** Delivery ids remembered for deduplication (retries come for about 28 hours). */
const REMEMBERED_IDS = 100_000;

/** The ids of the deliveries handled lately, oldest first. */
const seen = new Set<string>();

/** Remembers a delivery id; false when it was seen already. */
function firstTime(id: string): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value!);
  return true;
}

/** The request's body as bytes, or undefined when it is larger than `MAX_BODY_BYTES`. */
async function rawBody(request: IncomingMessage): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Whether an unverified body is the verification ping of a webhook being registered. */
function isVerifyPing(body: Uint8Array): boolean {
  try {
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as { event?: unknown };
    return parsed.event === 'verify';
  } catch {
    return false;
  }
}

/** What the receiver does with an event: here, one log line. */
function handle(event: RecordEvent, deliveryId: string): void {
  const change =
    event.event === '수정'
      ? ` ${event.fieldName}: ${JSON.stringify(event.beforeField)} → ${JSON.stringify(event.afterField)}`
      : '';
  console.log(
    `${event.occurredAt} ${event.event} ${event.objectType} ${event.objectId}${change}` +
      ` (${event.source}, eventId ${event.eventId}, delivery ${deliveryId})`,
  );
}

/** The delivery's event if its signature checks out, else why not. */
async function verified(
  body: Uint8Array,
  request: IncomingMessage,
  secrets: readonly string[],
): Promise<WebhookEvent | WebhookVerificationError> {
  if (secrets.length === 0)
    return new WebhookVerificationError('no_matching_signature', 'no WEBHOOK_SECRET set');
  try {
    return await verifyWebhook(body, request.headers, secrets);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
}

async function receive(
  request: IncomingMessage,
  response: ServerResponse,
  secrets: readonly string[],
): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const body = await rawBody(request);
  if (body === undefined) {
    response.writeHead(413).end();
    return;
  }
  const deliveryId = String(request.headers['webhook-id'] ?? '');
  const event = await verified(body, request, secrets);
  if (event instanceof WebhookVerificationError) {
    if (isVerifyPing(body)) {
      console.log('verification ping answered (not signed with a secret set here)');
      response.writeHead(204).end();
      return;
    }
    console.warn(`refused delivery ${deliveryId || '-'}: ${event.reason}: ${event.message}`);
    response.writeHead(400, { 'content-type': 'text/plain' }).end(event.reason);
    return;
  }
  // Answer first: the service waits 10 s at most, and retries what is not answered 2xx.
  response.writeHead(204).end();
  if (event.event === 'verify') {
    console.log(`verification ping of webhook ${event.webhookId}`);
  } else if (!firstTime(deliveryId)) {
    console.log(`delivery ${deliveryId} again: skipped`);
  } else {
    handle(event, deliveryId);
  }
}

function main(): void {
  const secrets = (process.env.WEBHOOK_SECRET ?? '').split(/[\s,]+/).filter(Boolean);
  const port = Number(process.env.PORT ?? 4000);
  const host = process.env.HOST ?? '127.0.0.1';
  if (secrets.length === 0)
    console.warn('webhook-receiver: no WEBHOOK_SECRET: answering verification pings only');
  const server = createServer((request, response) => {
    receive(request, response, secrets).catch((error: unknown) => {
      console.error('webhook-receiver:', error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.listen(port, host, () => {
    const address = server.address();
    const at = typeof address === 'object' && address ? address.port : port;
    console.log(`webhook-receiver: listening on http://${host}:${at}/`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => server.close(() => process.exit(0)));
}

main();

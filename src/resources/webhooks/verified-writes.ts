/**
 * Creating and changing a webhook, for the API and the CLI alike: the body's URL is checked
 * and verified (a network call, made before any transaction is open), then the webhook is
 * written in one write transaction of its workspace.
 */
import type { CreateWebhookBody, UpdateWebhookBody } from '../../api-schema/bodies/webhooks.ts';
import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { newWebhookSecret, signingSecrets } from '../../domain/webhook-signature.ts';
import { parseWebhookUrl } from '../../domain/webhook-url.ts';
import type { WebhookRow } from '../../render/webhooks.ts';
import type { Store } from '../../store/database.ts';
import { writeWorkspace } from '../../store/write.ts';
import {
  changeWebhook,
  insertWebhook,
  MAX_WEBHOOKS,
  tooManyWebhooks,
  webhookNotFound,
} from './commands.ts';
import { webhookById, webhookCount } from './queries.ts';
import type { WebhookVerifier } from './verify.ts';

/**
 * Registers a webhook: a new id and secret, the URL verified with a POST signed by them,
 * then the webhook saved, active. Returns its row (with the secret, to show once).
 */
export async function createWebhook(
  store: Store,
  verifier: WebhookVerifier,
  workspaceId: string,
  body: CreateWebhookBody,
): Promise<WebhookRow> {
  parseWebhookUrl(body.url);
  // Checked before the URL is called, and again in the transaction.
  if ((await webhookCount(store.reader, workspaceId)) >= MAX_WEBHOOKS) throw tooManyWebhooks();
  const id = newId();
  const secret = newWebhookSecret();
  await verifier.verify(body.url, id, [secret]);
  return writeWorkspace(store, workspaceId, (w) =>
    insertWebhook(w, {
      id,
      secret,
      url: body.url,
      objectTypeList: body.objectTypeList,
      eventList: body.eventList,
      fieldList: body.fieldList,
    }),
  );
}

/**
 * Changes a webhook; a URL other than its own is verified first, with a POST signed as its
 * deliveries are. Returns the changed row. A webhook the workspace lacks is a 404.
 */
export async function updateWebhook(
  store: Store,
  verifier: WebhookVerifier,
  workspaceId: string,
  id: string,
  body: UpdateWebhookBody,
): Promise<WebhookRow> {
  const current = await webhookById(store.reader, workspaceId, id);
  if (!current) throw webhookNotFound(id);
  if (body.url !== undefined && body.url !== current.url) {
    parseWebhookUrl(body.url);
    await verifier.verify(
      body.url,
      id,
      signingSecrets(current.secret, current.previous_secret, current.previous_secret_until, now()),
    );
  }
  return writeWorkspace(store, workspaceId, (w) => changeWebhook(w, id, body));
}

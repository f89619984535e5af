/** What the `salescrm webhook` commands do (`webhook.ts` declares them; imported when one runs). */
import { CreateWebhookBody } from '../api-schema/bodies/webhooks.ts';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import type { DELIVERY_STATUSES } from '../domain/webhook-retry.ts';
import { bodyReader } from '../http/body.ts';
import { renderDelivery, renderWebhook } from '../render/webhooks.ts';
import { deleteWebhook } from '../resources/webhooks/commands.ts';
import { deliveryPage, webhookById, workspaceWebhooks } from '../resources/webhooks/queries.ts';
import { createWebhook } from '../resources/webhooks/verified-writes.ts';
import { urlVerifier } from '../resources/webhooks/verify.ts';
import type { Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { knownWorkspace } from './known-workspace.ts';
import { withStore } from './with-store.ts';

export interface AddOptions {
  workspace: string;
  url: string;
  object: string;
  event?: string;
  field?: string;
  json?: boolean;
}

export interface DeliveriesOptions {
  workspace: string;
  status?: (typeof DELIVERY_STATUSES)[number];
  limit: number;
  json?: boolean;
}

/** `webhook add`. */
export function runAdd(config: Config, values: AddOptions): Promise<number> {
  return inWorkspace(config, values.workspace, (store) => add(store, config, values));
}

/** `webhook list`. */
export function runList(
  config: Config,
  values: { workspace: string; json?: boolean },
): Promise<number> {
  return inWorkspace(config, values.workspace, (store) =>
    list(store, values.workspace, values.json === true),
  );
}

/** `webhook remove ID`. */
export function runRemove(
  config: Config,
  id: string,
  values: { workspace: string },
): Promise<number> {
  return inWorkspace(config, values.workspace, async (store) => {
    await writeWorkspace(store, values.workspace, (w) => deleteWebhook(w, id));
    console.log(`webhook ${id} removed`);
    return 0;
  });
}

/** `webhook deliveries ID`. */
export function runDeliveries(
  config: Config,
  id: string,
  values: DeliveriesOptions,
): Promise<number> {
  return inWorkspace(config, values.workspace, (store) => deliveries(store, id, values));
}

/**
 * Runs a webhook command on the migrated store, in a workspace that exists; the API's
 * refusals (a bad URL, an unknown webhook) are one line and exit code 1.
 */
async function inWorkspace(
  config: Config,
  workspaceId: string,
  run: (store: Store) => Promise<number>,
): Promise<number> {
  return withStore(config, async (store) => {
    try {
      if (!(await knownWorkspace(store, workspaceId))) return 1;
      return await run(store);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      console.error(`salescrm: ${error.message}`);
      return 1;
    }
  });
}

const readCreateBody = bodyReader(CreateWebhookBody);

/** `a,b, c` → `['a', 'b', 'c']`; undefined stays undefined. */
function commaList(raw: string | undefined): string[] | undefined {
  return raw?.split(',').map((part) => part.trim());
}

/** `webhook add`: verifies the URL, saves the webhook and prints its secret, once. */
async function add(store: Store, config: Config, flags: AddOptions): Promise<number> {
  // The API's own body check, so a flag is refused with the API's message for its key.
  const body = readCreateBody({
    url: flags.url,
    objectTypeList: commaList(flags.object),
    eventList: commaList(flags.event),
    fieldList: commaList(flags.field),
  }).value;
  const verifier = urlVerifier({ allowPrivate: config.webhookAllowPrivate });
  const row = await createWebhook(store, verifier, flags.workspace, body);
  if (flags.json) {
    console.log(JSON.stringify(renderWebhook(row, true)));
  } else {
    console.log(`webhook ${row.id} added: ${row.url}`);
    console.log(`secret: ${row.secret}\n(shown only now)`);
  }
  return 0;
}

/** `webhook list`: one line a webhook (id, status, record types, topics, URL). */
async function list(store: Store, workspaceId: string, json: boolean): Promise<number> {
  const rows = await workspaceWebhooks(store.reader, workspaceId);
  const webhooks = rows.map((row) => renderWebhook(row));
  if (json) console.log(JSON.stringify(webhooks));
  else
    for (const w of webhooks)
      console.log(
        [
          w.id,
          w.status,
          (w.objectTypeList as string[]).join(','),
          (w.eventList as string[]).join(','),
          w.url,
        ].join('\t'),
      );
  return 0;
}

/** `webhook deliveries ID`: the newest deliveries (`--limit`, default 50), one a line. */
async function deliveries(
  store: Store,
  webhookId: string,
  flags: DeliveriesOptions,
): Promise<number> {
  const { status, limit, workspace: workspaceId } = flags;
  if (!(await webhookById(store.reader, workspaceId, webhookId))) {
    console.error(`salescrm: no webhook '${webhookId}' in workspace '${workspaceId}'`);
    return 1;
  }
  const page = await deliveryPage(
    store.reader,
    workspaceId,
    webhookId,
    { status },
    undefined,
    limit,
  );
  const list = page.rows.map(renderDelivery);
  if (flags.json) console.log(JSON.stringify(list));
  else
    for (const d of list)
      console.log(
        [
          d.id,
          d.status,
          d.event ?? '-',
          d.objectType ?? '-',
          d.objectId ?? '-',
          `attempts=${d.attemptCount}`,
          `last=${d.lastStatusCode ?? d.lastError ?? '-'}`,
          d.deliveredAt ?? d.nextAttemptAt ?? '-',
        ].join('\t'),
      );
  return 0;
}

import { CreateWebhookBody } from '../api-schema/bodies/webhooks.ts';
import { DELIVERY_STATUSES } from '../api-schema/records/webhooks.ts';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { bodyReader } from '../http/body.ts';
import { renderDelivery, renderWebhook } from '../render/webhooks.ts';
import { deleteWebhook } from '../resources/webhooks/commands.ts';
import { deliveryPage, webhookById, workspaceWebhooks } from '../resources/webhooks/queries.ts';
import { createWebhook } from '../resources/webhooks/verified-writes.ts';
import { urlVerifier } from '../resources/webhooks/verify.ts';
import { openStore, type Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { intFlag, parseFlags, UsageError } from './flags.ts';
import { knownWorkspace } from './known-workspace.ts';

/**
 * `salescrm webhook add|list|remove|deliveries`: the webhook commands of the API, run on
 * the database directly (a new URL is verified as the API verifies it).
 */
export async function runWebhook(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    workspace: { type: 'string' },
    url: { type: 'string' },
    object: { type: 'string' },
    event: { type: 'string' },
    field: { type: 'string' },
    status: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  });
  const [sub, ...rest] = positionals;
  if (!['add', 'list', 'remove', 'deliveries'].includes(sub ?? ''))
    throw new UsageError(
      sub === undefined
        ? 'webhook needs a subcommand: add, list, remove or deliveries'
        : `webhook: unknown subcommand '${sub}' (add, list, remove or deliveries)`,
    );
  const workspaceId = values.workspace;
  if (!workspaceId) throw new UsageError('--workspace ID is required');
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    switch (sub) {
      case 'add':
        return await add(store, config, workspaceId, values);
      case 'list':
        return await list(store, workspaceId, values.json === true);
      case 'remove': {
        const [id] = rest;
        if (!id) throw new UsageError('webhook remove takes the webhook id');
        await writeWorkspace(store, workspaceId, (w) => deleteWebhook(w, id));
        console.log(`webhook ${id} removed`);
        return 0;
      }
      default: {
        const [id] = rest;
        if (!id) throw new UsageError('webhook deliveries takes the webhook id');
        return await deliveries(store, workspaceId, id, values);
      }
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(`salescrm: ${error.message}`);
    return 1;
  } finally {
    await store.close();
  }
}

const readCreateBody = bodyReader(CreateWebhookBody);

/** `a,b, c` → `['a', 'b', 'c']`; undefined stays undefined. */
function commaList(raw: string | undefined): string[] | undefined {
  return raw?.split(',').map((part) => part.trim());
}

/** `webhook add`: verifies the URL, saves the webhook and prints its secret, once. */
async function add(
  store: Store,
  config: Config,
  workspaceId: string,
  flags: { url?: string; object?: string; event?: string; field?: string; json?: boolean },
): Promise<number> {
  if (!flags.url) throw new UsageError('webhook add needs --url URL');
  if (!flags.object) throw new UsageError('webhook add needs --object people,organization,...');
  // The API's own body check, so a flag is refused with the API's message for its key.
  const body = readCreateBody({
    url: flags.url,
    objectTypeList: commaList(flags.object),
    eventList: commaList(flags.event),
    fieldList: commaList(flags.field),
  }).value;
  const verifier = urlVerifier({ allowPrivate: config.webhookAllowPrivate });
  const row = await createWebhook(store, verifier, workspaceId, body);
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
  workspaceId: string,
  webhookId: string,
  flags: { status?: string; limit?: string; json?: boolean },
): Promise<number> {
  const { status } = flags;
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw new UsageError(
      `--status must be one of ${DELIVERY_STATUSES.join(', ')}, not '${status}'`,
    );
  const limit = intFlag('limit', flags.limit, 50, 1, 10_000);
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

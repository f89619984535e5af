import { type Command, Option } from 'commander';
import { CreateWebhookBody } from '../api-schema/bodies/webhooks.ts';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { DELIVERY_STATUSES } from '../domain/webhook-retry.ts';
import { bodyReader } from '../http/body.ts';
import { renderDelivery, renderWebhook } from '../render/webhooks.ts';
import { deleteWebhook } from '../resources/webhooks/commands.ts';
import { deliveryPage, webhookById, workspaceWebhooks } from '../resources/webhooks/queries.ts';
import { createWebhook } from '../resources/webhooks/verified-writes.ts';
import { urlVerifier } from '../resources/webhooks/verify.ts';
import { openStore, type Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { action, wholeNumber } from './command.ts';
import { knownWorkspace } from './known-workspace.ts';

interface AddOptions {
  workspace: string;
  url: string;
  object: string;
  event?: string;
  field?: string;
  json?: boolean;
}

interface DeliveriesOptions {
  workspace: string;
  status?: (typeof DELIVERY_STATUSES)[number];
  limit: number;
  json?: boolean;
}

/**
 * Declares `webhook add|list|remove|deliveries` on the program: the webhook commands of the
 * API, run on the database directly (a new URL is verified as the API verifies it).
 */
export function webhookCommand(program: Command): void {
  const webhook = program
    .command('webhook')
    .description("add, list or remove a workspace's webhooks; a webhook's deliveries");
  webhook
    .command('add')
    .description('register a webhook (its URL is verified first); prints its secret, only now')
    .requiredOption('--workspace <ID>', 'the workspace')
    .requiredOption('--url <URL>', 'where deliveries are POSTed (http or https)')
    .requiredOption(
      '--object <TYPES>',
      'record types, comma-separated: people,organization,lead,deal',
    )
    .option('--event <EVENTS>', 'events, comma-separated (default: all four): 생성,수정,삭제,병합')
    .option('--field <FIELDS>', 'the fields whose 수정 is sent, comma-separated (default: all)')
    .option('--json', 'print the webhook, with its secret, as JSON')
    .action(
      action((config, values: AddOptions) =>
        inWorkspace(config, values.workspace, (store) => add(store, config, values)),
      ),
    );
  webhook
    .command('list')
    .description("the workspace's webhooks: id, status, record types, events, URL (no secret)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--json', 'print a JSON array')
    .action(
      action((config, values: { workspace: string; json?: boolean }) =>
        inWorkspace(config, values.workspace, (store) =>
          list(store, values.workspace, values.json === true),
        ),
      ),
    );
  webhook
    .command('remove')
    .description('delete a webhook and its delivery log')
    .argument('<ID>', "the webhook's id")
    .requiredOption('--workspace <ID>', 'the workspace')
    .action(
      action((config, id: string, values: { workspace: string }) =>
        inWorkspace(config, values.workspace, async (store) => {
          await writeWorkspace(store, values.workspace, (w) => deleteWebhook(w, id));
          console.log(`webhook ${id} removed`);
          return 0;
        }),
      ),
    );
  webhook
    .command('deliveries')
    .description("a webhook's newest deliveries, one a line")
    .argument('<ID>', "the webhook's id")
    .requiredOption('--workspace <ID>', 'the workspace')
    .addOption(
      new Option('--status <S>', 'only the deliveries in one status').choices(DELIVERY_STATUSES),
    )
    .option('--limit <N>', 'how many', wholeNumber(1, 10_000), 50)
    .option('--json', 'print a JSON array')
    .action(
      action((config, id: string, values: DeliveriesOptions) =>
        inWorkspace(config, values.workspace, (store) => deliveries(store, id, values)),
      ),
    );
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
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    return await run(store);
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

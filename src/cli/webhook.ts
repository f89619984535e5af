import { type Command, Option } from 'commander';
import { DELIVERY_STATUSES } from '../domain/webhook-retry.ts';
import { lazyAction, wholeNumber } from './command.ts';

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
      'record types, comma-separated: people,organization,lead,deal,customObject',
    )
    .option('--event <EVENTS>', 'events, comma-separated (default: all four): 생성,수정,삭제,병합')
    .option('--field <FIELDS>', 'the fields whose 수정 is sent, comma-separated (default: all)')
    .option('--json', 'print the webhook, with its secret, as JSON')
    .action(lazyAction(async () => (await import('./webhook-run.ts')).runAdd));
  webhook
    .command('list')
    .description("the workspace's webhooks: id, status, record types, events, URL (no secret)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--json', 'print a JSON array')
    .action(lazyAction(async () => (await import('./webhook-run.ts')).runList));
  webhook
    .command('remove')
    .description('delete a webhook and its delivery log')
    .argument('<ID>', "the webhook's id")
    .requiredOption('--workspace <ID>', 'the workspace')
    .action(lazyAction(async () => (await import('./webhook-run.ts')).runRemove));
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
    .action(lazyAction(async () => (await import('./webhook-run.ts')).runDeliveries));
}

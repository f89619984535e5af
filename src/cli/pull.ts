import { type Command, InvalidArgumentError } from 'commander';
import { lazyAction, wholeNumber } from './command.ts';

/** `HOST:PORT` (an IPv6 host in brackets; port 0: any free one), for `--listen`. */
export function hostPort(raw: string): { host: string; port: number } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(raw);
  const port = Number(m?.[3]);
  if (!m || port > 65_535)
    throw new InvalidArgumentError('It must be HOST:PORT, such as 0.0.0.0:8787 or [::]:8787.');
  return { host: m[1] ?? m[2]!, port };
}

/** Declares `pull` on the program. */
export function pullCommand(program: Command): void {
  program
    .command('pull')
    .description(
      'copy a workspace from another server of this API (the live service, or a salescrm), or bring a copy up to date (docs/pull.md)',
    )
    .requiredOption('--from <URL>', "the source API's base URL, the part before /v2")
    .requiredOption(
      '--token <TOKEN>',
      "a token of the source's workspace (only read with, but for the webhook of --listen)",
    )
    .option('--workspace <ID>', 'the copy to bring up to date (default: make a new workspace)')
    .option(
      '--pace <N>',
      'requests a second at most, for a source that sends no RateLimit-* headers (0: none)',
      wholeNumber(0, 10_000),
      0,
    )
    .option(
      '--state <DIR>',
      'where a pull keeps what it has read, to go on after an interruption',
      '.salescrm-pull',
    )
    .option(
      '--follow',
      'after the pull, apply each change of the source as it comes (by its event feed, or by webhooks with --listen), until SIGINT or SIGTERM',
    )
    .option(
      '--listen <HOST:PORT>',
      "with --follow, take the source's webhook deliveries on this address (registered on a salescrm source, removed when the pull stops; else the URL to register by hand is printed)",
      hostPort,
    )
    .option(
      '--public-url <URL>',
      'with --listen, the URL the source posts to, when it is not http://HOST:PORT/ (a proxy, a tunnel)',
    )
    .option(
      '--poll-seconds <N>',
      'with --follow and no --listen, how often the feed is asked when nothing has come',
      wholeNumber(1, 3600),
      10,
    )
    .option(
      '--check-seconds <N>',
      'with --follow, how long the changes must be quiet before a check walk compares and repairs the copy',
      wholeNumber(1, 86_400),
      300,
    )
    .option('--json', 'print {"workspaceId","token"} only (the token of a new copy)')
    .action(lazyAction(async () => (await import('./pull-run.ts')).runPull));
}

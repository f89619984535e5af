import type { Command } from 'commander';
import { lazyAction, wholeNumber } from './command.ts';

/** Declares `pull` on the program. */
export function pullCommand(program: Command): void {
  program
    .command('pull')
    .description(
      'copy a workspace from another server of this API (the live service, or a salescrm), or bring a copy up to date (docs/pull.md)',
    )
    .requiredOption('--from <URL>', "the source API's base URL, the part before /v2")
    .requiredOption('--token <TOKEN>', "a token of the source's workspace (only read with)")
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
      "after the pull, watch the source's event feed and pull again when it has events, until SIGINT or SIGTERM",
    )
    .option(
      '--poll-seconds <N>',
      'with --follow, how often the feed is asked when nothing has come',
      wholeNumber(1, 3600),
      10,
    )
    .option('--json', 'print {"workspaceId","token"} only (the token of a new copy)')
    .action(lazyAction(async () => (await import('./pull-run.ts')).runPull));
}

import { type Command, Option } from 'commander';
import { EVENT_OBJECT_TYPES } from '../domain/events.ts';
import { lazyAction, wholeNumber } from './command.ts';

/** Declares `events` on the program. */
export function eventsCommand(program: Command): void {
  program
    .command('events')
    .description("print the workspace's events as NDJSON, oldest first")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option(
      '--after <N>',
      'only the events after number N (seq)',
      wholeNumber(0, Number.MAX_SAFE_INTEGER),
      0,
    )
    .addOption(
      new Option('--object-type <T>', 'only the events of one record type').choices(
        Object.keys(EVENT_OBJECT_TYPES),
      ),
    )
    .option('--follow', 'then wait for new events and print them as they commit, until SIGTERM')
    .option(
      '--interval-ms <N>',
      'with --follow, how often to look for new events',
      wholeNumber(10, 60_000),
      500,
    )
    .action(lazyAction(async () => (await import('./events-run.ts')).runEvents));
}

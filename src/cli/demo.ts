import type { Command } from 'commander';
import { lazyAction, wholeNumber } from './command.ts';

/**
 * The largest demo. It is generated and written in chunks of 20,000 people, so memory does
 * not grow with the size; the bound is the disk (about 13 GB at a million people) and the
 * time (roughly ten minutes for a million on two cores).
 */
const MAX_DEMO_PEOPLE = 1_000_000;

/** The most workspaces one demo run makes (ten thousand of 20 people take about a minute). */
const MAX_DEMO_WORKSPACES = 100_000;

/** Declares `demo` on the program. */
export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'create a workspace full of Korean demo data (same seed, same data); print its token',
    )
    .option(
      '--workspaces <N>',
      `how many workspaces (1 to ${MAX_DEMO_WORKSPACES.toLocaleString('en')}): the first is built, the others are copies of it, each with its own token`,
      wholeNumber(1, MAX_DEMO_WORKSPACES),
      1,
    )
    .option('--seed <N>', 'the seed of the generator', wholeNumber(0, 2 ** 31 - 1), 1)
    .option(
      '--people <N>',
      `how many people (1 to ${MAX_DEMO_PEOPLE.toLocaleString('en')})`,
      wholeNumber(1, MAX_DEMO_PEOPLE),
      200,
    )
    .option('--json', 'print {"workspaceId","token"} only, one line per workspace')
    .action(lazyAction(async () => (await import('./demo-run.ts')).runDemo));
}

import type { Command } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `verify` on the program. */
export function verifyCommand(program: Command): void {
  program
    .command('verify')
    .description(
      'render every record again from its tables and compare it with its stored JSON (exit 1 if any differs)',
    )
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--repair', 'rewrite the records that differ')
    .action(lazyAction(async () => (await import('./verify-run.ts')).runVerify));
}

import type { Command } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `migrate` on the program. */
export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .action(lazyAction(async () => (await import('./migrate-run.ts')).runMigrate));
}

import type { Command } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `backup` on the program. */
export function backupCommand(program: Command): void {
  program
    .command('backup')
    .description('copy the SQLite database while it serves (PostgreSQL: pg_dump)')
    .argument('<FILE>', 'the copy')
    .option('--force', 'replace FILE if it exists')
    .action(lazyAction(async () => (await import('./backup-run.ts')).runBackup));
}

import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { openStore } from '../store/database.ts';
import { action } from './command.ts';

/** Declares `migrate` on the program. */
export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .action(action(runMigrate));
}

/** `salescrm migrate`: brings the schema up to date. */
async function runMigrate(config: Config): Promise<number> {
  const store = openStore(config.databaseUrl, { longRunning: true });
  try {
    await store.migrate();
    console.log('database schema is up to date');
    return 0;
  } finally {
    await store.close();
  }
}

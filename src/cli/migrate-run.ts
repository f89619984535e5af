/** What `salescrm migrate` does (`migrate.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { openStore } from '../store/database.ts';

/** `salescrm migrate`: brings the schema up to date. */
export async function runMigrate(config: Config): Promise<number> {
  const store = openStore(config.databaseUrl, { longRunning: true });
  try {
    await store.migrate();
    console.log('database schema is up to date');
    return 0;
  } finally {
    await store.close();
  }
}

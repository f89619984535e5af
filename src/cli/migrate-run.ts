/** What `salescrm migrate` does (`migrate.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { withStore } from './with-store.ts';

/** `salescrm migrate`: brings the schema up to date. */
export async function runMigrate(config: Config): Promise<number> {
  return withStore(
    config,
    async () => {
      console.log('database schema is up to date');
      return 0;
    },
    { longRunning: true },
  );
}

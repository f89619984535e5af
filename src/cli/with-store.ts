/** Runs a command on the migrated store; only the `*-run.ts` files import it (it loads the store). */
import type { Config } from '../config.ts';
import { openStore, type Store } from '../store/database.ts';

/**
 * Opens the store (with `options`, e.g. `{ longRunning: true }`), migrates it, runs the
 * command on it and closes it after, however the command ends.
 */
export async function withStore<T>(
  config: Config,
  run: (store: Store) => Promise<T>,
  options?: Parameters<typeof openStore>[1],
): Promise<T> {
  const store = openStore(config.databaseUrl, options);
  try {
    await store.migrate();
    return await run(store);
  } finally {
    await store.close();
  }
}

/** A command taking the store first, as one taking the config: `withStore` around each run. */
export function storeCommand<A extends unknown[], T>(
  run: (store: Store, ...args: A) => Promise<T>,
): (config: Config, ...args: A) => Promise<T> {
  return (config, ...args) => withStore(config, (store) => run(store, ...args));
}

import { now } from '../domain/time.ts';
import type { Executor, Store } from './database.ts';
import { Lookups } from './read-model/lookups.ts';
import { refreshTouched, Touched } from './read-model/refresh.ts';

/** What a write inside one workspace works with. */
export interface WorkspaceWrite {
  readonly store: Store;
  readonly trx: Executor;
  readonly workspaceId: string;
  /** Records whose rendered JSON must be refreshed before commit. */
  readonly touched: Touched;
  /** The time of this write, for every timestamp it sets. */
  readonly now: string;
}

/**
 * Runs `fn` as one transaction in a workspace: the writes, the refreshed read model of every
 * record they touched, and the workspace's new data version commit together or not at all.
 */
export async function writeWorkspace<T>(
  store: Store,
  workspaceId: string,
  fn: (w: WorkspaceWrite) => Promise<T>,
  options: { lookups?: Lookups } = {},
): Promise<T> {
  return store.transaction(async (trx) => {
    const w: WorkspaceWrite = { store, trx, workspaceId, touched: new Touched(), now: now() };
    const result = await fn(w);
    await refreshTouched(store, trx, workspaceId, w.touched, options.lookups);
    await bumpDataVersion(trx, workspaceId);
    return result;
  });
}

/** Marks the workspace's data as changed, so cached pages of it are not served again. */
export async function bumpDataVersion(trx: Executor, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}

/** Inserts rows in batches that stay under the dialects' bound-parameter limits. */
export async function insertMany<T extends Record<string, unknown>>(
  trx: Executor,
  table: string,
  rows: readonly T[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const batch = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += batch) {
    await trx
      .insertInto(table as never)
      .values(rows.slice(i, i + batch) as never)
      .execute();
  }
}

export { Lookups, Touched };

import { type EventActor, SYSTEM_ACTOR } from '../domain/events.ts';
import { now } from '../domain/time.ts';
import type { Executor, Store } from './database.ts';
import { EventLog } from './outbox/event-log.ts';
import { writeEvents } from './outbox/write-events.ts';
import type { Lookups } from './read-model/lookups.ts';
import { refreshTouched } from './read-model/refresh.ts';
import { Touched } from './read-model/touched.ts';

/** What a write inside one workspace works with. */
export interface WorkspaceWrite {
  readonly store: Store;
  readonly trx: Executor;
  readonly workspaceId: string;
  /** Records whose rendered JSON must be refreshed before commit. */
  readonly touched: Touched;
  /** The time of this write, for every timestamp it sets. */
  readonly now: string;
  /** The events of this write, written with it (DECISIONS 8). */
  readonly events: EventLog;
}

/** What building a row with rendered JSON needs: its workspace, its time, the body's form. */
export type RowContext = Pick<WorkspaceWrite, 'workspaceId' | 'now'> & {
  readonly store: Pick<Store, 'encodeBody'>;
};

/** How a write transaction runs. */
export interface WriteOptions {
  /** Names the write's records refer to, when the caller has them already. */
  lookups?: Lookups;
  /** Who writes: a token's user, an import; the system's when unset. */
  actor?: EventActor;
  /** False for a write that makes no events (rendering a new demo workspace). */
  events?: false;
}

/**
 * Runs `fn` as one transaction in a workspace: the writes, the refreshed read model of every
 * record they touched, the events of every change (by `actor`, or the system's), and the
 * workspace's new data version commit together or not at all.
 */
export async function writeWorkspace<T>(
  store: Store,
  workspaceId: string,
  fn: (w: WorkspaceWrite) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  return store.transaction(async (trx) => {
    await lockWorkspace(store, trx, workspaceId);
    const at = now();
    const events = new EventLog(options.actor ?? SYSTEM_ACTOR, at);
    const w: WorkspaceWrite = { store, trx, workspaceId, touched: new Touched(), now: at, events };
    const result = await fn(w);
    const logged = options.events === false ? undefined : events;
    await refreshTouched(store, trx, workspaceId, w.touched, options.lookups, logged);
    if (logged) await writeEvents(trx, workspaceId, logged.events);
    await bumpDataVersion(trx, workspaceId);
    return result;
  });
}

/**
 * Serializes the writers of a workspace. SQLite's `BEGIN IMMEDIATE` already lets one writer
 * in at a time; on PostgreSQL the workspace row is locked first, so checks such as "at most
 * one main quote" and the counters rendered into records see every earlier write of the
 * workspace, while other workspaces write in parallel.
 */
async function lockWorkspace(store: Store, trx: Executor, workspaceId: string): Promise<void> {
  if (store.dialect !== 'postgres') return;
  await trx
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .forUpdate()
    .execute();
}

/** Marks the workspace's data as changed, so cached pages of it are not served again. */
export async function bumpDataVersion(trx: Executor, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}

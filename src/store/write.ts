import { type EventActor, SYSTEM_ACTOR } from '../domain/events.ts';
import { now } from '../domain/time.ts';
import { type Catalog, catalogAt, loadCatalog, readCatalogVersion } from './catalog.ts';
import { closeWrite, PendingWrites } from './close-write.ts';
import type { CommitNote, Executor, Store } from './database.ts';
import { insertMany, insertReturning } from './insert.ts';
import type { AttemptOutcome } from './outbox/attempts.ts';
import { EventLog } from './outbox/event-log.ts';
import { deliveryTakerOf, type Handover } from './outbox/handover.ts';
import { Lookups } from './read-model/lookups.ts';
import { refreshTouched } from './read-model/refresh.ts';
import { type RenderedType, TABLE_OF } from './read-model/rendered-types.ts';
import { Touched } from './read-model/touched.ts';
import { isConflictRollback, isStoreUnavailable } from './unavailable.ts';
import { writeCommitted } from './write-commits.ts';
import { WriteWatch, watched } from './write-watch.ts';

/** What a write inside one workspace works with. */
export interface WorkspaceWrite {
  readonly store: Store;
  readonly trx: Executor;
  readonly workspaceId: string;
  /** Records whose rendered JSON must be refreshed before commit. */
  readonly touched: Touched;
  /** The time of this write, for every timestamp it sets. */
  readonly now: string;
  /** The events of this write, written with it (docs/decisions.md, Events and webhooks). */
  readonly events: EventLog;
  /**
   * The workspace's catalog (its fields, teams, names, webhooks) as this write sees it:
   * kept across writes, read again after the write changes it. Unset in the hand-built
   * writes of an import or a new demo, whose readers read the tables instead.
   */
  readonly catalog?: () => Promise<Catalog>;
  /**
   * PostgreSQL, in a write of the API: what waits for the write's last statement (one round
   * trip for all of it). Unset on SQLite, whose statements cost no round trip, and in the
   * hand-built writes of an import or a new demo.
   */
  readonly pending?: PendingWrites;
}

/** What building a row with rendered JSON needs: its workspace, its time, the body's form. */
export type RowContext = Pick<WorkspaceWrite, 'workspaceId' | 'now'> & {
  readonly store: Pick<Store, 'encodeBody'>;
};

/** How a write transaction runs. */
export interface WriteOptions {
  /** Who writes: a token's user, an import; the system's when unset. */
  actor?: EventActor;
  /** False for a write that makes no events (rendering a new demo workspace). */
  events?: false;
}

/**
 * Runs `fn` as one transaction in a workspace: the writes, the refreshed read model of every
 * record they touched, the events of every change (by `actor`, or the system's), and the
 * workspace's new data version commit together or not at all. Once committed, the store's
 * `afterWrite` listeners hear of it. `fn` may run twice: a write that failed with tries of
 * the dispatcher in its last statement runs once more without them, and one PostgreSQL
 * rolled back to end a deadlock with another transaction runs once more.
 */
export async function writeWorkspace<T>(
  store: Store,
  workspaceId: string,
  fn: (w: WorkspaceWrite) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  // This process's dispatcher, which takes the deliveries it may (`outbox/handover.ts`).
  const taker = deliveryTakerOf(store);
  // Whether the committed write left deliveries for a claim, and those it leased to the
  // taker (set by its last attempt).
  let delivers = false;
  let handed: Handover | undefined;
  // PostgreSQL: tries of earlier deliveries the taker sent that the write records (taken by
  // its last attempt; an attempt that did not commit gives them back).
  let tries: readonly AttemptOutcome[] | undefined;
  /** `failure`: the error of the write's last statement, which they were part of. */
  const giveBack = (failure?: unknown) => {
    if (tries) taker?.carried?.(tries, false, failure);
    tries = undefined;
  };
  // Whether the last statement of a write that carried tries failed (nothing committed).
  let closingFailed = false;
  /** One try of the transaction; `carry`: it may record the taker's tries. */
  const attempt = (carry: boolean) =>
    inWorkspaceTransaction(store, workspaceId, async (outer, version, note, eventSeq) => {
      delivers = false;
      handed = undefined;
      giveBack();
      let catalog = await catalogAt(store, outer, workspaceId, version);
      const watch = new WriteWatch();
      const trx = watched(outer, watch);
      const currentCatalog = async () => {
        if (watch.catalogChanged) {
          // Not kept for other writes: this one has not committed.
          watch.catalogChanged = false;
          catalog = await loadCatalog(outer, workspaceId, -1);
        }
        return catalog;
      };
      const at = now();
      const events = new EventLog(options.actor ?? SYSTEM_ACTOR, at);
      // PostgreSQL: the refresh's writes wait for the last statement, one round trip.
      const pending = store.dialect === 'postgres' ? new PendingWrites() : undefined;
      const w: WorkspaceWrite = {
        store,
        trx,
        workspaceId,
        touched: new Touched(true),
        now: at,
        events,
        catalog: currentCatalog,
        pending,
      };
      const result = await fn(w);
      const logged = options.events === false ? undefined : events;
      if (!w.touched.isEmpty) {
        const lookups = new Lookups(trx, workspaceId, await currentCatalog());
        await refreshTouched({
          store,
          trx,
          workspaceId,
          touched: w.touched,
          lookups,
          events: logged,
          written: watch.written,
          pending,
          changed: watch.changed,
        });
      }
      const closing = logged?.events ?? [];
      const subscriptions = closing.length > 0 ? (await currentCatalog()).subscriptions : [];
      if (pending && carry) tries = taker?.carryRecord?.(workspaceId);
      const fanned = await closeWrite(trx, {
        workspaceId,
        events: closing,
        subscriptions,
        pending,
        catalogChanged: watch.catalogWritten,
        now: at,
        taker,
        tries,
        lastEvent: eventSeq,
      }).catch((error: unknown) => {
        // Its statement failed before any commit: the carried tries may be what was refused.
        closingFailed = tries !== undefined;
        throw error;
      });
      delivers = fanned.added > (fanned.handed?.deliveries.length ?? 0);
      handed = fanned.handed;
      // The workspace's token lookups stay kept with its new versions, unless the write
      // changed its row otherwise or a token (each of those stales them).
      if (note && !STALES_TOKENS.some((table) => watch.written.has(table)))
        note.versions = fanned.versions;
      return result;
    });
  let result: T;
  try {
    result = await attempt(true);
  } catch (error) {
    giveBack(closingFailed ? error : undefined);
    // PostgreSQL ended the transaction to break a deadlock (or a serialization failure) with
    // another: nothing of it committed, and the other has gone on; the write runs once more
    // rather than failing the user's request with a 503.
    const conflict = isConflictRollback(error);
    // An unreachable database fails the next run as well.
    if (!conflict && (!closingFailed || isStoreUnavailable(error))) throw error;
    // The tries it recorded may be what failed (a row refused): they are the dispatcher's to
    // record, and the user's write is tried once more without them. A write that fails on
    // its own fails again, with its own error. (Not after a failed commit, whose outcome may
    // be unknown: a second run could write twice.)
    result = await attempt(false);
  }
  if (tries) taker?.carried?.(tries, true);
  if (handed && taker) taker.take(handed);
  writeCommitted(store, { delivers, workspaceId });
  return result;
}

/**
 * Tables whose change by a write's own statements changes what a kept token lookup holds
 * (the workspace's row beyond its versions, a token): such a write stales the lookups of
 * its workspace.
 */
const STALES_TOKENS = ['workspaces', 'access_tokens', 'token_workspaces'] as const;

/**
 * Runs `fn` in a transaction that serializes the writers of a workspace, with its catalog
 * version. SQLite's `BEGIN IMMEDIATE` already lets one writer in at a time; on PostgreSQL
 * the workspace row is locked first (in the round trip of `begin`), so checks such as "at
 * most one main quote" and the counters rendered into records see every earlier write of the
 * workspace, while other workspaces write in parallel.
 */
function inWorkspaceTransaction<T>(
  store: Store,
  workspaceId: string,
  fn: (trx: Executor, catalogVersion: number, note?: CommitNote, eventSeq?: number) => Promise<T>,
): Promise<T> {
  if (store.workspaceTransaction) return store.workspaceTransaction(workspaceId, fn);
  return store.transaction(async (trx) => fn(trx, await readCatalogVersion(trx, workspaceId)));
}

/** Marks the workspace's data as changed, so cached pages of it are not served again. */
export async function bumpDataVersion(trx: Executor, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}

/**
 * Inserts new records of `type` and marks them created; in a write of the API on PostgreSQL,
 * with the rows their insert returned, which the refresh renders them from unless the write
 * changes their table again (one read fewer).
 */
export async function insertRecords(
  w: WorkspaceWrite,
  type: RenderedType,
  rows: readonly (Record<string, unknown> & { id: string })[],
): Promise<void> {
  if (!w.touched.keepsInserted) {
    await insertMany(w.trx, TABLE_OF[type], rows);
    for (const r of rows) w.touched.markCreated(type, r.id);
    return;
  }
  const stored = await insertReturning(w.trx, TABLE_OF[type], rows);
  const byId = stored && new Map(stored.map((r) => [r.id, r]));
  for (const r of rows) w.touched.markCreated(type, r.id, byId?.get(r.id));
}

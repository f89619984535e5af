import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import type { Store, TransactionFn } from '../database.ts';

/**
 * What the dispatcher's statements about deliveries share: their keys (grouped by
 * workspace), statements of a bounded number of keys, and the transaction they run in.
 */

/** The key of a delivery. */
export interface DeliveryKey {
  workspaceId: string;
  id: string;
}

/** Keys per statement: far below either dialect's limit of bound parameters. */
const KEYS_PER_STATEMENT = 1000;

/**
 * A transaction of the dispatcher's bookkeeping. Its commit does not wait for the WAL to
 * reach the disk (PostgreSQL: `synchronous_commit = off`; SQLite: no sync awaited, the next
 * API write's sync covers it), so dispatching does not queue up behind, nor slow, the API's
 * commits: a database crash (SQLite: a power cut) may lose the last few leases and records,
 * and so send those deliveries again, which at-least-once allows. The deliveries themselves
 * are written durably by the writes that make them. PostgreSQL: `opening`, a first statement
 * sent with `begin` in one round trip (see `TransactionOptions`).
 *
 * PostgreSQL: in `workspaceId`'s rows alone, none of them a token or catalogued, except a
 * webhook that a record disables, whose catalog version's bump the workspace's notification
 * announces: the process's kept token lookups of other workspaces stay.
 */
export async function bookkeeping<T>(
  store: Store,
  workspaceId: string | undefined,
  fn: TransactionFn<T>,
  opening?: string,
): Promise<T> {
  return store.transaction(fn, { durable: false, workspaceId, opening });
}

/**
 * PostgreSQL: an `opening` that locks the workspace's row, for a transaction that may change
 * it after rows a write of the workspace also changes (a webhook's, its stream's). A write
 * locks that row first, in its `begin`, and those rows in its last statement: a transaction
 * that took them in the other order could wait for the write while the write waits for it,
 * and PostgreSQL would end one of them (deadlock), the user's write as likely as not.
 */
export function lockWorkspaceRow(workspaceId: string): string {
  return `select id from workspaces where id = ${literal(workspaceId)} for update`;
}

/** A value written into a statement's text (for `opening`, which takes no parameters). */
export function literal(value: string): string {
  return pg.escapeLiteral(value);
}

/**
 * The ids of `keys`, by workspace: statements about deliveries name one workspace each, so
 * that each stays on one node of a database distributed by workspace (docs/deploy.md).
 */
export function idsByWorkspace(keys: readonly DeliveryKey[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [workspaceId, list] of byWorkspace(keys))
    out.set(
      workspaceId,
      list.map((k) => k.id),
    );
  return out;
}

/** Items by their workspace, each workspace's in their order. */
export function byWorkspace<T extends { workspaceId: string }>(
  items: Iterable<T>,
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.workspaceId);
    if (list) list.push(item);
    else out.set(item.workspaceId, [item]);
  }
  return out;
}

/** `(id, …)` of ids, for `id in`. */
export function idList(ids: readonly string[]): RawBuilder<unknown> {
  return sql`(${sql.join(ids)})`;
}

export function chunks<T>(items: readonly T[], size = KEYS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

import type { Executor, Store } from '../database.ts';
import { inKysely, type SqlText, sqlText } from '../sql-text.ts';
import { preparedRows, sqliteStatementOf } from '../sqlite-executors.ts';
import { bookkeeping, literal } from './bookkeeping.ts';

/**
 * The workspaces with deliveries to send (`workspaces.deliveries_due_at`, docs/webhooks.md,
 * Delivery and signatures): dispatchers claim in each of them alone, so that no statement of
 * theirs locks or writes rows of two workspaces (docs/deploy.md, Distributing by workspace).
 * The mark is a lower bound: no later than the earliest pending delivery of the workspace's
 * active webhooks. The writes that add deliveries, or change webhooks, bring it forward under
 * the workspace's write lock; a dispatcher that finds nothing due in a workspace puts it back.
 */

/**
 * The workspaces whose mark is due by `now`, earliest first, at most `limit`: the one read of
 * the dispatchers that spans workspaces; it reads `workspaces` alone and locks nothing.
 */
export async function listDueWorkspaces(
  db: Executor,
  now: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('workspaces')
    .select('id')
    .where('deliveries_due_at', '<=', now)
    .orderBy('deliveries_due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Brings the workspace's mark forward to `at` (if it is later, or unset): in the transaction
 * that adds deliveries or changes webhooks, which holds the workspace's row from here on.
 */
export async function markDeliveriesDue(
  trx: Executor,
  workspaceId: string,
  at: string,
): Promise<void> {
  // SQLite, in a write: the writer's cached statement, run at once (no query for Kysely to
  // build and compile at every write with deliveries).
  const cached = sqliteStatementOf(trx, MARK_SQL);
  if (cached) {
    cached.run(at, at, workspaceId);
    return;
  }
  await trx
    .updateTable('workspaces')
    .set({ deliveries_due_at: inKysely<string>(dueAtLeast(at)) })
    .where('id', '=', workspaceId)
    .execute();
}

/**
 * `dueAtLeast` spelled out for SQLite's cached statements, its parameters the time twice (a
 * change to one is a change to both).
 */
export const DUE_AT_LEAST_SQL =
  'case when deliveries_due_at is null or deliveries_due_at > ? then ? else deliveries_due_at end';

/** `markDeliveriesDue`'s statement on SQLite. */
const MARK_SQL = `update workspaces set deliveries_due_at = ${DUE_AT_LEAST_SQL} where id = ?`;

/** `deliveries_due_at` brought forward to `at`: the same on both stores (their `least`/`min` differ on null); `DUE_AT_LEAST_SQL` spells it for SQLite. */
export function dueAtLeast(at: string | SqlText): SqlText {
  return sqlText`case when deliveries_due_at is null or deliveries_due_at > ${at} then ${at} else deliveries_due_at end`;
}

/**
 * `settleDueWorkspace` in a transaction of its own, after a look found nothing due there.
 * PostgreSQL: the workspace's row is locked first (with the `begin`, in one round trip), so a
 * write that adds deliveries either committed before the minimum is read, or brings the mark
 * forward after it is set (its own lock waits for this transaction); when a write holds the
 * row, the mark is left as it is (a mark too early costs a look, and the write may be adding
 * deliveries): a dispatcher never waits for the API's writes.
 */
export async function settleDueWorkspaceAlone(store: Store, workspaceId: string): Promise<void> {
  if (store.dialect === 'sqlite') {
    await bookkeeping(store, workspaceId, (trx) => settleDueWorkspace(trx, workspaceId));
    return;
  }
  await bookkeeping(
    store,
    workspaceId,
    async (trx, locked) => {
      if (locked && locked.length > 0) await settleDueWorkspace(trx, workspaceId);
    },
    `select id from workspaces where id = ${literal(workspaceId)} for update skip locked`,
  );
}

/**
 * The workspace's earliest pending delivery of an active webhook, or the end of a held
 * stream's lease if earlier (`streams.ts`: a holder that dies is seen to then); null when
 * neither; as a subquery; `except`, deliveries to leave out (a record's, delivered in the same statement).
 */
export function earliestPending(workspaceId: string, except?: SqlText): SqlText {
  return sqlText`(select min(t) from (select min(d.next_attempt_at) as t from webhook_deliveries d
      join webhooks w on w.workspace_id = d.workspace_id and w.id = d.webhook_id
      where d.workspace_id = ${workspaceId} and w.workspace_id = ${workspaceId}
        and d.status = 'pending' and w.status = 'active'${except ? sqlText` and d.id not in ${except}` : sqlText``}
      union all select min(leased_until) from webhook_streams
      where workspace_id = ${workspaceId} and holder is not null) due)`;
}

/**
 * Puts the workspace's mark back to its earliest pending delivery of an active webhook (null
 * when none): in a SQLite transaction (one writer: no write adds deliveries meanwhile), or
 * after the workspace's row is locked (`settleDueWorkspaceAlone`).
 */
export async function settleDueWorkspace(trx: Executor, workspaceId: string): Promise<void> {
  // Compiled for the store's dialect, its text the same for every workspace: on SQLite,
  // prepared once (as a record runs it for each workspace it records in).
  const settle =
    inKysely(sqlText`update workspaces set deliveries_due_at = ${earliestPending(workspaceId)}
    where id = ${workspaceId}`).compile(trx);
  await preparedRows(trx, settle.sql, settle.parameters);
}

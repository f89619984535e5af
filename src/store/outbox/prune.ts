import { sql } from 'kysely';
import { DAY_MS, toTimestamp } from '../../domain/time.ts';
import type { ReadSide, Store } from '../database.ts';

/** What a pruning removed. */
export interface Pruned {
  events: number;
  deliveries: number;
}

/**
 * Deletes the events that occurred more than `retentionDays` ago, with their finished
 * deliveries (sent rows among them) and those deliveries' attempts. An event still waiting to be delivered is kept
 * until its delivery ends, so pruning never loses a pending delivery. One workspace at a
 * time, each in a transaction of its own (docs/deploy.md, Distributing by workspace), and
 * only when its first event occurred before the cutoff: events are numbered in the order
 * their writes committed, one workspace's writes one after the other, so the first is the
 * oldest. A read by key, where a write transaction in each of 10,000 workspaces held
 * SQLite's one writer for 1.8 s every hour with nothing to prune.
 */
export async function pruneEvents(
  store: Store,
  retentionDays: number,
  nowMs = Date.now(),
): Promise<Pruned> {
  const cutoff = toTimestamp(nowMs - retentionDays * DAY_MS);
  const pruned: Pruned = { events: 0, deliveries: 0 };
  const workspaces = await store.reader
    .selectFrom('workspaces')
    .select('id')
    .orderBy('id')
    .execute();
  for (const { id } of workspaces) {
    const first = await firstKeptEvent(store, id);
    if (first === undefined || first.occurred_at >= cutoff) continue;
    const one = await pruneWorkspace(store, id, cutoff);
    pruned.events += one.events;
    pruned.deliveries += one.deliveries;
  }
  return pruned;
}

/**
 * A workspace's first event that pruning kept (its oldest, the lowest number), on the read
 * side: undefined when it has none.
 */
export function firstKeptEvent(
  store: Pick<ReadSide, 'reader'>,
  workspaceId: string,
): Promise<{ seq: number | string; occurred_at: string } | undefined> {
  return store.reader
    .selectFrom('events')
    .select(['seq', 'occurred_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/** `pruneEvents` in one workspace: what occurred before `cutoff`. */
function pruneWorkspace(store: Store, workspaceId: string, cutoff: string): Promise<Pruned> {
  return store.transaction(async (trx) => {
    // Nor past a held stream's mark: its first attempts there may have no rows yet.
    const gone = sql`(select e.seq from events e
      where e.workspace_id = ${workspaceId} and e.occurred_at < ${cutoff}
        and not exists (select 1 from webhook_deliveries p
          where p.workspace_id = ${workspaceId} and p.event_seq = e.seq and p.status = 'pending')
        and not exists (select 1 from webhook_streams s
          where s.workspace_id = ${workspaceId} and s.holder is not null and s.seq < e.seq))`;
    await sql`delete from webhook_attempts where workspace_id = ${workspaceId} and delivery_id in (
      select d.id from webhook_deliveries d
      where d.workspace_id = ${workspaceId} and d.event_seq in ${gone})`.execute(trx);
    const deliveries = await sql`delete from webhook_deliveries
      where workspace_id = ${workspaceId} and event_seq in ${gone}`.execute(trx);
    const sent = await sql`delete from webhook_sent
      where workspace_id = ${workspaceId} and event_seq in ${gone}`.execute(trx);
    const events = await sql`delete from events
      where workspace_id = ${workspaceId} and seq in ${gone}`.execute(trx);
    return {
      events: Number(events.numAffectedRows ?? 0),
      deliveries: Number(deliveries.numAffectedRows ?? 0) + Number(sent.numAffectedRows ?? 0),
    };
  });
}

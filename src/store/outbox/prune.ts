import { sql } from 'kysely';
import { DAY_MS, toTimestamp } from '../../domain/time.ts';
import type { Store } from '../database.ts';

/** What a pruning removed. */
export interface Pruned {
  events: number;
  deliveries: number;
}

/**
 * Deletes the events that occurred more than `retentionDays` ago, with their finished
 * deliveries and those deliveries' attempts. An event still waiting to be delivered is kept
 * until its delivery ends, so pruning never loses a pending delivery.
 */
export async function pruneEvents(
  store: Store,
  retentionDays: number,
  nowMs = Date.now(),
): Promise<Pruned> {
  const cutoff = toTimestamp(nowMs - retentionDays * DAY_MS);
  return store.transaction(async (trx) => {
    const gone = sql`(select e.workspace_id, e.seq from events e
      where e.occurred_at < ${cutoff}
        and not exists (select 1 from webhook_deliveries p
          where p.workspace_id = e.workspace_id and p.event_seq = e.seq and p.status = 'pending'))`;
    await sql`delete from webhook_attempts where (workspace_id, delivery_id) in (
      select d.workspace_id, d.id from webhook_deliveries d
      where (d.workspace_id, d.event_seq) in ${gone})`.execute(trx);
    const deliveries = await sql`delete from webhook_deliveries
      where (workspace_id, event_seq) in ${gone}`.execute(trx);
    const events = await sql`delete from events where (workspace_id, seq) in ${gone}`.execute(trx);
    return {
      events: Number(events.numAffectedRows ?? 0),
      deliveries: Number(deliveries.numAffectedRows ?? 0),
    };
  });
}

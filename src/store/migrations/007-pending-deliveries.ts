import { type Kysely, sql } from 'kysely';

/**
 * The pending deliveries of each webhook, by when they are due: what a dispatcher claims
 * from, one webhook at a time, so that a webhook with a long backlog (a receiver that was
 * down) neither starves the others nor makes every claim read its whole backlog, and so that
 * finished deliveries (most of the table) are never read to find the due ones.
 *
 * It replaces `webhook_deliveries_due` (status, due time), which no query uses any more:
 * every delivery written paid for it, and on PostgreSQL it let the planner, whose
 * statistics of a queue table are always stale, read every pending row to find a few by key.
 */
export const pendingDeliveries = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('webhook_deliveries_pending')
      .on('webhook_deliveries')
      .columns(['workspace_id', 'webhook_id', 'next_attempt_at', 'event_seq'])
      .where(sql.ref('status'), '=', sql.lit('pending'))
      .execute();
    await db.schema.dropIndex('webhook_deliveries_due').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema.dropIndex('webhook_deliveries_pending').execute();
  },
};

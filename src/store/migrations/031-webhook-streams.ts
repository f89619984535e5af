import { type Kysely, sql } from 'kysely';

/**
 * First attempts streamed without a delivery row (docs/webhooks.md, Streamed first
 * attempts): a dispatcher that holds a webhook's stream (`webhook_streams`, a lease like a
 * delivery's) is handed the first attempts of the writes of its own process with no
 * `webhook_deliveries` row; the events are rows already. The stream's `seq` is its mark:
 * every event of the workspace up to it that the webhook wants has a delivery row or a sent
 * row, so a stream whose holder died is recovered from the events after it. A first attempt
 * answered 2xx is kept as one narrow row of `webhook_sent` (its code and time, for the
 * delivery log); any other answer makes it a delivery row, retried as any other.
 */
export function webhookStreams({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  const text = dialect === 'sqlite' ? sql.raw('text') : sql.raw('text collate "C"');
  const clustered = sql.raw(dialect === 'sqlite' ? ' without rowid' : '');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create table webhook_streams (
        workspace_id ${text} not null,
        webhook_id ${text} not null,
        seq bigint not null,
        holder ${text},
        leased_until ${text},
        primary key (workspace_id, webhook_id)
      )${clustered}`.execute(db);
      // The streams whose holder's lease ends first: those to recover once it has ended.
      await sql`create index webhook_streams_lease on webhook_streams (leased_until)
        where holder is not null`.execute(db);
      await sql`create table webhook_sent (
        workspace_id ${text} not null,
        webhook_id ${text} not null,
        event_seq bigint not null,
        id ${text} not null,
        status_code integer not null,
        delivered_at ${text} not null,
        primary key (workspace_id, webhook_id, event_seq)
      )${clustered}`.execute(db);
      // A delivery found by its id (the delivery log's replay).
      await sql`create index webhook_sent_id on webhook_sent (workspace_id, id)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('webhook_sent').execute();
      await db.schema.dropTable('webhook_streams').execute();
    },
  };
}

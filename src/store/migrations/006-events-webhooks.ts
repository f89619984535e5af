import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * The event outbox and webhooks (docs/decisions.md, Events and webhooks): every change to a person,
 * organization, lead or deal writes its events in the write's transaction, numbered per workspace
 * in commit order (`workspaces.event_seq`, taken under the workspace's write lock); each event a
 * webhook subscribes to becomes a delivery, which dispatchers claim, send and log.
 */
export function eventsAndWebhooks(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('workspaces')
        .addColumn('event_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('events')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('event_id', text, (c) => c.notNull())
        .addColumn('event', text, (c) => c.notNull())
        .addColumn('object_type', text, (c) => c.notNull())
        .addColumn('object_id', text, (c) => c.notNull())
        .addColumn('field_name', text)
        .addColumn('occurred_at', text, (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pkey', ['workspace_id', 'seq'] as never)
        .execute();
      await db.schema
        .createIndex('events_object_type')
        .on('events')
        .columns(['workspace_id', 'object_type', 'seq'])
        .execute();
      await db.schema.createIndex('events_occurred').on('events').column('occurred_at').execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('object_types', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('fields', 'text')
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', text)
        .addColumn('failure_streak', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhooks_pkey', ['workspace_id', 'id'] as never)
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('webhook_id', text, (c) => c.notNull())
        .addColumn('event_seq', 'bigint', (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', text)
        .addColumn('leased_until', text)
        .addColumn('delivered_at', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['workspace_id', 'id'] as never)
        .execute();
      // What a dispatcher claims: pending deliveries by the time they are due.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      // The delivery log of a webhook, newest first, and its order of first attempts.
      await db.schema
        .createIndex('webhook_deliveries_webhook')
        .on('webhook_deliveries')
        .columns(['workspace_id', 'webhook_id', 'event_seq', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('workspace_id', text, (c) => c.notNull())
        .addColumn('delivery_id', text, (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', text, (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_pkey', [
          'workspace_id',
          'delivery_id',
          'attempt',
        ] as never)
        .execute();

      // On SQLite one process dispatches at a time: it holds this lease and renews it.
      await db.schema
        .createTable('dispatch_leases')
        .addColumn('name', text, (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', text, (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'dispatch_leases',
        'webhook_attempts',
        'webhook_deliveries',
        'webhooks',
        'events',
      ]) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.alterTable('workspaces').dropColumn('event_seq').execute();
    },
  };
}

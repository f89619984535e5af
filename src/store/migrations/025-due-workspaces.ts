import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * Dispatchers claim deliveries one workspace at a time (docs/deploy.md, Distributing by
 * workspace): `workspaces.deliveries_due_at` is no later than the earliest pending delivery of
 * the workspace's active webhooks (null when it has none), set by the writes that add
 * deliveries and put back by a dispatcher that finds nothing due there. A claim lists the
 * workspaces due by now, then claims in each alone, instead of locking webhooks and
 * deliveries of every workspace in one statement. Filled here from the pending deliveries.
 *
 * On PostgreSQL `dispatch_leases` goes: its dispatchers claim side by side, and only SQLite's
 * single dispatcher holds that lease.
 */
export function dueWorkspaces(ctx: MigrationContext) {
  const text = ctx.dialect === 'sqlite' ? 'text' : sql.raw('text collate "C"');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('workspaces').addColumn('deliveries_due_at', text).execute();
      await sql`update workspaces set deliveries_due_at = (
          select min(d.next_attempt_at) from webhook_deliveries d
          where d.workspace_id = workspaces.id and d.status = 'pending')`.execute(db);
      await db.schema
        .createIndex('workspaces_deliveries_due')
        .on('workspaces')
        .column('deliveries_due_at')
        .where(sql.ref('deliveries_due_at'), 'is not', null)
        .execute();
      if (ctx.dialect === 'postgres') await db.schema.dropTable('dispatch_leases').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (ctx.dialect === 'postgres') {
        await db.schema
          .createTable('dispatch_leases')
          .addColumn('name', text, (c) => c.primaryKey())
          .addColumn('holder', 'text', (c) => c.notNull())
          .addColumn('expires_at', text, (c) => c.notNull())
          .execute();
      }
      await db.schema.dropIndex('workspaces_deliveries_due').execute();
      await db.schema.alterTable('workspaces').dropColumn('deliveries_due_at').execute();
    },
  };
}

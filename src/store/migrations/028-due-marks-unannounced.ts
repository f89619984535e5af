import { type Kysely, sql } from 'kysely';

/**
 * PostgreSQL: a change to a workspace's row that moves only its due mark
 * (`deliveries_due_at`, which the dispatchers keep: a record of tries puts it back, a look
 * that found nothing due clears it) no longer notifies `salescrm_changes` (migration 026).
 * Nobody who listens keeps anything the mark changes (the servers' token lookups keep the
 * data and catalog versions and the cursor secret), yet each notification made every server
 * drop its token lookups of that workspace, and made the record's commit take PostgreSQL's
 * lock on the notification queue, which serializes the commits of every transaction that
 * notifies. Deleting a workspace still notifies, as does any other change to its row.
 */
export function dueMarksUnannounced({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`drop trigger workspaces_notify on workspaces`.execute(db);
      await sql`
        create trigger workspaces_notify after delete on workspaces
        for each row execute function notify_workspace_change()`.execute(db);
      // Every column but the due mark, so that a column added later notifies too.
      await sql`
        create trigger workspaces_notify_update after update on workspaces
        for each row when (
          (to_jsonb(old) - 'deliveries_due_at') is distinct from
          (to_jsonb(new) - 'deliveries_due_at'))
        execute function notify_workspace_change()`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`drop trigger workspaces_notify_update on workspaces`.execute(db);
      await sql`drop trigger workspaces_notify on workspaces`.execute(db);
      await sql`
        create trigger workspaces_notify after update or delete on workspaces
        for each row execute function notify_workspace_change()`.execute(db);
    },
  };
}

import { type Kysely, sql } from 'kysely';
import { dueMarksUnannounced } from './028-due-marks-unannounced.ts';
import { versionsNotified } from './029-versions-notified.ts';

/**
 * PostgreSQL: the notification of a change to a workspace's row (migrations 026, 028 and 029)
 * says the same, told apart without turning the row to JSON. Every write updates that row, and
 * the trigger's condition and its function each turned the old and the new row to JSON to
 * compare them without the versions and the due mark: four conversions a write. Now the
 * function copies the new row, puts the old versions and due mark in the copy, and compares it
 * with the old row, column by column; a column added later still counts as another change.
 *
 * - Only the due mark moved (a dispatcher's record or look): no notification.
 * - Only the versions (and the due mark) moved, as a write moves them: the workspace's id and
 *   its new data and catalog versions.
 * - Anything else, or the row deleted: the workspace's id alone.
 */
export function notifyWithoutJson({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create or replace function notify_workspace_change() returns trigger language plpgsql as $$
        declare
          moved record;
        begin
          if tg_op = 'UPDATE' then
            moved := new;
            moved.data_version := old.data_version;
            moved.event_seq := old.event_seq;
            moved.catalog_version := old.catalog_version;
            moved.deliveries_due_at := old.deliveries_due_at;
            if moved is not distinct from old then
              if (new.data_version, new.event_seq, new.catalog_version)
                  is not distinct from (old.data_version, old.event_seq, old.catalog_version) then
                return null;
              end if;
              perform pg_notify('salescrm_changes',
                old.id || ' ' || new.data_version || ' ' || new.catalog_version);
              return null;
            end if;
          end if;
          perform pg_notify('salescrm_changes', old.id);
          return null;
        end $$`.execute(db);
      await sql`drop trigger workspaces_notify_update on workspaces`.execute(db);
      await sql`
        create trigger workspaces_notify_update after update on workspaces
        for each row execute function notify_workspace_change()`.execute(db);
    },
    // Back to the triggers of 028 (which drops and makes both) and the function of 029.
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`drop trigger workspaces_notify_update on workspaces`.execute(db);
      await dueMarksUnannounced({ dialect }).up(db);
      await versionsNotified({ dialect }).up(db);
    },
  };
}

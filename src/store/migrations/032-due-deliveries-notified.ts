import { type Kysely, sql } from 'kysely';
import { notifyWithoutJson } from './030-notify-without-json.ts';

/**
 * PostgreSQL: a change of a workspace's row that leaves its due mark (`deliveries_due_at`)
 * within 5 s of now, and either brought it forward or was a write's (its data version moved),
 * also notifies the channel `salescrm_deliveries` with the workspace's id: deliveries may be
 * there for a claim (a write whose deliveries no dispatcher of its process took, a replay, a
 * dispatcher letting go of what it held). A dispatcher that hears of no write (`salescrm
 * dispatch`) listens to it and claims there at once, rather than at its next look at every
 * due workspace. A mark at a lease's end (deliveries a write handed to its own process's
 * dispatcher: 30 s at least) notifies nothing, nor does a write where nothing is due. The
 * notification of migration 030 is as it was.
 *
 * The due mark is ISO 8601 text in UTC (as the service writes it), so now is written the same
 * way to compare; the 5 s leave room for the clocks of the service's machines and the
 * database's to differ.
 */
export function dueDeliveriesNotified({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create or replace function notify_workspace_change() returns trigger language plpgsql as $$
        declare
          moved record;
        begin
          if tg_op = 'UPDATE' then
            if new.deliveries_due_at is not null
                and (old.deliveries_due_at is null or new.deliveries_due_at < old.deliveries_due_at
                  or new.data_version <> old.data_version)
                and new.deliveries_due_at < to_char(
                  (statement_timestamp() + interval '5 seconds') at time zone 'UTC',
                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') then
              perform pg_notify('salescrm_deliveries', new.id);
            end if;
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
    },
    // Back to migration 030's function (and its trigger).
    async down(db: Kysely<unknown>): Promise<void> {
      await notifyWithoutJson({ dialect }).up(db);
    },
  };
}

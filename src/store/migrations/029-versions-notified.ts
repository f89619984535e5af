import { type Kysely, sql } from 'kysely';

/**
 * PostgreSQL: a change to a workspace's row that only moves its versions (its data version
 * and event numbers, its catalog version, its due mark: what every write changes) names the
 * new versions in its notification on `salescrm_changes` (migration 026):
 * `id data_version catalog_version`. A server keeps its token lookups of the workspace then,
 * with those versions, instead of looking each token up again at its next request
 * (`src/server/auth.ts`). Any other change of the row (its cursor secret, its deletion) and a
 * change of a token still name the workspace alone, as before.
 */
export function versionsNotified({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create or replace function notify_workspace_change() returns trigger language plpgsql as $$
        begin
          if tg_op = 'UPDATE' and
            (to_jsonb(old) - array['data_version', 'event_seq', 'catalog_version', 'deliveries_due_at'])
              = (to_jsonb(new) - array['data_version', 'event_seq', 'catalog_version', 'deliveries_due_at'])
          then
            perform pg_notify('salescrm_changes',
              old.id || ' ' || new.data_version || ' ' || new.catalog_version);
          else
            perform pg_notify('salescrm_changes', old.id);
          end if;
          return null;
        end $$`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create or replace function notify_workspace_change() returns trigger language plpgsql as $$
        begin
          perform pg_notify('salescrm_changes', old.id);
          return null;
        end $$`.execute(db);
    },
  };
}

import { type Kysely, sql } from 'kysely';

/**
 * PostgreSQL: a notification on channel `salescrm_changes` from every transaction that
 * changes a workspace's row (each write bumps its data version, and its catalog version
 * when it changes the catalog) or one of its tokens: the payload is the workspace's id, or ''
 * for a token added. A server listens (`src/store/postgres-listener.ts`) and keeps its token
 * lookups until a notification names their workspace, instead of asking the database at
 * every request. PostgreSQL drops a transaction's duplicate notifications, so a write sends
 * one. SQLite needs none: its `pragma data_version` is read in the process, for nothing.
 */
export function changeNotifications({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create function notify_workspace_change() returns trigger language plpgsql as $$
        begin
          perform pg_notify('salescrm_changes', old.id);
          return null;
        end $$`.execute(db);
      await sql`
        create function notify_token_change() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            perform pg_notify('salescrm_changes', '');
          else
            perform pg_notify('salescrm_changes', old.workspace_id);
          end if;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger workspaces_notify after update or delete on workspaces
        for each row execute function notify_workspace_change()`.execute(db);
      await sql`
        create trigger access_tokens_notify after insert or update or delete on access_tokens
        for each row execute function notify_token_change()`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`drop trigger access_tokens_notify on access_tokens`.execute(db);
      await sql`drop trigger workspaces_notify on workspaces`.execute(db);
      await sql`drop function notify_token_change()`.execute(db);
      await sql`drop function notify_workspace_change()`.execute(db);
    },
  };
}

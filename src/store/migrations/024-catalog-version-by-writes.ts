import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './001-initial.ts';

/**
 * `workspaces.catalog_version` is bumped by the writes that change the catalog, in their own
 * statements (`src/store/catalog.ts`), no longer by triggers on the catalogued tables: a
 * trigger of a table distributed by workspace that writes the `workspaces` row is what a
 * distributed engine refuses or runs unsafely (docs/deploy.md, Distributing by workspace).
 * The triggers of migration 008 go.
 */
const WATCHED: { table: string; columns?: string[] }[] = [
  { table: 'users' },
  { table: 'teams' },
  { table: 'team_members' },
  { table: 'pipelines' },
  { table: 'pipeline_stages' },
  { table: 'web_forms' },
  { table: 'sequences' },
  { table: 'products', columns: ['name'] },
  { table: 'custom_fields' },
  { table: 'webhooks', columns: ['object_types', 'events', 'fields', 'status'] },
];

const OPERATIONS = ['insert', 'update', 'delete'] as const;

export function catalogVersionByWrites({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const { table } of WATCHED) {
        for (const op of OPERATIONS) {
          const name = `${table}_catalog_${op}`;
          await sql
            .raw(
              dialect === 'postgres'
                ? `drop trigger if exists ${name} on ${table}`
                : `drop trigger if exists ${name}`,
            )
            .execute(db);
        }
      }
      if (dialect === 'postgres') {
        await sql`drop function if exists bump_catalog_version()`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`
          create function bump_catalog_version() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then
              update workspaces set catalog_version = catalog_version + 1 where id = old.workspace_id;
            else
              update workspaces set catalog_version = catalog_version + 1 where id = new.workspace_id;
            end if;
            return null;
          end $$`.execute(db);
      }
      for (const { table, columns } of WATCHED) {
        for (const op of OPERATIONS) {
          const event = op === 'update' && columns ? `update of ${columns.join(', ')}` : op;
          const name = `${table}_catalog_${op}`;
          const row = op === 'delete' ? 'old' : 'new';
          await sql
            .raw(
              dialect === 'postgres'
                ? `create trigger ${name} after ${event} on ${table} for each row execute function bump_catalog_version()`
                : `create trigger ${name} after ${event} on ${table} begin ` +
                    `update workspaces set catalog_version = catalog_version + 1 where id = ${row}.workspace_id; end`,
            )
            .execute(db);
        }
      }
    },
  };
}

import { type Kysely, sql } from 'kysely';

/**
 * The tables every write reads whole (users, teams and their members, pipelines and
 * stages, web forms, sequences, product names, custom field definitions, webhook
 * subscriptions): their changes bump `workspaces.catalog_version`, so a process may keep
 * what it read of them for as long as the version stays (`src/store/catalog.ts`), whichever
 * process, import or command changed them. Triggers bump it, so no write path can forget.
 */
const WATCHED: { table: string; columns?: string[] }[] = [
  { table: 'users' },
  { table: 'teams' },
  { table: 'team_members' },
  { table: 'pipelines' },
  { table: 'pipeline_stages' },
  { table: 'web_forms' },
  { table: 'sequences' },
  // A product's rendered body changes with every write of it; only its name is catalogued.
  { table: 'products', columns: ['name'] },
  { table: 'custom_fields' },
  // The dispatcher updates a webhook's failure streak; only its subscription is catalogued.
  { table: 'webhooks', columns: ['object_types', 'events', 'fields', 'status'] },
];

const OPERATIONS = ['insert', 'update', 'delete'] as const;

function triggerName(table: string, op: string): string {
  return `${table}_catalog_${op}`;
}

export function catalogVersion({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('workspaces')
        .addColumn('catalog_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
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
          const name = triggerName(table, op);
          if (dialect === 'postgres') {
            await sql
              .raw(
                `create trigger ${name} after ${event} on ${table} for each row execute function bump_catalog_version()`,
              )
              .execute(db);
          } else {
            const row = op === 'delete' ? 'old' : 'new';
            await sql
              .raw(
                `create trigger ${name} after ${event} on ${table} begin ` +
                  `update workspaces set catalog_version = catalog_version + 1 where id = ${row}.workspace_id; end`,
              )
              .execute(db);
          }
        }
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const { table } of WATCHED) {
        for (const op of OPERATIONS) {
          const name = triggerName(table, op);
          await sql
            .raw(
              dialect === 'postgres' ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`,
            )
            .execute(db);
        }
      }
      if (dialect === 'postgres') await sql`drop function bump_catalog_version()`.execute(db);
      await db.schema.alterTable('workspaces').dropColumn('catalog_version').execute();
    },
  };
}

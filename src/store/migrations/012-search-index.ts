import { type Kysely, sql } from 'kysely';
import { fillSearchIndex, INDEXED_TABLES } from './frozen/search-index.ts';

/** The table of each indexed record type (as of this migration, and of 019). */
export const TABLES = INDEXED_TABLES;

/**
 * The search index (`search_values`, see `src/store/read-model/search-index.ts`): one row
 * per (workspace, record type, field, value, record), its key in that order, so a search
 * reads the records of a value, a range of values, or every record in the order of a
 * field's values; and a second index by record, for its writer. Deleting a record or a
 * custom field deletes their rows (triggers, so no delete path can forget). Filled here
 * from the stored JSON of every record, by a frozen copy of the index's writer
 * (`frozen/search-index.ts`).
 */
export function searchIndex({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  const text = dialect === 'sqlite' ? sql.raw('text') : sql.raw('text collate "C"');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create table search_values (
        workspace_id ${text} not null,
        record_type ${text} not null,
        field ${text} not null,
        value ${text} not null,
        record_id ${text} not null,
        primary key (workspace_id, record_type, field, value, record_id)
      )${sql.raw(dialect === 'sqlite' ? ' without rowid' : '')}`.execute(db);
      await sql`create index search_values_record on search_values (workspace_id, record_id)`.execute(
        db,
      );
      if (dialect === 'postgres') {
        await sql`
          create function search_values_forget_record() returns trigger language plpgsql as $$
          begin
            delete from search_values where workspace_id = old.workspace_id
              and record_id = old.id and record_type = tg_argv[0];
            return null;
          end $$`.execute(db);
        await sql`
          create function search_values_forget_field() returns trigger language plpgsql as $$
          begin
            delete from search_values where workspace_id = old.workspace_id
              and record_type = old.record_type and field = old.id;
            return null;
          end $$`.execute(db);
      }
      for (const [type, table] of Object.entries(TABLES)) {
        const name = `${table}_search_values_delete`;
        if (dialect === 'postgres') {
          await sql
            .raw(
              `create trigger ${name} after delete on ${table} for each row execute function search_values_forget_record('${type}')`,
            )
            .execute(db);
        } else {
          await sql
            .raw(
              `create trigger ${name} after delete on ${table} begin delete from search_values ` +
                `where workspace_id = old.workspace_id and record_id = old.id and record_type = '${type}'; end`,
            )
            .execute(db);
        }
      }
      if (dialect === 'postgres') {
        await sql`create trigger custom_fields_search_values_delete after delete on custom_fields
          for each row execute function search_values_forget_field()`.execute(db);
      } else {
        await sql`create trigger custom_fields_search_values_delete after delete on custom_fields begin
          delete from search_values where workspace_id = old.workspace_id
            and record_type = old.record_type and field = old.id; end`.execute(db);
      }
      await fillSearchIndex(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of Object.values(TABLES))
        await sql
          .raw(
            dialect === 'postgres'
              ? `drop trigger ${table}_search_values_delete on ${table}`
              : `drop trigger ${table}_search_values_delete`,
          )
          .execute(db);
      await sql
        .raw(
          dialect === 'postgres'
            ? 'drop trigger custom_fields_search_values_delete on custom_fields'
            : 'drop trigger custom_fields_search_values_delete',
        )
        .execute(db);
      await sql`drop table search_values`.execute(db);
      if (dialect === 'postgres') {
        await sql`drop function search_values_forget_record`.execute(db);
        await sql`drop function search_values_forget_field`.execute(db);
      }
    },
  };
}

import { type Kysely, sql } from 'kysely';
import { TABLES } from './012-search-index.ts';

/**
 * Placed rows of single-select fields in the search index (`PLACED_PREFIX` in
 * `src/domain/search-values.ts`): field `p:` and the field's id, value the select value,
 * U+0001 and the record's creation time (its `생성 날짜`), so that a value's records read in
 * the list's order. Made here from the index's rows of those fields; deleting a custom field
 * deletes its placed rows too (the trigger of migration 012, replaced).
 */
export function placedSelectValues({ dialect }: { dialect: 'sqlite' | 'postgres' }) {
  const forget = (fields: string) =>
    `delete from search_values where workspace_id = old.workspace_id and record_type = old.record_type and field in (${fields})`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await replaceFieldTrigger(db, dialect, forget(`old.id, 'p:' || old.id`));
      const separator = dialect === 'postgres' ? sql`chr(1)` : sql`char(1)`;
      for (const [type, table] of Object.entries(TABLES)) {
        await sql`insert into search_values (workspace_id, record_type, field, value, record_id)
          select v.workspace_id, v.record_type, 'p:' || v.field, v.value || ${separator} || t.created_at, v.record_id
          from search_values v
          join custom_fields f on f.workspace_id = v.workspace_id and f.id = v.field
            and f.record_type = v.record_type and f.type = 'singleSelect'
          join ${sql.table(table)} t on t.workspace_id = v.workspace_id and t.id = v.record_id
          where v.record_type = ${type}
          on conflict do nothing`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`delete from search_values where field like 'p:%'`.execute(db);
      await replaceFieldTrigger(db, dialect, forget('old.id'));
    },
  };
}

/** The trigger that deletes a custom field's index rows, made anew with `statement`. */
async function replaceFieldTrigger(
  db: Kysely<unknown>,
  dialect: 'sqlite' | 'postgres',
  statement: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `create or replace function search_values_forget_field() returns trigger language plpgsql as $$
        begin ${statement}; return null; end $$`,
      )
      .execute(db);
    return;
  }
  await sql`drop trigger custom_fields_search_values_delete`.execute(db);
  await sql
    .raw(
      `create trigger custom_fields_search_values_delete after delete on custom_fields begin ${statement}; end`,
    )
    .execute(db);
}

import { sql } from 'kysely';
import { WORKSPACE_TABLES } from '../model/tables.ts';
import type { Executor, Store } from './database.ts';

/**
 * The secondary indexes a bulk load dropped, by table, as the SQL that creates each again;
 * taken (to be run by the load) table by table as each table is complete, the rest at the end.
 */
export class DeferredIndexes {
  private readonly byTable = new Map<string, string[]>();

  constructor(indexes: { table: string; sql: string }[] = []) {
    for (const { table, sql } of indexes) {
      const list = this.byTable.get(table);
      if (list) list.push(sql);
      else this.byTable.set(table, [sql]);
    }
  }

  /** The statements that create the indexes of `table` not taken yet (none if none). */
  take(table: string): string[] {
    const list = this.byTable.get(table) ?? [];
    this.byTable.delete(table);
    return list;
  }

  /** The statements of every index not taken yet. */
  takeAll(): string[] {
    const all = [...this.byTable.values()].flat();
    this.byTable.clear();
    return all;
  }
}

/**
 * For a bulk load into the only workspace of a SQLite database (a demo build, an import into
 * a new database): drops the secondary (non-unique) indexes of the workspace tables inside
 * the load's transaction and returns the statements that create them again, which the load
 * runs in that transaction before it commits; with other workspaces, or on PostgreSQL,
 * drops nothing.
 *
 * Rows loaded in bulk land all over those indexes (a demo chunk, or an export's records,
 * span the whole two years), and at a million people they outgrow any page cache, so that
 * each batch spilled them to the write-ahead log and read them back; built after the load,
 * each index is one sort. Primary keys and unique indexes stay, so lookups by id and the
 * unique checks work during the load. The schema change is in the transaction: a failed or
 * killed load leaves the indexes as they were.
 */
export async function deferIndexesOfALoneWorkspace(
  store: Store,
  trx: Executor,
): Promise<DeferredIndexes> {
  if (store.dialect !== 'sqlite') return new DeferredIndexes();
  const workspaces = await trx
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(workspaces.n) !== 1) return new DeferredIndexes();
  const tables = sql.join(WORKSPACE_TABLES.map((t) => sql.lit(t)));
  const { rows } = await sql<{ name: string; table: string; sql: string }>`
    select name, tbl_name as "table", sql from sqlite_master
    where type = 'index' and sql is not null and tbl_name in (${tables})
      and upper(sql) not like 'CREATE UNIQUE%'`.execute(trx);
  for (const index of rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return new DeferredIndexes(rows);
}

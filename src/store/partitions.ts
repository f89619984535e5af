import { type Kysely, sql } from 'kysely';
import { type Database, WORKSPACE_TABLES } from '../model/tables.ts';

/**
 * `PG_PARTITIONS=N` (docs/deploy.md, Distributing by workspace): every workspace table
 * hash-partitioned by `workspace_id` (`workspaces` by its `id`) into N partitions. PostgreSQL
 * then refuses what a database distributed by workspace refuses (a unique index without the
 * workspace, a key that spans workspaces), and a statement that pins one workspace reads and
 * writes one partition of each table, as it would reach one node.
 */

/** A table to partition, and the column it is partitioned by. */
const PARTITIONED: readonly [table: string, column: string][] = [
  ['workspaces', 'id'],
  ...WORKSPACE_TABLES.map((t) => [t, 'workspace_id'] as [string, string]),
];

/** The name of partition `i` of `table`. */
export function partitionName(table: string, i: number): string {
  return `${table}_p${i}`;
}

/**
 * Makes every workspace table that is not partitioned yet a hash-partitioned one of
 * `partitions` partitions, keeping its rows, columns, keys, indexes and triggers under
 * their names; in one transaction. A table partitioned already is left as it is (to change
 * the count, move the data into a new database). Runs after the migrations.
 */
export async function partitionByWorkspace(
  db: Kysely<Database>,
  partitions: number,
): Promise<void> {
  if (partitions <= 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [table, column] of PARTITIONED) {
      const kind = await sql<{ relkind: string }>`
        select c.relkind from pg_class c
        where c.oid = to_regclass(${table})`.execute(trx);
      if (kind.rows[0]?.relkind !== 'r') continue;
      await partitionTable(trx, table, column, partitions);
    }
  });
}

async function partitionTable(
  trx: Kysely<Database>,
  table: string,
  column: string,
  partitions: number,
): Promise<void> {
  const constraints = await sql<{ name: string; def: string }>`
    select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u') order by conname`.execute(trx);
  const indexes = await sql<{ name: string; def: string }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = ${table}::regclass
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by c.relname`.execute(trx);
  const triggers = await sql<{ def: string }>`
    select pg_get_triggerdef(oid) as def from pg_trigger
    where tgrelid = ${table}::regclass and not tgisinternal order by tgname`.execute(trx);
  const plain = `${table}__plain`;
  await sql`alter table ${sql.table(table)} rename to ${sql.id(plain)}`.execute(trx);
  for (const { name } of constraints.rows) {
    await sql`alter table ${sql.table(plain)} rename constraint ${sql.id(name)} to ${sql.id(`${name}__plain`)}`.execute(
      trx,
    );
  }
  for (const { name } of indexes.rows) {
    await sql`alter index ${sql.id(name)} rename to ${sql.id(`${name}__plain`)}`.execute(trx);
  }
  await sql`create table ${sql.table(table)} (like ${sql.table(plain)} including defaults including constraints including generated including storage)
    partition by hash (${sql.id(column)})`.execute(trx);
  for (let i = 0; i < partitions; i++) {
    await sql`create table ${sql.table(partitionName(table, i))} partition of ${sql.table(table)}
      for values with (modulus ${sql.lit(partitions)}, remainder ${sql.lit(i)})`.execute(trx);
  }
  for (const { name, def } of constraints.rows) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} ${sql.raw(def)}`.execute(
      trx,
    );
  }
  for (const { def } of [...indexes.rows, ...triggers.rows]) await sql.raw(def).execute(trx);
  await sql`insert into ${sql.table(table)} select * from ${sql.table(plain)}`.execute(trx);
  await sql`drop table ${sql.table(plain)}`.execute(trx);
}

import type { Executor } from './database.ts';
import { inSqliteTransaction, sawInsert, sqliteStatementOf } from './sqlite-executors.ts';

/**
 * Inserts rows in batches that stay under the dialects' bound-parameter limits. On SQLite,
 * rows that share the first row's keys (every writer builds them that way) go through one
 * cached prepared statement, run once per row: Kysely would parse, compile and prepare
 * every batch anew, which for large inserts costs more than SQLite's own work. Other rows,
 * and other dialects, go through Kysely.
 */
export async function insertMany<T extends Record<string, unknown>>(
  trx: Executor,
  table: string,
  rows: readonly T[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const statement = rowStatement(trx, table, columns);
  if (statement) {
    const values: unknown[] = new Array(columns.length);
    for (const row of rows) {
      if (rowValues(row, columns, values)) statement.run(values);
      else await kyselyInsert(trx, table, [row]);
    }
    return;
  }
  const batch = Math.max(1, Math.floor(30_000 / columns.length));
  for (let i = 0; i < rows.length; i += batch) {
    await kyselyInsert(trx, table, rows.slice(i, i + batch));
  }
}

/**
 * Inserts rows as `insertMany` does, and returns them as stored (`returning *`, in the
 * order given) on PostgreSQL: a write can render new records from them instead of reading
 * them again. Undefined in a SQLite transaction, whose reads cost no round trip (and whose
 * `returning *` costs more than the read it saves).
 */
export async function insertReturning<T extends Record<string, unknown>>(
  trx: Executor,
  table: string,
  rows: readonly T[],
): Promise<Record<string, unknown>[] | undefined> {
  if (rows.length === 0) return [];
  if (inSqliteTransaction(trx)) {
    await insertMany(trx, table, rows);
    return undefined;
  }
  const columns = Object.keys(rows[0]!);
  const out: Record<string, unknown>[] = [];
  const batch = Math.max(1, Math.floor(30_000 / columns.length));
  for (let i = 0; i < rows.length; i += batch) {
    const inserted = await trx
      .insertInto(table as never)
      .values(rows.slice(i, i + batch) as never)
      .returningAll()
      .execute();
    out.push(...(inserted as Record<string, unknown>[]));
  }
  return out;
}

/**
 * Writes rows of one table, each an array of values in `columns` order. On SQLite, inside a
 * transaction, each row is inserted at once through one cached prepared statement on the
 * transaction's connection (the row is garbage the moment it is written); elsewhere rows are
 * kept until `flush()`, which inserts them through `insertMany`. The `blobs` columns take
 * rendered JSON as text: SQLite casts it to the bytes it stores (no Buffer per value),
 * elsewhere `encode` makes the stored form.
 */
export class RowWriter {
  private readonly statement: ReturnType<typeof sqliteStatementOf>;
  private rows: unknown[][] = [];
  private readonly blobIndexes: number[];

  constructor(
    private readonly trx: Executor,
    readonly table: string,
    readonly columns: readonly string[],
    blobs:
      | { columns: readonly string[]; encode: (json: string) => unknown }
      | undefined = undefined,
  ) {
    this.blobIndexes = blobs ? blobs.columns.map((c) => columns.indexOf(c)) : [];
    this.encode = blobs?.encode;
    this.statement = sqliteStatementOf(trx, rowInsertSql(trx, table, columns, blobs?.columns));
  }

  private readonly encode: ((json: string) => unknown) | undefined;

  /** Writes a row (or keeps it for `flush`). */
  add(values: unknown[]): void {
    if (this.statement) this.statement.run(values);
    else this.rows.push(values);
  }

  /** Rows kept for `flush`. */
  get pending(): number {
    return this.rows.length;
  }

  /** Inserts the rows kept. */
  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    const columns = this.columns;
    await insertMany(
      this.trx,
      this.table,
      rows.map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
        for (const i of this.blobIndexes) {
          const v = values[i];
          if (typeof v === 'string') row[columns[i]!] = this.encode!(v);
        }
        return row;
      }),
    );
  }
}

/**
 * The SQL that inserts one row of `table`, a parameter per column in `columns` order, those
 * of `blobs` taking text that is stored as a blob (its UTF-8 bytes); '' when Kysely does not
 * write it in that form.
 */
export function rowInsertSql(
  trx: Executor,
  table: string,
  columns: readonly string[],
  blobs: readonly string[] = [],
): string {
  // A row of nulls: Kysely binds one value a column for any row of plain values.
  const probe = Object.fromEntries(columns.map((c) => [c, null]));
  const insert = trx
    .insertInto(table as never)
    .values(probe as never)
    .compile();
  if (insert.parameters.length !== columns.length) return '';
  return blobs.length > 0 ? withBlobCasts(insert.sql, columns, blobs) : insert.sql;
}

/** `insert ... values (?, ?, ...)` with the parameters of `blobs` cast to blobs. */
function withBlobCasts(
  insert: string,
  columns: readonly string[],
  blobs: readonly string[],
): string {
  const at = insert.lastIndexOf('values (');
  const params = columns.map((c) => (blobs.includes(c) ? 'cast(? as blob)' : '?'));
  const expected = columns.map(() => '?').join(', ');
  // Any other form: no statement, the rows go through `flush` (and `encode`).
  if (insert.slice(at) !== `values (${expected})`) return '';
  return `${insert.slice(0, at)}values (${params.join(', ')})`;
}

async function kyselyInsert(
  trx: Executor,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  await trx
    .insertInto(table as never)
    .values(rows as never)
    .execute();
}

/**
 * SQLite, in a transaction: the writer's cached statement that inserts one row with
 * `columns` into `table`; undefined elsewhere, without compiling anything. The SQL is
 * compiled by Kysely once per table and columns (a row whose values Kysely would not bind,
 * an expression, goes through Kysely in `insertMany`); the write's `WriteWatch`, which sees
 * what Kysely compiles, is told of the insert.
 */
function rowStatement(
  trx: Executor,
  table: string,
  columns: string[],
): ReturnType<typeof sqliteStatementOf> {
  if (!inSqliteTransaction(trx)) return undefined;
  const key = `${table}\u0000${columns.join('\u0000')}`;
  let text = ROW_SQL.get(key);
  if (text === undefined) {
    text = rowInsertSql(trx, table, columns);
    if (ROW_SQL.size >= ROW_SQL_KEPT) ROW_SQL.clear();
    ROW_SQL.set(key, text);
  }
  if (text === '') return undefined;
  sawInsert(trx, table);
  return sqliteStatementOf(trx, text);
}

/** SQLite's one-row inserts by table and columns ('' where Kysely binds other than one value a column). */
const ROW_SQL = new Map<string, string>();
const ROW_SQL_KEPT = 1_000;

/** Puts a row's values in column order into `into`; false if it does not have exactly `columns`. */
function rowValues(row: Record<string, unknown>, columns: string[], into: unknown[]): boolean {
  let keys = 0;
  for (const _ in row) keys++;
  if (keys !== columns.length) return false;
  for (let c = 0; c < columns.length; c++) {
    const value = row[columns[c]!];
    if (value === undefined || isExpression(value)) return false;
    into[c] = value;
  }
  return true;
}

function isExpression(value: unknown): boolean {
  return (
    typeof value === 'function' ||
    (typeof value === 'object' && value !== null && 'toOperationNode' in value)
  );
}

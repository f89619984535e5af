import type SQLite from 'better-sqlite3';
import { CompiledQuery, type KyselyPlugin } from 'kysely';
import type { Executor } from './database.ts';
import { cachedStatement } from './statement-cache.ts';

// The SQLite write connection behind the executors of a store's writes, and who is told of
// the inserts that skip Kysely: a write's statements can run as cached prepared statements on
// the writer where they are in a SQLite transaction. A module of its own so that the store's
// code (the catalog, the inserts) can use it without importing the store itself, which
// imports the migrations.

/** The SQLite write connection behind each write executor of a store: its `db`, or a transaction's. */
const sqliteWriters = new WeakMap<Executor, SQLite.Database>();
const writerStatementCache = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();
/** Records `writer` as the connection behind `executor` (a store's `db`, a transaction's). */
export function bindWriter(executor: Executor, writer: SQLite.Database): void {
  sqliteWriters.set(executor, writer);
}

/** Whether `executor` is a transaction on the SQLite writer (where `sqliteStatementOf` answers). */
export function inSqliteTransaction(executor: Executor): boolean {
  return sqliteWriters.get(executor)?.inTransaction === true;
}

/**
 * A cached prepared statement of `sql` on the SQLite write connection behind `executor`, or
 * undefined when `executor` is not a SQLite store's, or is outside a transaction (where each
 * run would commit on its own). For bulk writes: Kysely's driver
 * prepares every statement anew, and a statement run once per row is SQLite's fastest
 * insert (multi-row `VALUES` runs as a co-routine, slower even when prepared once).
 */
export function sqliteStatementOf(executor: Executor, sql: string): SQLite.Statement | undefined {
  const writer = sqliteWriters.get(executor);
  if (!writer || sql === '' || !writer.inTransaction) return undefined;
  let cache = writerStatementCache.get(writer);
  if (!cache) {
    cache = new Map();
    writerStatementCache.set(writer, cache);
  }
  return cachedStatement(cache, sql, () => writer.prepare(sql));
}

/** What learns of the inserts that run as cached statements, which Kysely does not compile. */
export interface InsertObserver {
  saw(table: string, changes: boolean): void;
}
const insertObservers = new WeakMap<Executor, InsertObserver>();

/** `executor` with `plugin` (and `observer`, if given), on the same connection (and the same cached statements). */
export function withPlugin(
  executor: Executor,
  plugin: KyselyPlugin,
  observer?: InsertObserver,
): Executor {
  const next = executor.withPlugin(plugin);
  const writer = sqliteWriters.get(executor);
  if (writer) sqliteWriters.set(next, writer);
  const observing = observer ?? insertObservers.get(executor);
  if (observing) insertObservers.set(next, observing);
  return next;
}

/** Tells the observer of `executor`, if it has one, of a plain insert into `table` run as a cached statement. */
export function sawInsert(executor: Executor, table: string): void {
  insertObservers.get(executor)?.saw(table, false);
}

/**
 * Runs `text` (in `executor`'s dialect) in `executor`'s transaction: on SQLite, as a statement
 * prepared once on the writer (`sqliteStatementOf`); elsewhere (PostgreSQL, or outside a
 * transaction on the writer) through Kysely, which prepares it as that store does. The rows
 * it returns, none for a statement that returns none. For statements
 * a store runs by the thousand, whose text never changes: Kysely's SQLite driver prepares
 * each anew.
 */
export async function preparedRows<R = unknown>(
  executor: Executor,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  const cached = sqliteStatementOf(executor, text);
  if (!cached) return (await executor.executeQuery<R>(CompiledQuery.raw(text, [...params]))).rows;
  if (cached.reader) return cached.all(params) as R[];
  cached.run(params);
  return [];
}

import type SQLite from 'better-sqlite3';

// The prepared statements a SQLite connection keeps, bounded. A module of its own, importing
// nothing but the driver's types, so that the import's writer thread (sqlite-thread-worker.ts)
// loads the driver and little else: each import starts one.

/**
 * Prepared statements a cache of the store keeps at most: every text comes from code (fixed
 * statements, inserts by table and column list, prepared queries by filter and sort), so this
 * is not reached in practice; past it a cache starts over rather than grow.
 */
export const STATEMENTS_KEPT = 2_000;

/**
 * The statement `cache` keeps under `key`, or the one `prepare` makes, kept there (the cache
 * starting over when it is full).
 */
export function cachedStatement(
  cache: Map<string, SQLite.Statement>,
  key: string,
  prepare: () => SQLite.Statement,
): SQLite.Statement {
  let statement = cache.get(key);
  if (!statement) {
    statement = prepare();
    if (cache.size >= STATEMENTS_KEPT) cache.clear();
    cache.set(key, statement);
  }
  return statement;
}

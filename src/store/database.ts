import type SQLite from 'better-sqlite3';
import {
  type Compilable,
  type CompiledQuery,
  Kysely,
  type SqliteDatabase,
  SqliteDialect,
  sql,
} from 'kysely';
import { pgPartitions } from '../config.ts';
import type { Body, Database } from '../model/tables.ts';
import type { WorkspaceVersions } from './change-feed.ts';
import { makeDatabaseDir } from './database-dir.ts';
import { migrateToLatest } from './migrate.ts';
import { partitionByWorkspace } from './partitions.ts';
import { openPostgresStore, postgresOptionsFromEnv } from './postgres.ts';
import type { ChangeListener } from './postgres-listener.ts';
import { type Checkpointer, startCheckpointer } from './sqlite-checkpointer.ts';
import { openSqliteConnection, WAL_CHECKPOINT_BYTES } from './sqlite-connection.ts';
import { bindWriter } from './sqlite-executors.ts';
import { checkFileLength, databaseFileError } from './sqlite-file.ts';
import { hasConnection } from './sqlite-open-files.ts';
import { WalFile, WalSync } from './sqlite-wal-sync.ts';
import { cachedStatement } from './statement-cache.ts';
import { UnsyncedWriteError, WritesStoppedError } from './writes-stopped.ts';

/** Tables that keep a rendered `body`. */
export type RenderedTable =
  | 'people'
  | 'organizations'
  | 'deals'
  | 'leads'
  | 'products'
  | 'quotes'
  | 'custom_objects';

/** Where the data lives: an embedded SQLite file, or a PostgreSQL server. */
export type StoreLocation =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string };

/** How a write transaction ends. */
/**
 * What a workspace's write tells its store of what it committed (`workspaceTransaction`): the
 * versions it left the workspace at, when it changed nothing else of the workspace's row and
 * no token, so that this process's token lookups of the workspace stay kept with them
 * (`change-feed.ts`); left empty, its commit stales them.
 */
export interface CommitNote {
  versions?: WorkspaceVersions;
}

export interface TransactionOptions {
  /**
   * False for bookkeeping that a crash may lose: SQLite does not wait for the WAL's sync
   * after the commit (the next durable write's sync covers it); PostgreSQL commits with
   * `synchronous_commit = off`, set with its `begin` in one round trip. Default true.
   */
  durable?: boolean;
  /**
   * PostgreSQL: the one workspace whose rows the transaction writes, when it writes no
   * token and no catalogued row (say, webhook deliveries): only that workspace's kept
   * lookups go stale at its commit, not every one.
   */
  workspaceId?: string;
  /**
   * PostgreSQL, bookkeeping (`durable: false` or `workspaceId`): a first statement, its values
   * written in its text, sent with `begin` in one round trip; its rows are the function's
   * second argument. SQLite (whose statements take no round trip) leaves it to the function:
   * the second argument is undefined.
   */
  opening?: string;
}

/** What a transaction runs: on PostgreSQL, given the rows of `TransactionOptions.opening`. */
export type TransactionFn<T> = (trx: Executor, opened?: Record<string, unknown>[]) => Promise<T>;

/** A write transaction, or the database itself outside one. */
export type Executor = Kysely<Database>;

/** One connection pool's connections at a moment. */
export interface PoolStats {
  /** The primary's or the replica's pool of the API, or the primary's of `serve`'s dispatcher. */
  server: 'primary' | 'replica' | 'dispatcher';
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/**
 * The store: one database, a connection for writes and one for reads. Writes go through
 * `transaction` (one writer at a time); reads of the hot paths go through `rows`, which runs
 * a query built with Kysely as a cached prepared statement and returns raw column arrays.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** The SQLite file (for a connection of another thread); undefined in memory and on PostgreSQL. */
  readonly file?: string;
  /** The database as logs name it: the SQLite file, or PostgreSQL's host and database (no credentials). */
  readonly location: string;
  /** Kysely over the write connection. */
  readonly db: Kysely<Database>;
  /** Kysely over the read connection: sees committed data only. */
  readonly reader: Kysely<Database>;
  /** Runs a read query as a cached prepared statement; each row is an array of columns. */
  rows(query: Compilable | CompiledQuery): unknown[][] | Promise<unknown[][]>;
  /**
   * A value that changes whenever anything is committed to the database, by any
   * connection or process; caches keyed on it are exact for every request that arrives
   * after the commit (SQLite reads it once per turn of the event loop, and at once after
   * this store's own queries on the write connection).
   */
  changeStamp(): unknown;
  /**
   * PostgreSQL: the changes every process commits, as the database notifies them (started by
   * the first call, ended by `close`): a cache may keep what it read while the feed is live
   * and names nothing it depends on, instead of a round trip a request. Undefined on SQLite,
   * whose `changeStamp` is read in the process.
   */
  changes?(): ChangeListener;
  /**
   * Runs `fn` in a write transaction (SQLite: `BEGIN IMMEDIATE`, so writers queue, never
   * deadlock), resolving once the commit is durable unless `durable: false` (see
   * `TransactionOptions`).
   */
  transaction<T>(fn: TransactionFn<T>, options?: TransactionOptions): Promise<T>;
  /**
   * PostgreSQL: runs `fn` in a write transaction that holds the write lock of `workspaceId`
   * (its row, `for update`) from its first round trip, which sends `begin` and the lock
   * together; `fn` gets the workspace's `catalog_version` (0 for an unknown workspace), read
   * under the lock, and a `CommitNote` to fill. Undefined on SQLite, whose `BEGIN IMMEDIATE`
   * lets one writer in at a time.
   */
  workspaceTransaction?<T>(
    workspaceId: string,
    fn: (
      trx: Executor,
      catalogVersion: number,
      note: CommitNote,
      /** The number of the workspace's last event, read with the lock. */
      eventSeq: number,
    ) => Promise<T>,
  ): Promise<T>;
  /**
   * Stores rendered record JSON. Call it inside `transaction`, passing its executor: on
   * SQLite it runs on the write connection, which the transaction holds.
   */
  updateBodies(
    table: RenderedTable,
    workspaceId: string,
    entries: [id: string, json: string][],
    trx?: Executor,
  ): void | Promise<void>;
  /**
   * SQLite: runs one statement (a cached prepared statement) once per row of parameters on
   * the write connection, inside the caller's transaction: the cheap way to write many small
   * rows. Undefined on PostgreSQL (which writes such rows in one statement instead).
   */
  runEach?(sql: string, rows: readonly unknown[][]): void;
  /** The stored form of rendered JSON: bytes on SQLite, text on PostgreSQL. */
  encodeBody(json: string): Body;
  /** Brings the schema up to date. */
  migrate(): Promise<void>;
  /**
   * With a read replica: runs `next` (the rest of a read request) with its `rows` and
   * `reader` queries on the replica when the replica has replayed the workspace's writes up
   * to `dataVersion`, else on the primary. Undefined without a replica.
   */
  routeReads?(workspaceId: string, dataVersion: number, next: () => void): void;
  /** The connection pools' connections now, by server (PostgreSQL; undefined on SQLite). */
  poolStats?(): PoolStats[];
  /** Read queries run through `rows`, by server (PostgreSQL). */
  readonly reads?: { primary: number; replica: number };
  /** True when the database answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * What a read needs of a store: its dialect, its read connection and `rows` on it (and, with
 * a replica, the routing of reads). A reader thread's store is no more than this (`openReadSide`).
 */
export type ReadSide = Pick<Store, 'dialect' | 'reader' | 'routeReads' | 'rows'>;

/** `Store.rows` on an SQLite connection: each query a cached prepared statement, rows as arrays. */
function rowsOn(conn: SQLite.Database): Store['rows'] {
  const statements = new Map<string, SQLite.Statement>();
  return (query) => {
    const compiled = 'compile' in query ? query.compile() : query;
    const statement = cachedStatement(statements, compiled.sql, () =>
      conn.prepare(compiled.sql).raw(true),
    );
    return statement.all(...(compiled.parameters as unknown[])) as unknown[][];
  };
}

/** Parses `DATABASE_URL`: `postgres://…` (or `postgresql://…`), `sqlite:PATH`, a bare path, or `:memory:`. */
export function parseDatabaseUrl(url: string): StoreLocation {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { dialect: 'postgres', url };
  }
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (path.length === 0) throw new Error(`DATABASE_URL has no path: ${url}`);
  return { dialect: 'sqlite', path };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with its prepared statements kept by SQL text: Kysely's
 * SQLite driver prepares every query anew, which costs more than running most of them.
 * A statement still busy (a stream reading it) is not shared; a fresh one is prepared.
 */
function withStatementCache(conn: SQLite.Database, onQuery?: () => void): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => conn.close(),
    prepare(source: string) {
      onQuery?.();
      const cached = cache.get(source);
      if (cached && !cached.busy) return cached;
      const statement = conn.prepare(source);
      if (!cached) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

/** `open()`, whose failure on a bad file (not a database, damaged, read-only) names the file. */
function explained<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw databaseFileError(file, error) ?? error;
  }
}

/**
 * Throws a `DatabaseFileError` when the SQLite file of `store` cannot be written, though it
 * opens and reads (a read-only file beside writable `-wal` and `-shm` files, a read-only
 * mount): one write that changes nothing, the header's `user_version` set to itself.
 */
export async function checkWritable(store: Store): Promise<void> {
  if (store.dialect !== 'sqlite' || store.file === undefined) return;
  try {
    const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(store.db);
    const version = Number(rows[0]?.user_version ?? 0);
    await sql.raw(`pragma user_version = ${version}`).execute(store.db);
  } catch (error) {
    throw databaseFileError(store.file, error) ?? error;
  }
}

/** How a store is opened. */
export interface StoreOptions {
  /**
   * For a command that holds one transaction for minutes (import, demo, migrate): no
   * statement or idle-in-transaction timeout on PostgreSQL (`DATABASE_STATEMENT_TIMEOUT_MS`
   * is for the service's requests).
   */
  longRunning?: boolean;
  /**
   * SQLite: wraps the WAL's sync after a commit (`sync`, an `fdatasync` of the file); tests
   * set it to make the disk fail.
   */
  syncWal?: (sync: () => Promise<void>) => Promise<void>;
}

/**
 * The read side of the store at `url`, for a reader thread: on SQLite one connection of
 * its own that may only read (`query_only`), on PostgreSQL a store with its own pool.
 * The database must exist and be migrated (the serving process did both).
 */
export function openReadSide(url: string): ReadSide & { close(): Promise<void> } {
  const location = parseDatabaseUrl(url);
  if (location.dialect === 'postgres') return openStore(url);
  const conn = explained(location.path, () => openSqliteConnection(location.path, 'reader'));
  conn.pragma('query_only = 1');
  const reader = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(conn) }),
  });
  return {
    dialect: 'sqlite',
    reader,
    rows: rowsOn(conn),
    async close() {
      await reader.destroy();
      if (conn.open) conn.close();
    },
  };
}

/**
 * `store`, whose `migrate` also partitions the workspace tables by workspace when
 * `PG_PARTITIONS` asks for it (`partitions.ts`).
 */
function partitionedOnMigrate(store: Store, partitions: number): Store {
  if (partitions <= 0) return store;
  const migrate = store.migrate.bind(store);
  store.migrate = async () => {
    await migrate();
    await partitionByWorkspace(store.db, partitions);
  };
  return store;
}

/** Opens (and creates if need be) the store at `url`. Call `migrate()` before use. */
export function openStore(url: string, options: StoreOptions = {}): Store {
  const location = parseDatabaseUrl(url);
  if (location.dialect === 'postgres') {
    const settings = postgresOptionsFromEnv();
    return partitionedOnMigrate(
      openPostgresStore(
        location.url,
        options.longRunning ? { ...settings, statementTimeoutMs: 0 } : settings,
      ),
      pgPartitions(),
    );
  }
  const path = location.path;
  const memory = path === ':memory:';
  if (!memory) {
    makeDatabaseDir(path);
    // Read with plain file calls, so only before this process has a connection to the file:
    // closing the descriptor would release that connection's locks (sqlite-open-files.ts).
    if (!hasConnection(path)) checkFileLength(path);
  }
  // The API's writes sync the WAL after their commit, off the event loop, several at once.
  const writer = explained(path, () =>
    openSqliteConnection(path, 'writer', { groupCommit: !memory }),
  );
  const walFile = memory ? undefined : new WalFile(path);
  const syncWal = options.syncWal ?? ((sync) => sync());
  const walSync = walFile && new WalSync(() => syncWal(() => walFile.sync()));
  // The change stamp, as read in this turn of the event loop (see `changeStamp`).
  let stamp: unknown;
  const forgetStamp = () => {
    stamp = undefined;
  };
  // An in-memory database is private to its connection: reads share the writer there.
  const readerConn = memory ? writer : explained(path, () => openSqliteConnection(path, 'reader'));
  const db = new Kysely<Database>({
    // Any query on the write connection may commit: the change stamp is read afresh after it.
    dialect: new SqliteDialect({ database: withStatementCache(writer, () => forgetStamp()) }),
  });
  bindWriter(db, writer);
  const reader = memory
    ? db
    : new Kysely<Database>({
        dialect: new SqliteDialect({ database: withStatementCache(readerConn) }),
      });
  // PRAGMA data_version moves when another connection (our writer included) commits.
  const dataVersion = readerConn.prepare('pragma data_version').pluck();
  let memoryStamp = 0;
  const writerStatements = new Map<string, SQLite.Statement>();
  // Started by the first write: a store that only reads never checkpoints.
  let checkpointer: Checkpointer | undefined;
  // Set by a WAL sync that failed: from then on every write is refused.
  let stopped: WritesStoppedError | undefined;

  // The statements every write runs, prepared once (Kysely would build and compile each).
  const begin = writer.prepare('begin immediate');
  const commit = writer.prepare('commit');
  const rollback = writer.prepare('rollback');

  async function transaction<T>(
    fn: (trx: Executor) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    if (stopped) throw stopped;
    const result = await db.connection().execute(async (conn) => {
      bindWriter(conn, writer);
      begin.run();
      try {
        const result = await fn(conn);
        commit.run();
        stamp = undefined;
        if (!checkpointer && !memory) {
          checkpointer = startCheckpointer(path, WAL_CHECKPOINT_BYTES);
        }
        return result;
      } catch (error) {
        // SQLite rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR): roll
        // back only a transaction still open, and never let a failed rollback hide the
        // error that caused it.
        if (writer.inTransaction) {
          try {
            rollback.run();
          } catch {}
        }
        throw error;
      }
    });
    if (options?.durable === false) return result;
    // Durable before it is acknowledged; the writer is free for the next write meanwhile.
    try {
      await walSync?.afterCommit();
    } catch (cause) {
      const unsynced = new UnsyncedWriteError(cause);
      stopped ??= new WritesStoppedError(unsynced);
      throw unsynced;
    }
    return result;
  }

  return {
    dialect: 'sqlite',
    file: memory ? undefined : path,
    location: path,
    db,
    reader,
    rows: rowsOn(readerConn),
    changeStamp() {
      // An in-memory database has one connection, whose own commits the pragma ignores.
      if (memory) return ++memoryStamp;
      // Read once per turn of the event loop: the requests handled in one turn arrived
      // together, so a commit by another process in between is concurrent with all of them;
      // this process's own queries on the write connection drop the remembered value.
      if (stamp === undefined) {
        stamp = dataVersion.get();
        setImmediate(forgetStamp);
      }
      return stamp;
    },
    transaction,
    encodeBody(json) {
      return Buffer.from(json);
    },
    updateBodies(table, workspaceId, entries) {
      const key = `update:${table}`;
      const statement = cachedStatement(writerStatements, key, () =>
        writer.prepare(`update ${table} set body = ? where workspace_id = ? and id = ?`),
      );
      for (const [id, json] of entries) statement.run(Buffer.from(json), workspaceId, id);
    },
    runEach(text, rows) {
      const statement = cachedStatement(writerStatements, text, () => writer.prepare(text));
      for (const row of rows) statement.run(...row);
    },
    async migrate() {
      await migrateToLatest(db, 'sqlite');
    },
    async ping() {
      if (stopped) return false;
      try {
        readerConn.prepare('select 1').get();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      // What was written outside `transaction` (migrations, commands) synced as well; after
      // a failed sync there is nothing more that syncing can promise.
      if (!stopped) await walSync?.afterCommit();
      await checkpointer?.stop();
      walFile?.close();
      await db.destroy();
      if (!memory) await reader.destroy();
      // Kysely closes a connection only if it ever ran a query on it: a store that never
      // read (a migration) would leave its reader open, holding the file's locks until it
      // is collected, while the process's next store checks and opens the file.
      if (writer.open) writer.close();
      if (readerConn.open) readerConn.close();
    },
  };
}

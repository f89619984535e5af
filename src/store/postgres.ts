import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.ts';
import type { Database } from '../model/tables.ts';
import type {
  CommitNote,
  Executor,
  PoolStats,
  RenderedTable,
  Store,
  TransactionFn,
  TransactionOptions,
} from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { inTransaction, OwnCommits } from './own-commits.ts';
import { HostPool } from './postgres-host-pool.ts';
import { type ChangeListener, listenForChanges } from './postgres-listener.ts';
import { refuseUnreplicatedCommits } from './postgres-unreplicated-commit.ts';
import { describePostgresUrl } from './postgres-url.ts';
import { isStoreUnavailable } from './unavailable.ts';

/** Pool and timeout settings of a PostgreSQL store. */
export interface PostgresOptions {
  /** Most connections the pool opens (per process). */
  poolMax: number;
  /** How long to wait for a connection (new or from the pool) before failing the query. */
  connectTimeoutMs: number;
  /**
   * The server cancels a statement that runs longer than this, and a transaction idle for
   * twice as long; 0: never (the CLI's long commands: an import's transaction holds while
   * it reads and checks a file).
   */
  statementTimeoutMs: number;
  /** An idle connection is closed after this. */
  idleTimeoutMs: number;
  /** A streaming replica to read from (`DATABASE_READ_URL`); writes always go to the primary. */
  readUrl?: string;
  /**
   * Where the store listens for the notifications of commits (`DATABASE_LISTEN_URL`; default
   * the primary's URL): a direct connection, as LISTEN does not pass through a pooler in
   * transaction mode. `false` (`off`): no listening, every request looks its token up.
   */
  listenUrl?: string | false;
}

/** Reads `DATABASE_POOL_MAX`, `DATABASE_CONNECT_TIMEOUT_MS`, `DATABASE_STATEMENT_TIMEOUT_MS`. */
export function postgresOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PostgresOptions {
  const int = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) {
      throw new ConfigError(`${name} must be an integer ≥ ${min}, not ${JSON.stringify(raw)}`);
    }
    return value;
  };
  return {
    poolMax: int('DATABASE_POOL_MAX', 10, 1),
    connectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 1),
    statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 1),
    idleTimeoutMs: int('DATABASE_IDLE_TIMEOUT_MS', 30_000, 1),
    readUrl: env.DATABASE_READ_URL || undefined,
    listenUrl: listenUrl(env.DATABASE_LISTEN_URL),
  };
}

/**
 * `DATABASE_LISTEN_URL`: `off`, unset, or one PostgreSQL server's URL (the listening
 * connection is a plain client of one host). Anything else stops the start, rather than
 * leaving every process without notifications, looking each token up, without a word.
 */
function listenUrl(raw: string | undefined): string | false | undefined {
  if (raw === 'off') return false;
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (
    !url ||
    (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') ||
    url.host === '' ||
    url.host.includes(',')
  ) {
    throw new ConfigError(
      'DATABASE_LISTEN_URL must be off, or the URL of one PostgreSQL server (postgres://USER@HOST:PORT/DB)',
    );
  }
  return raw;
}

// bigint (count(*), data_version) and numeric come back as numbers, as on SQLite: the
// values the service keeps in them stay far below 2^53.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if ((oid === INT8 || oid === NUMERIC) && format !== 'binary') return Number;
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads are per format
    return (pg.types.getTypeParser as any)(oid, format);
  },
};

/**
 * A bounded pool whose connection errors are logged, never thrown at the process, over the
 * hosts of `url` (one, or libpq's list with `target_session_attrs`: `postgres-host-pool.ts`).
 */
function openPool(url: string, options: PostgresOptions, onError: (e: Error) => void): HostPool {
  const hostPool = new HostPool(url, {
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: options.idleTimeoutMs,
    ...(options.statementTimeoutMs > 0
      ? {
          statement_timeout: options.statementTimeoutMs,
          // A query stuck on a dead connection fails a little after the server would cancel it.
          query_timeout: options.statementTimeoutMs + options.connectTimeoutMs,
          idle_in_transaction_session_timeout: options.statementTimeoutMs * 2,
        }
      : {}),
    keepAlive: true,
    types,
  });
  const pool = hostPool.pool;
  // A connection that dies while idle in the pool (server restart, pg_terminate_backend)
  // emits `error` on the pool: without a listener, Node would end the process.
  pool.on('error', onError);
  // And on the client itself while it is checked out: the query in flight fails anyway.
  pool.on('connect', (client) => {
    client.on('error', onError);
    refuseUnreplicatedCommits(client);
    prepareStatements(client);
  });
  return hostPool;
}

/** Most statements a connection keeps prepared; it runs any further ones unnamed. */
const PREPARED_PER_CONNECTION = 1_000;

/**
 * Makes a connection run each parameterized query (Kysely's, which it sends as text and
 * values) as a named prepared statement, parsed and planned once per connection: a write
 * runs a dozen short statements, whose parsing would cost the server as much as running
 * them. Queries without values (which may hold several statements) run as they are, and
 * answer with their last statement's result (pg's answer is then a list, whose rows Kysely
 * would not find): how `begin` and the workspace lock share one round trip.
 */
function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = new Set<string>();
  client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      rest.length === 0 &&
      (prepared.has(text) || prepared.size < PREPARED_PER_CONNECTION)
    ) {
      prepared.add(text);
      return query({ name: statementName(text), text, values });
    }
    const result = query(text, values, ...rest);
    return rest.length === 0 && result instanceof Promise ? result.then(lastResult) : result;
  }) as typeof client.query;
}

/** The result of a query's last statement (pg answers a text of several with a list). */
function lastResult(result: unknown): unknown {
  return Array.isArray(result) ? result[result.length - 1] : result;
}

/** Workspaces whose replica state is remembered at most; beyond, the memory starts over. */
const MAX_REMEMBERED_WORKSPACES = 100_000;

/** Names of the statements prepared so far, by text (bounded: beyond, names are computed). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 10_000;

/** The name of a prepared statement for `text`: stable across connections and processes. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (statementNames.size < MAX_STATEMENT_NAMES) statementNames.set(text, name);
  }
  return name;
}

/**
 * Opens a PostgreSQL store over a `pg` pool. Reads and writes share the pool; `rows` runs
 * each hot-path query as a named prepared statement (prepared once per connection).
 */
export function openPostgresStore(
  url: string,
  options: PostgresOptions = postgresOptionsFromEnv(),
): Store {
  let lastErrorLogged = 0;
  const onError = (error: Error) => {
    // Connection losses are answered per request (503); the log says it once a second at most.
    const now = Date.now();
    if (now - lastErrorLogged > 1000) {
      lastErrorLogged = now;
      process.emitWarning(`PostgreSQL connection error: ${error.message}`, 'SalescrmStore');
    }
  };
  const pool = openPool(url, options, onError);
  // Started by the first `changes()`: a store that serves no request (a CLI command) never listens.
  let listener: ChangeListener | undefined;
  // What this process commits, its own caches know at once, before the notification comes
  // back: a workspace's write names the workspace, any other change stales every lookup.
  const ownCommits = new OwnCommits(() => listener?.feed.changedAll());
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [ownCommits],
  });
  let stamp = 0;

  // Reads run on the primary unless a request was routed to the replica (`routeReads`).
  const replica = options.readUrl ? openPool(options.readUrl, options, onError) : undefined;
  const route = new AsyncLocalStorage<'replica'>();
  const readPool = () => (replica && route.getStore() === 'replica' ? replica : pool);
  const reads = { primary: 0, replica: 0 };
  // The highest data version of each workspace seen on the replica.
  const replayed = new Map<string, number>();
  /**
   * Runs a read on the pool the request was routed to; when the replica cannot be reached,
   * on the primary instead (reads are safe to repeat), and every workspace is checked on
   * the replica again before it is read there.
   */
  async function onReadPool<T>(read: (target: HostPool) => Promise<T>): Promise<T> {
    const target = readPool();
    if (target === pool) {
      reads.primary += 1;
      return read(pool);
    }
    try {
      reads.replica += 1;
      return await read(target);
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      replayed.clear();
      reads.primary += 1;
      return read(pool);
    }
  }
  const reader = replica
    ? new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: {
            connect: () => onReadPool((target) => target.connect()),
            end: async () => {},
          } as unknown as pg.Pool,
        }),
      })
    : db;

  const changes = () => {
    listener ??= listenForChanges(
      () =>
        new pg.Client({
          // The host the pool writes to now (of a list of hosts, the one that takes writes:
          // notifications are the primary's), unless DATABASE_LISTEN_URL names another way.
          connectionString: options.listenUrl || pool.currentUrl,
          connectionTimeoutMillis: options.connectTimeoutMs,
          keepAlive: true,
        }),
      (channel, payload) =>
        pool.query({ text: 'select pg_notify($1, $2)', values: [channel, payload] }),
    );
    return listener;
  };

  /**
   * A transaction whose `opening` text (`begin` and what must come with it: a setting, a lock,
   * a first statement) is sent in one round trip, its rows handed to `fn`; at its commit the
   * kept lookups of `workspaceId` stale (of every workspace when it names none), or move to
   * the versions `fn` noted.
   */
  async function openedTransaction<T>(
    opening: string,
    fn: (conn: Executor, opened: Record<string, unknown>[], note: CommitNote) => Promise<T>,
    workspaceId: string | undefined,
  ): Promise<T> {
    let failure: unknown;
    let open = false;
    try {
      return await db.connection().execute(async (conn) => {
        try {
          open = true;
          const opened = await sql.raw<Record<string, unknown>>(opening).execute(conn);
          const note: CommitNote = {};
          const result = await fn(inTransaction(conn), opened.rows, note);
          open = false;
          await sql`commit`.execute(conn);
          if (workspaceId === undefined) listener?.feed.changedAll();
          else if (note.versions) listener?.feed.moved(workspaceId, note.versions);
          else listener?.feed.changed(workspaceId);
          return result;
        } catch (error) {
          failure ??= error;
          if (open) {
            open = false;
            await sql`rollback`.execute(conn);
          }
          throw error;
        }
      });
    } catch (error) {
      // The rollback can fail too (the connection went away): the error that caused it is
      // the one to answer and log.
      throw failure ?? error;
    }
  }

  /**
   * A transaction as `TransactionOptions` asks: `begin` (with `synchronous_commit = off`
   * when not durable, and its `opening` statement) in one round trip, and at its commit only
   * its workspace's kept lookups stale, when it names one.
   */
  function bookkeepingTransaction<T>(
    fn: TransactionFn<T>,
    options: TransactionOptions,
  ): Promise<T> {
    const begin = options.durable === false ? 'begin; set local synchronous_commit = off' : 'begin';
    return openedTransaction(
      options.opening === undefined ? begin : `${begin}; ${options.opening}`,
      (conn, rows) => fn(conn, options.opening === undefined ? undefined : rows),
      options.workspaceId,
    );
  }

  return {
    dialect: 'postgres',
    ...(options.listenUrl === false ? {} : { changes }),
    location: describePostgresUrl(url),
    db,
    reader,
    reads,
    poolStats: () => [
      poolStatsOf('primary', pool),
      ...(replica ? [poolStatsOf('replica', replica)] : []),
    ],
    routeReads: replica
      ? (workspaceId, dataVersion, next) => {
          const toReplica = () => route.run('replica', next);
          if ((replayed.get(workspaceId) ?? -1) >= dataVersion) return toReplica();
          // The replica serves a workspace once it has replayed the workspace's last write
          // (every write bumps `data_version` in its transaction): a client never misses its
          // own write, however far the replica lags. Until then, and when the replica is
          // unreachable, the primary serves.
          replica
            .query({
              name: 'salescrm_replica_version',
              text: 'select data_version from workspaces where id = $1',
              values: [workspaceId],
              rowMode: 'array',
            })
            .then(
              (result) => {
                const seen = result.rows[0]?.[0];
                if (typeof seen === 'number' && seen >= dataVersion) {
                  if (replayed.size >= MAX_REMEMBERED_WORKSPACES) replayed.clear();
                  replayed.set(workspaceId, seen);
                  toReplica();
                } else next();
              },
              () => next(),
            );
        }
      : undefined,
    async rows(query) {
      const compiled: CompiledQuery = 'compile' in query ? query.compile() : query;
      const name = statementName(compiled.sql);
      const result = await onReadPool((target) =>
        target.query({
          name,
          text: compiled.sql,
          values: compiled.parameters as unknown[],
          rowMode: 'array',
        }),
      );
      return result.rows as unknown[][];
    },
    changeStamp() {
      // Any version read from the server costs the same round trip as the token lookup the
      // stamp would let the caller skip: a stamp that always moves makes every request look
      // its token up, so a token revoked by any process fails on the very next request.
      stamp += 1;
      return stamp;
    },
    async transaction(fn, options) {
      if (options?.durable === false || options?.workspaceId !== undefined)
        return bookkeepingTransaction(fn, options);
      let failure: unknown;
      try {
        const result = await db.transaction().execute(async (trx) => {
          try {
            return await fn(inTransaction(trx));
          } catch (error) {
            failure = error;
            throw error;
          }
        });
        listener?.feed.changedAll();
        return result;
      } catch (error) {
        // The rollback after a failure can fail too (the connection went away): the error
        // that caused it is the one to answer and log.
        throw failure ?? error;
      }
    },
    workspaceTransaction(workspaceId, fn) {
      // One round trip: a text of three statements runs as a simple query, which takes no
      // parameters, so the id is a literal (escaped, though ids are checked already). The
      // write's statements, prepared once a connection, run on generic plans: with `auto`,
      // PostgreSQL planned a write's last statement anew at every write (0.3–0.6 ms of its
      // CPU), where each statement of a write finds its rows by workspace and key. For this
      // transaction alone: reads keep PostgreSQL's choice.
      return openedTransaction(
        `begin; set local plan_cache_mode = force_generic_plan; select catalog_version, event_seq from workspaces where id = ${pg.escapeLiteral(workspaceId)} for update`,
        (conn, rows, note) =>
          fn(conn, Number(rows[0]?.catalog_version ?? 0), note, Number(rows[0]?.event_seq ?? 0)),
        workspaceId,
      );
    },
    encodeBody(json) {
      return json;
    },
    async updateBodies(table: RenderedTable, workspaceId, entries, trx) {
      if (entries.length === 0) return;
      const ids = entries.map((e) => e[0]);
      const bodies = entries.map((e) => e[1]);
      await sql`update ${sql.table(table)} as t set body = v.body
        from unnest(${ids}::text[], ${bodies}::text[]) as v(id, body)
        where t.workspace_id = ${workspaceId} and t.id = v.id collate "C"`.execute(trx ?? db);
    },
    async migrate() {
      await migrateToLatest(db, 'postgres');
    },
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await listener?.close();
      await db.destroy();
      await replica?.end();
    },
  };
}

/** The connections of a pool now. */
function poolStatsOf(server: PoolStats['server'], pool: HostPool): PoolStats {
  return { server, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

import pg from 'pg';
import { type PostgresHosts, parsePostgresHosts, type TargetSessionAttrs } from './postgres-url.ts';

/**
 * A `pg` pool over the hosts of a multi-host URL (`postgres-url.ts`), choosing as libpq does:
 * a new connection goes to the first host, in the URL's order, that accepts it and whose
 * session has the URL's `target_session_attrs` (`read-write`: not read-only; `primary`: not in
 * recovery; `standby`, `read-only`; `prefer-standby`: a standby if any, else any host, with a
 * standby looked for again every 10 s). Unlike libpq it starts from the host that served
 * last, so a dead first host costs one refused connection, not one per connection. A host that refuses, fails its check, or answers a
 * statement with SQLSTATE 25006 (read-only transaction: a primary demoted) is left for the
 * next; its idle connections are closed as they come out of the pool. When no host will do,
 * `connect` fails with SQLSTATE 08001, which the API answers with 503 (`unavailable.ts`). A
 * connection whose query got no answer within the query timeout is closed, not reused.
 */
export class HostPool {
  readonly hosts: PostgresHosts;
  /** The pool itself, for its events (`connect`, `error`). */
  readonly pool: pg.Pool;
  /** The host new connections go to. */
  private current = 0;
  /**
   * While `current` is a fallback (`prefer-standby` on a primary, no standby answering): until
   * when it serves before the hosts are looked through again; 0 when it is no fallback.
   */
  private fallbackUntil = 0;
  /** How each connection's session fits `target_session_attrs`, checked once a connection. */
  private readonly checked = new WeakMap<pg.PoolClient, 'yes' | 'fallback'>();

  constructor(url: string, config: Omit<pg.PoolConfig, 'connectionString' | 'Client'>) {
    this.hosts = parsePostgresHosts(url);
    const hostPool = this;
    /** A connection to the host the pool chose when it was made, which it remembers. */
    class HostClient extends pg.Client {
      readonly hostIndex: number;
      constructor(options?: pg.ClientConfig) {
        const hostIndex = hostPool.current;
        super({ ...options, connectionString: hostPool.hosts.urls[hostIndex] });
        this.hostIndex = hostIndex;
        const query = this.query.bind(this) as (...args: unknown[]) => unknown;
        this.query = ((...args: unknown[]) => {
          const result = query(...args);
          if (result instanceof Promise) {
            result.catch((error: unknown) => {
              if ((error as { code?: unknown })?.code === READ_ONLY) hostPool.leave(hostIndex);
              // No answer within the query timeout (a host gone without a word, a commit
              // waiting for a lost standby): the connection still waits for that answer, and
              // every query given to it would queue behind; it is closed instead, so the pool
              // opens another (`end` drops the socket of a connection with a query running).
              if ((error as Error)?.message === QUERY_READ_TIMEOUT) this.end().catch(() => {});
            });
          }
          return result;
        }) as typeof this.query;
      }
    }
    this.pool = new pg.Pool({ ...config, Client: HostClient });
  }

  /** The URL of the one host new connections go to now. */
  get currentUrl(): string {
    return this.hosts.urls[this.current]!;
  }

  /** Connections open, idle, and queries waiting for one. */
  get totalCount(): number {
    return this.pool.totalCount;
  }
  get idleCount(): number {
    return this.pool.idleCount;
  }
  get waitingCount(): number {
    return this.pool.waitingCount;
  }

  /** A connection to a host that will do (see the class). */
  async connect(): Promise<pg.PoolClient> {
    const { urls, targetSessionAttrs } = this.hosts;
    if (urls.length === 1 && targetSessionAttrs === 'any') return this.pool.connect();
    const failures: string[] = [];
    let fallback: number | undefined;
    let lastError: unknown;
    // A fallback serves for a while; then the hosts are looked through from the first again.
    const onFallback = this.fallbackUntil !== 0 && Date.now() < this.fallbackUntil;
    const start = this.fallbackUntil === 0 || onFallback ? this.current : 0;
    for (let k = 0; k < urls.length; k++) {
      const host = (start + k) % urls.length;
      try {
        const client = await this.connectTo(host);
        let fits: 'yes' | 'no' | 'fallback';
        try {
          fits = await this.fits(client);
        } catch (error) {
          client.release(error as Error);
          throw error;
        }
        if (fits === 'yes' || (fits === 'fallback' && onFallback)) {
          if (fits === 'yes') this.fallbackUntil = 0;
          return client;
        }
        client.release(true);
        fallback ??= fits === 'fallback' ? host : undefined;
        failures.push(`${this.hosts.names[host]}: its session is not ${targetSessionAttrs}`);
      } catch (error) {
        // Every connection busy: another host would not help.
        if (isPoolWait(error)) throw error;
        lastError = error;
        failures.push(`${this.hosts.names[host]}: ${(error as Error)?.message ?? String(error)}`);
      }
    }
    if (fallback !== undefined) {
      this.fallbackUntil = Date.now() + FALLBACK_MS;
      return this.connectTo(fallback);
    }
    throw new NoHostError(targetSessionAttrs, failures, lastError);
  }

  /** Runs one query on a connection of the pool (as `pg.Pool.query` does). */
  query<R extends unknown[] = unknown[]>(
    config: pg.QueryArrayConfig,
  ): Promise<pg.QueryArrayResult<R>>;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    config: string | pg.QueryConfig,
  ): Promise<pg.QueryResult<R>>;
  async query(config: string | pg.QueryConfig | pg.QueryArrayConfig): Promise<unknown> {
    const client = await this.connect();
    try {
      const result = await client.query(config as pg.QueryConfig);
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  async end(): Promise<void> {
    await this.pool.end();
  }

  /** Moves new connections off `host` (refused, or answered read-only). */
  private leave(host: number): void {
    if (this.current === host) this.current = (host + 1) % this.hosts.urls.length;
  }

  /** A connection of the pool to `host`; other hosts' connections met on the way are closed. */
  private async connectTo(host: number): Promise<pg.PoolClient> {
    // Idle connections of hosts left behind come out of the pool first; each is closed.
    // (Bounded: connections made meanwhile by other callers for other hosts are closed too.)
    for (let tries = 0; ; tries++) {
      this.current = host;
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        if (!isPoolWait(error)) this.leave(host);
        throw error;
      }
      if ((client as unknown as { hostIndex: number }).hostIndex === host) return client;
      client.release(true);
      if (tries > (this.pool.options.max ?? 10)) {
        throw new Error(`no connection to ${this.hosts.names[host]} came out of the pool`);
      }
    }
  }

  /** Whether the session of `client` has the attributes wanted (checked once a connection). */
  private async fits(client: pg.PoolClient): Promise<'yes' | 'no' | 'fallback'> {
    const wanted = this.hosts.targetSessionAttrs;
    if (wanted === 'any') return 'yes';
    const known = this.checked.get(client);
    if (known !== undefined) return known;
    const { rows } = await client.query<{ standby: boolean; read_only: boolean }>(
      `select pg_is_in_recovery() as standby, current_setting('transaction_read_only') = 'on' as read_only`,
    );
    const { standby, read_only } = rows[0]!;
    const fits = sessionFits(wanted, { standby, readOnly: read_only });
    if (fits !== 'no') this.checked.set(client, fits);
    return fits;
  }
}

/** How long a fallback host serves before the preferred hosts are tried again. */
const FALLBACK_MS = 10_000;

/** `pg.Pool`'s error when every connection stayed busy for the connect timeout. */
function isPoolWait(error: unknown): boolean {
  return (error as Error)?.message === 'timeout exceeded when trying to connect';
}

/** `pg`'s error when a query got no answer within `query_timeout`. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/** SQLSTATE read_only_sql_transaction. */
const READ_ONLY = '25006';

/** Whether a session of a server in this state will do for `wanted`. */
export function sessionFits(
  wanted: TargetSessionAttrs,
  server: { standby: boolean; readOnly: boolean },
): 'yes' | 'no' | 'fallback' {
  switch (wanted) {
    case 'any':
      return 'yes';
    case 'read-write':
      return server.readOnly ? 'no' : 'yes';
    case 'read-only':
      return server.readOnly ? 'yes' : 'no';
    case 'primary':
      return server.standby ? 'no' : 'yes';
    case 'standby':
      return server.standby ? 'yes' : 'no';
    case 'prefer-standby':
      return server.standby ? 'yes' : 'fallback';
  }
}

/**
 * No host of the URL accepted a connection with the wanted session attributes. SQLSTATE
 * 08001 (sqlclient_unable_to_establish_sqlconnection), as libpq reports it.
 */
export class NoHostError extends Error {
  readonly code = '08001';
  constructor(wanted: TargetSessionAttrs, failures: string[], cause: unknown) {
    super(
      `no PostgreSQL host accepts a ${wanted} session: ${failures.join('; ')}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'NoHostError';
  }
}

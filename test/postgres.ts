import pg from 'pg';

/**
 * PostgreSQL for the test suite: the server named by `TEST_DATABASE_URL`, else the local one
 * on 127.0.0.1:5432. Every run makes databases named `salescrm_t_<run>_…`, so runs of several
 * people on one server never collide, and drops them when it ends.
 */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server the PostgreSQL tests use (a database on it to connect to for admin work). */
export function testServerUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
}

/**
 * `SALESCRM_TEST_PG_PARTITIONS=N`: the PostgreSQL project's databases have every workspace
 * table hash-partitioned by workspace into N partitions (the store's `PG_PARTITIONS`), 0 for
 * plain tables.
 */
export function testPartitions(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SALESCRM_TEST_PG_PARTITIONS;
  if (raw === undefined || raw === '' || raw === '0') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`SALESCRM_TEST_PG_PARTITIONS must be a whole number, not '${raw}'`);
  }
  return n;
}

/** `url` naming database `name` instead. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on one admin connection to the server. */
export async function withAdmin<T>(
  serverUrl: string,
  fn: (c: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Why the server cannot be used, or undefined when it answers. */
export async function unreachableReason(serverUrl: string): Promise<string | undefined> {
  try {
    await withAdmin(serverUrl, (c) => c.query('select 1'));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || String(error) : String(error);
  }
}

/** Quotes a database name for SQL. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The backends of `db`'s database waiting for a lock. */
export async function waitingForLocks(db: pg.Client): Promise<number> {
  const { rows } = await db.query(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return rows[0].n;
}

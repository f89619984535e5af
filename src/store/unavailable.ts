/** SQLSTATE codes of a transaction PostgreSQL rolled back to end a conflict with another. */
const CONFLICT_SQLSTATE = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** SQLSTATE codes (or their classes) meaning "the database cannot serve this now: retry". */
const RETRYABLE_SQLSTATE = new Set([
  '25006', // read_only_sql_transaction (a standby, or a primary demoted: the next host serves)
  ...CONFLICT_SQLSTATE,
  '53300', // too_many_connections
  '55P03', // lock_not_available
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown (pg_terminate_backend, server stopping)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// node-postgres raises these without a code.
const LOST_CONNECTION = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Client was closed',
  'Cannot use a pool after calling end',
];

/**
 * True when `error` says the database is unreachable, busy or went away, rather than that
 * the request or the code is wrong: the API answers 503 with `Retry-After`.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
    // A WAL sync failed (writes-stopped.ts): no write is taken until a restart.
    if (code === 'SALESCRM_UNSYNCED_WRITE' || code === 'SALESCRM_WRITES_STOPPED') return true;
    // A commit the synchronous standby did not confirm (postgres-unreplicated-commit.ts).
    if (code === 'SALESCRM_UNREPLICATED_COMMIT') return true;
    if (RETRYABLE_SQLSTATE.has(code) || code.startsWith('08')) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && LOST_CONNECTION.some((m) => message.includes(m))) return true;
  // AggregateError (connecting to every address of a host failed) and wrapped causes.
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some(isStoreUnavailable)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isStoreUnavailable(cause);
}

/**
 * True when PostgreSQL rolled the transaction back to end its conflict with another (a
 * deadlock, a serialization failure): an answer of the server, so nothing of it committed
 * (even when it came at the commit), and the same work may run again.
 */
export function isConflictRollback(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONFLICT_SQLSTATE.has(code)) return true;
    const cause = (e as { cause?: unknown }).cause;
    if (cause === e) return false;
    e = cause;
  }
  return false;
}

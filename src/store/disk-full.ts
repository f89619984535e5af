/**
 * True when `error` says the database could not write for lack of space: SQLite's
 * `SQLITE_FULL` (the disk, or the file's `max_page_count`), PostgreSQL's `53100 disk_full`,
 * or the system's `ENOSPC`. The API answers 507; nothing of the write was kept.
 */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isDiskFull(cause);
}

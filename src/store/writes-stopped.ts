/**
 * A write that committed but whose WAL sync failed: it is in the database and other requests
 * can read it, but the disk did not confirm it, so a power cut (or the OS dropping the pages
 * it could not write) may still lose it. After such a failure the store takes no more writes
 * (`WritesStoppedError`): a later sync cannot be trusted to cover the pages the failed one
 * did not write, and only a restart, which reads the WAL back from the file, says what the
 * database holds.
 */
export class UnsyncedWriteError extends Error {
  readonly code = 'SALESCRM_UNSYNCED_WRITE';

  constructor(cause: unknown) {
    super(`the WAL could not be synced after a commit: ${describe(cause)}`, { cause });
    this.name = 'UnsyncedWriteError';
  }
}

/** A write refused because an earlier WAL sync failed (see `UnsyncedWriteError`); nothing was written. */
export class WritesStoppedError extends Error {
  readonly code = 'SALESCRM_WRITES_STOPPED';

  constructor(readonly since: UnsyncedWriteError) {
    super(`writes stopped: ${since.message}`, { cause: since });
    this.name = 'WritesStoppedError';
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

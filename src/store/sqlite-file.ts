import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * A SQLite database file the service cannot use: not a database, damaged, or not writable.
 * Its message is one line for the operator: the file, what is wrong, what to do.
 */
export class DatabaseFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DatabaseFileError';
  }
}

const NOT_A_DATABASE = new Set(['SQLITE_NOTADB']);
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE']);
const NOT_WRITABLE = ['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM'];

/**
 * The `DatabaseFileError` that `error`, raised by SQLite on the file at `file`, means; or
 * undefined when it is about something else (a bug, a busy database).
 */
export function databaseFileError(file: string, error: unknown): DatabaseFileError | undefined {
  if (error instanceof DatabaseFileError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const sqlite = `SQLite: ${(error as Error).message}`;
  if (NOT_A_DATABASE.has(code)) {
    return new DatabaseFileError(
      file,
      `${file} is not a salescrm database (${sqlite}): set DATABASE_URL to the right file, or restore this one from a backup`,
      { cause: error },
    );
  }
  if (DAMAGED.has(code)) {
    return new DatabaseFileError(
      file,
      `${file} is damaged, e.g. truncated (${sqlite}): restore it from a backup`,
      { cause: error },
    );
  }
  if (NOT_WRITABLE.some((prefix) => code.startsWith(prefix))) {
    return new DatabaseFileError(
      file,
      `${file} cannot be written (${sqlite}): check the permissions of the file, of its directory and of its -wal and -shm files, and that its disk is not mounted read-only`,
      { cause: error },
    );
  }
  return undefined;
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Throws a `DatabaseFileError` when the SQLite file at `file` is shorter than its header
 * says (truncated by a copy or a disk that filled up): SQLite reads the missing pages only
 * when a query reaches them, so the file would open, serve some reads and fail others.
 * A missing or empty file, or one that is not a database at all, is left to SQLite.
 */
export function checkFileLength(file: string): void {
  // Another process's checkpoint may be writing the file back right now, its header ahead of
  // its length for a moment: a truncation counts only when it is still there 2 s later.
  for (let attempt = 1; ; attempt++) {
    try {
      measureFileLength(file);
      return;
    } catch (error) {
      if (attempt === 20 || !(error instanceof DatabaseFileError)) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

function measureFileLength(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size === 0) return;
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.subarray(0, HEADER.length).equals(HEADER)) return;
  const damaged = (what: string) =>
    new DatabaseFileError(file, `${file} is damaged (${what}): restore it from a backup`);
  if (read < 100) throw damaged(`${size} bytes, shorter than a database header`);
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  // The page count in the header is valid when written with the current change counter.
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (valid && pages > 0 && size < pages * pageSize) {
    throw damaged(`truncated: ${size} bytes of the ${pages * pageSize} its header declares`);
  }
}

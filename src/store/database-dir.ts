import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseFileError } from './sqlite-file.ts';

/**
 * Makes the directory of the SQLite database file `file` if it is missing, one level at a
 * time, or throws a `DatabaseFileError` naming the directory and the cause in one line.
 * Not `mkdirSync(…, { recursive: true })`: where a file system answers ENOENT for a new
 * directory whose parent exists (`/proc`, `/sys`), Node's recursive mkdir makes the parent
 * again and retries, for ever (`sqlite:/proc/x/y.db` spun at 100 % CPU).
 */
export function makeDatabaseDir(file: string): void {
  const missing: string[] = [];
  // Up from the file's directory to the first thing that exists.
  for (let at = dirname(resolve(file)); ; at = dirname(at)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (error) {
      const code = codeOf(error);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(at) !== at) {
        missing.unshift(at);
        continue;
      }
      throw directoryError(file, at, error);
    }
    if (!isDirectory) throw directoryError(file, at, { code: 'ENOTDIR' });
    break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      // Made by another process in the meantime: as good.
      if (codeOf(error) === 'EEXIST' && isDirectoryNow(dir)) continue;
      throw directoryError(file, dir, error);
    }
  }
}

/** Why a directory could not be made or used, for the operator. */
const WHY: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is spent',
  ENOTDIR: 'a file, not a directory',
  EEXIST: 'a file, not a directory',
  ENOENT: 'the file system does not take a directory there',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

/** The `DatabaseFileError` of directory `dir` failing, on the way to the database `file`. */
function directoryError(file: string, dir: string, error: unknown): DatabaseFileError {
  const code = codeOf(error) ?? 'EIO';
  const why = WHY[code] ?? (error instanceof Error ? error.message : String(error));
  return new DatabaseFileError(
    file,
    `cannot make the directory of the database file ${file}: ${dir} (${code}: ${why}); set DATABASE_URL to a file in a directory this user can write, or create the directory`,
    { cause: error },
  );
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isDirectoryNow(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

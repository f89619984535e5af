import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openSqliteDatabase } from './sqlite-open-files.ts';

/** What a backup wrote. */
export interface BackupResult {
  /** Bytes of the copy. */
  bytes: number;
  /** Pages of the copy. */
  pages: number;
}

/** Largest page count one backup step may copy: all of them. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup, while
 * other connections and processes go on reading and writing it. The copy is made in one
 * backup step, which reads one snapshot of the database (in WAL mode writers are not
 * blocked, and the copy includes what is committed in the WAL): a backup in many small
 * steps restarts whenever another connection writes between two of them, and under steady
 * writes might never end. It is written to a temporary file beside `target` and renamed
 * over it when complete, so `target` is never a partial copy.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  const db = openSqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    const result = await db.backup(partial, { progress: () => ALL_PAGES });
    renameSync(partial, target);
    syncDirectory(dirname(target));
    return { bytes: statSync(target).size, pages: result.totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/** Makes a rename in `dir` durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What `salescrm backup` does (`backup.ts` declares it; imported when it runs). */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { parseDatabaseUrl } from '../store/database.ts';
import { backupSqlite } from '../store/sqlite-backup.ts';

/**
 * `salescrm backup FILE [--force]`: a consistent copy of the SQLite database, made while the
 * service serves (SQLite's online backup). Refuses an existing FILE unless `--force`; on
 * PostgreSQL says to use `pg_dump` and exits 2 (docs/operations.md).
 */
export async function runBackup(
  config: Config,
  file: string,
  values: { force?: boolean },
): Promise<number> {
  const location = parseDatabaseUrl(config.databaseUrl);
  if (location.dialect === 'postgres') {
    return refuse(
      'backup copies SQLite databases; back up PostgreSQL with pg_dump (docs/operations.md)',
      2,
    );
  }
  if (location.path === ':memory:')
    return refuse('an in-memory database has nothing to back up', 2);
  const source = resolve(location.path);
  const target = resolve(file);
  if (!existsSync(source)) return refuse(`no database at ${source}`);
  if (!existsSync(dirname(target))) return refuse(`no directory ${dirname(target)}`);
  if (existsSync(target)) {
    if (realpathSync(target) === realpathSync(source)) {
      return refuse(`${target} is the database itself`);
    }
    if (!values.force) return refuse(`${target} exists (--force replaces it)`);
  }
  const started = performance.now();
  let result: Awaited<ReturnType<typeof backupSqlite>>;
  try {
    result = await backupSqlite(source, target);
  } catch (error) {
    return refuse(`backup of ${source} failed: ${(error as Error).message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `backed up ${source} to ${target}: ${megabytes(result.bytes)} (${result.pages} pages) in ${seconds.toFixed(2)} s`,
  );
  return 0;
}

/** An operator's mistake: one line on standard error, and the exit code. */
function refuse(message: string, code = 1): number {
  console.error(`salescrm: ${message}`);
  return code;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

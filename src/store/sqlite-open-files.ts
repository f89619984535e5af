import { closeSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/**
 * The SQLite database files this process has connections to, and the plain descriptors it
 * keeps on them.
 *
 * A POSIX lock belongs to a process and a file, not to a descriptor: closing **any**
 * descriptor of a file releases **every** lock the process holds on it. SQLite's connections
 * hold a shared lock on the database file and locks on its `-shm` for as long as they are
 * open; that lock is how another process knows it is not the last connection, and the last
 * one checkpoints and deletes the `-wal` and `-shm` files as it closes. So a process that
 * opened and closed the database with plain file calls while one of its connections was
 * open would let any other program (the `sqlite3` shell, a backup tool) delete the WAL that
 * the server goes on writing into: acknowledged writes lost at the next crash
 * (docs/operations.md, "What may be done to a live database").
 *
 * The rule this module keeps: a plain descriptor on a database's files is closed only when
 * this process has no connection to the database any more, as SQLite does with its own;
 * and the one check that reads the file before opening it (`sqlite-file.ts`) runs only
 * while there is none. Connections are counted here when opened through
 * `openSqliteDatabase` on this thread; the other threads' connections (a store's
 * checkpointer, an import's writer, `serve`'s reader threads: each thread has its own copy
 * of this module) are not, so they must open after the store and close before it, and never
 * open the files otherwise.
 */
interface OpenFile {
  connections: number;
  /** Descriptors to close once `connections` is back to 0. */
  descriptors: number[];
}

const files = new Map<string, OpenFile>();

/** The file's identity (device and inode, which no path spelling changes), or undefined if absent. */
function identity(path: string): string | undefined {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/** True when this process has an open connection to the SQLite database at `path`. */
export function hasConnection(path: string): boolean {
  const key = identity(path);
  return key !== undefined && (files.get(key)?.connections ?? 0) > 0;
}

/**
 * Opens a connection to the SQLite database at `path` (`new SQLite(path, options)`), counted
 * until it closes: while any is open, the descriptors kept by `keepDescriptor` stay open.
 */
export function openSqliteDatabase(path: string, options?: SQLite.Options): SQLite.Database {
  const conn = new SQLite(path, options);
  if (path === ':memory:' || path === '') return conn;
  const key = identity(path);
  if (key === undefined) return conn;
  let file = files.get(key);
  if (!file) {
    file = { connections: 0, descriptors: [] };
    files.set(key, file);
  }
  file.connections++;
  const opened = file;
  const close = conn.close.bind(conn);
  let counted = true;
  conn.close = () => {
    const result = close();
    if (counted) {
      counted = false;
      opened.connections--;
      if (opened.connections === 0) {
        files.delete(key);
        for (const fd of opened.descriptors.splice(0)) closeQuietly(fd);
      }
    }
    return result;
  };
  return conn;
}

/**
 * Hands over `fd`, a plain descriptor on a file of the database at `path` (the database,
 * its `-wal` or its `-shm`): it is closed once this process has no connection to the
 * database, never before. Without any connection now, it is closed at once.
 */
export function keepDescriptor(path: string, fd: number): void {
  const key = identity(path);
  const file = key === undefined ? undefined : files.get(key);
  if (!file || file.connections === 0) {
    closeQuietly(fd);
    return;
  }
  file.descriptors.push(fd);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {}
}

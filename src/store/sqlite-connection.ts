import SQLite from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;

/** The page size of a new database file. */
export const PAGE_SIZE = 65_536;

/** WAL bytes after which a commit checkpoints; also what the WAL is truncated back to. */
const WAL_CHECKPOINT_BYTES = 16 * 1024 * 1024;

/** Opens a connection to the SQLite file at `path` with the store's settings for its role. */
export function openSqliteConnection(path: string, role: 'writer' | 'reader'): SQLite.Database {
  const conn = new SQLite(path);
  conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (role === 'writer') {
    // Large pages keep a list page's rendered records on a few contiguous pages (a new
    // database only: an existing one keeps the page size it was made with). They make each
    // write copy more bytes into the WAL: 4 KiB pages nearly halve a create's CPU, but a
    // cursor walk reads 1.4× slower on them (docs/benchmarks.md, the write path).
    conn.pragma(`page_size = ${PAGE_SIZE}`);
    conn.pragma('journal_mode = WAL');
    // FULL: each commit syncs the WAL before it is acknowledged. NORMAL syncs only at
    // checkpoints, so a power cut (not a process crash) could lose the last acknowledged
    // writes; FULL costs one fsync a write and loses none.
    conn.pragma('synchronous = FULL');
    // The WAL is checkpointed once it holds 16 MiB (in pages of the file's own size) and
    // truncated back to 16 MiB after a checkpoint that a long reader let grow past it: its
    // size stays bounded whatever the page size.
    const pageSize = Number(conn.pragma('page_size', { simple: true }));
    conn.pragma(`wal_autocheckpoint = ${Math.max(1, Math.ceil(WAL_CHECKPOINT_BYTES / pageSize))}`);
    conn.pragma(`journal_size_limit = ${WAL_CHECKPOINT_BYTES}`);
  }
  // A bounded page cache of its own, and no mmap: pages read through a memory map count in
  // the process's resident set, which a walk of a large workspace would fill with the whole
  // file; read through the OS page cache instead, a page costs one copy. The reader's cache
  // is the smaller: a walk reads each page once, and hot list pages are served rendered
  // from the server's own page cache; the writer keeps the index pages its writes touch.
  conn.pragma(`cache_size = ${role === 'writer' ? -65_536 : -16_384}`);
  conn.pragma('temp_store = MEMORY');
  return conn;
}

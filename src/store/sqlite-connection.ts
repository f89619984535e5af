import SQLite from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;

/** The page size of a new database file. */
export const PAGE_SIZE = 4096;

/** Opens a connection to the SQLite file at `path` with the store's settings for its role. */
export function openSqliteConnection(path: string, role: 'writer' | 'reader'): SQLite.Database {
  const conn = new SQLite(path);
  conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (role === 'writer') {
    // 4 KiB pages (a new database only: an existing one keeps the page size it was made
    // with until it is rebuilt by `VACUUM` outside WAL mode). A write copies every page it
    // touches into the WAL, and a checkpoint copies them back: with 64 KiB pages a person
    // create wrote ~16× the bytes, and the WAL reached 64 MB between checkpoints. A list
    // page's records read as fast from 4 KiB pages (docs/benchmarks.md, the write path).
    conn.pragma(`page_size = ${PAGE_SIZE}`);
    conn.pragma('journal_mode = WAL');
    // FULL: each commit syncs the WAL before it is acknowledged. NORMAL syncs only at
    // checkpoints, so a power cut (not a process crash) could lose the last acknowledged
    // writes; FULL costs one fsync a write and loses none.
    conn.pragma('synchronous = FULL');
    // The WAL is checkpointed every 1,000 pages (4 MB) and truncated back to 16 MiB after a
    // checkpoint that a long reader let grow past it: its size stays bounded.
    conn.pragma('wal_autocheckpoint = 1000');
    conn.pragma(`journal_size_limit = ${16 * 1024 * 1024}`);
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

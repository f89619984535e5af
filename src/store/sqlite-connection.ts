import SQLite from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;

/** Opens a connection to the SQLite file at `path` with the store's settings for its role. */
export function openSqliteConnection(path: string, role: 'writer' | 'reader'): SQLite.Database {
  const conn = new SQLite(path);
  conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (role === 'writer') {
    // Large pages keep a list page's rendered records on a few contiguous pages (a new
    // database only: an existing one keeps the page size it was made with).
    conn.pragma('page_size = 65536');
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = NORMAL');
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

import type SQLite from 'better-sqlite3';
import { openSqliteDatabase } from './sqlite-open-files.ts';

const BUSY_TIMEOUT_MS = 10_000;

/** The page size of a new database file. */
export const PAGE_SIZE = 16_384;

/**
 * WAL bytes (since the WAL last started over) from which the checkpointer thread copies them
 * into the database file (`sqlite-checkpointer.ts`), until all are and the WAL starts over.
 */
export const WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024;

/**
 * WAL bytes past which a commit checkpoints on the writer itself: only when the
 * checkpointer thread falls behind (or cannot run), so the WAL stays bounded regardless.
 */
const WAL_WRITER_CHECKPOINT_BYTES = 24 * 1024 * 1024;

/**
 * What a WAL file larger than this is truncated back to when it starts over: above the
 * writer's own checkpoint limit, which a steady writer's WAL reaches before it starts over
 * (the thread's checkpoints rarely find every frame copied between two commits), so that
 * the WAL is written again from its start over blocks the file system already holds. Cut
 * back to less, the file was cut and grown again every cycle, and the commits that grew it
 * were the slow ones (at 200 person creates a second, commits over 2 ms: 8–12 in 1,000
 * with 8 MiB kept, 1–4 with 32 MiB; p99 1.7–2.3 against 0.5–0.8 ms).
 */
export const WAL_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * Opens a connection to the SQLite file at `path` with the store's settings for its role.
 * A writer's commits sync the WAL themselves, unless `groupCommit`: then its owner syncs
 * the WAL before it acknowledges a write (`sqlite-wal-sync.ts`).
 */
export function openSqliteConnection(
  path: string,
  role: 'writer' | 'reader',
  { groupCommit = false }: { groupCommit?: boolean } = {},
): SQLite.Database {
  const conn = openSqliteDatabase(path);
  conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (role === 'writer') {
    // A new database only: an existing one keeps the page size it was made with. Each
    // write copies every page it touches into the WAL, so smaller pages make commits
    // cheaper (a person create's commit: 0.70 ms at 64 KiB, 0.38 at 16 KiB, 0.28 at 4 KiB);
    // larger ones keep a list page's rendered records on fewer pages (a cursor walk, in
    // process: 1.07× the 64 KiB time at 16 KiB, 1.2× at 8 KiB, 1.5× at 4 KiB). 16 KiB
    // takes most of the first and little of the second (docs/benchmarks.md, History).
    conn.pragma(`page_size = ${PAGE_SIZE}`);
    conn.pragma('journal_mode = WAL');
    // FULL: each commit syncs the WAL before it returns, one fsync a write on the thread
    // that commits. NORMAL syncs only at checkpoints, so a power cut (not a process crash)
    // could lose the last acknowledged writes, unless the owner syncs the WAL before it
    // acknowledges them, as the API's writer does (group commit, off the event loop).
    conn.pragma(groupCommit ? 'synchronous = NORMAL' : 'synchronous = FULL');
    // Checkpoints run on a thread of their own once the WAL holds 4 MiB, off the requests'
    // path; the writer checkpoints itself only past 24 MiB (in pages of the file's own
    // size), and a WAL that a long reader let grow is truncated back to 32 MiB when it
    // starts over: its size stays bounded whatever the page size.
    const pageSize = Number(conn.pragma('page_size', { simple: true }));
    const autocheckpoint = Math.max(1, Math.ceil(WAL_WRITER_CHECKPOINT_BYTES / pageSize));
    conn.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    conn.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
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

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer looks at the WAL's size. */
const INTERVAL_MS = 25;

/**
 * The checkpointer's thread, as plain JavaScript (a worker does not inherit the loader that
 * runs TypeScript). Every `intervalMs` it looks at the WAL's size and, past `walBytes`, runs
 * a passive checkpoint on a connection of its own: it copies committed pages back into the
 * database file without waiting for readers or blocking the writer, and the writer's next
 * transaction then starts the WAL over.
 */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 0');
db.pragma('cache_size = -2048');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const wal = workerData.path + '-wal';
const timer = setInterval(() => {
  let size = 0;
  try { size = statSync(wal).size; } catch { return; }
  if (size < workerData.walBytes) return;
  try { checkpoint.run(); } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A thread that checkpoints the WAL of a SQLite file, off the writer's path. */
export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Starts checkpointing the WAL of the SQLite file at `path` whenever it holds `walBytes` or
 * more. The thread does not keep the process alive.
 */
export function startCheckpointer(path: string, walBytes: number): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { path, walBytes, intervalMs: INTERVAL_MS, driver },
  });
  worker.unref();
  // A thread that cannot open the file ends; the writer's own checkpoints still bound the WAL.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Referenced again while it stops: else a process with nothing else to do would end
      // (exit 13 under a top-level await) before the thread has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

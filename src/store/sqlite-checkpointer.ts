import { openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { hasConnection, keepDescriptor } from './sqlite-open-files.ts';

/** How often the checkpointer looks at the WAL's size. */
const INTERVAL_MS = 25;

/**
 * The checkpointer's thread, as plain JavaScript (a worker does not inherit the loader that
 * runs TypeScript). Every `intervalMs` it reads how much the WAL holds since it last started
 * over and, from `walBytes` on, while any of it is not yet copied back, runs a passive
 * checkpoint on a connection of its own: it copies committed pages back into the database
 * file without waiting for readers or blocking the writer. Once every frame is copied, the
 * writer's next transaction starts the WAL over. Writes that commit while a checkpoint runs
 * are copied by the next one, a tick later: were the thread to wait for another `walBytes`
 * of them instead, the WAL could not start over until the writer's own limit.
 *
 * Both counts come from the WAL-index header at the start of the `-shm` file (SQLite's
 * documented WAL-index format, in the machine's byte order): `mxFrame` (the last committed
 * frame, at byte 16) and `nBackfill` (frames already copied back, at byte 96), in frames of
 * the page size at byte 14 plus their 24-byte headers. The WAL file's size says nothing of
 * this once the WAL has started over (SQLite writes it again from its start and keeps its
 * length), so it is the measure only while the index cannot be read. The thread reads the
 * `-shm` through a descriptor the store's thread opened and keeps until the process has no
 * connection to the database left (`sqlite-open-files.ts`): closing a descriptor of it here
 * would release the locks of every connection of the process on it.
 */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const { readSync, statSync } = require('node:fs');
const { endianness } = require('node:os');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 0');
db.pragma('cache_size = -2048');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const wal = workerData.path + '-wal';
const shmFd = workerData.shmFd;
const header = Buffer.alloc(100);
const little = endianness() === 'LE';
/** The bytes of the WAL's frames since it started over, or 0 once all are copied back. */
function walBytesToCopy() {
  if (shmFd === undefined) return undefined;
  try {
    if (readSync(shmFd, header, 0, 100, 0) < 100) return undefined;
  } catch {
    return undefined;
  }
  const pageField = little ? header.readUInt16LE(14) : header.readUInt16BE(14);
  const frame = (pageField === 1 ? 65536 : pageField) + 24;
  const last = little ? header.readUInt32LE(16) : header.readUInt32BE(16);
  const copied = little ? header.readUInt32LE(96) : header.readUInt32BE(96);
  return last > copied ? last * frame : 0;
}
function walFileBytes() {
  try { return statSync(wal).size; } catch { return 0; }
}
const timer = setInterval(() => {
  if ((walBytesToCopy() ?? walFileBytes()) < workerData.walBytes) return;
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
 * more and not all of it is copied back. The thread does not keep the process alive.
 */
export function startCheckpointer(path: string, walBytes: number): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const shmFd = openShm(path);
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { path, walBytes, intervalMs: INTERVAL_MS, driver, shmFd },
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

/**
 * A descriptor on the `-shm` of the database at `path`, closed only once this process has
 * no connection to the database (`keepDescriptor`); undefined when there is no `-shm` yet.
 * Call it while the store's connections are open.
 */
function openShm(path: string): number | undefined {
  if (!hasConnection(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(`${path}-shm`, 'r');
  } catch {
    return undefined;
  }
  keepDescriptor(path, fd);
  return fd;
}

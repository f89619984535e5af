import { once } from 'node:events';
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import type { Database } from '../model/tables.ts';
import type { Store } from './database.ts';

/** What the writer thread is asked, in the order asked. */
export type ThreadRequest =
  /** Runs `sql` once per row; nothing is answered (a failure is, by every call until a rollback). */
  | { t: 'batch'; sql: string; rows: unknown[][] }
  /** Runs `sql` once and answers: `prepare` tells whether it returns rows. */
  | { t: 'call'; sql: string; params: unknown[]; mode: 'prepare' | 'all' | 'run' }
  | { t: 'close' };

/** The answer to a call. */
export type CallReply =
  | { result: unknown }
  | { error: { message: string; code: string | undefined; name: string } };

/** What the worker starts with (besides its reply port). */
export interface WorkerData {
  path: string;
  /** Int32 flags: [0] a call is answered, [1] batches done, [2] the thread has stopped. */
  shared: SharedArrayBuffer;
}

/** `Atomics.waitAsync` (Node 16+; typed from lib ES2024 on, past this project's ES2023). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/** How long a caller waits at a time before it checks that the thread still runs. */
const CHECK_MS = 1_000;

/**
 * A SQLite write connection on a thread of its own, so that a bulk writer (an import) can
 * prepare rows on this thread while SQLite writes the ones before them on the other.
 *
 * Rows go by `post`, in batches that are not answered; `database` is a connection for Kysely
 * whose every statement runs on the thread after the batches posted before it, this thread
 * waiting for the answer (Kysely's SQLite driver is synchronous, as better-sqlite3 is). After
 * a batch fails, the batches after it are skipped and every statement but `rollback` throws
 * its error, so the transaction cannot commit without its rows.
 * Closing the thread rolls back a transaction left open; so does the process's death.
 */
export class SqliteWriterThread {
  /** Kysely's view of the thread's connection. */
  readonly database: SqliteDatabase;
  private readonly flags: Int32Array;
  private readonly replies: MessagePort;
  private readonly readers = new Map<string, boolean>();
  private posted = 0;
  private crashed: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    shared: SharedArrayBuffer,
    replies: MessagePort,
  ) {
    this.flags = new Int32Array(shared);
    this.replies = replies;
    worker.on('error', (error) => {
      this.crashed = error;
    });
    this.database = {
      close: () => {},
      prepare: (text: string) => {
        let reader = this.readers.get(text);
        if (reader === undefined) {
          reader = this.call(text, [], 'prepare') as boolean;
          this.readers.set(text, reader);
        }
        return {
          reader,
          all: (params) => this.call(text, params, 'all') as unknown[],
          run: (params) =>
            this.call(text, params, 'run') as { changes: number; lastInsertRowid: number },
          iterate: (params) => (this.call(text, params, 'all') as unknown[])[Symbol.iterator](),
        };
      },
    };
  }

  /**
   * Starts a thread with a write connection to the SQLite file at `path`, once the
   * connection is open (a file that cannot be opened rejects here).
   */
  static async start(path: string): Promise<SqliteWriterThread> {
    const shared = new SharedArrayBuffer(12);
    const { port1, port2 } = new MessageChannel();
    const workerData: WorkerData & { replies: MessagePort } = { path, shared, replies: port2 };
    const options = { workerData, transferList: [port2] };
    // From the sources (tsx, vitest) the worker is TypeScript: it registers tsx's loader in
    // its own thread first (a worker does not inherit the loader, nor take `--import`).
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
            '.then((tsx) => { tsx.register();' +
            ` return import(${JSON.stringify(new URL('./sqlite-thread-worker.ts', import.meta.url).href)}); })`,
          { ...options, eval: true },
        )
      : new Worker(new URL('./sqlite-thread-worker.js', import.meta.url), options);
    const thread = new SqliteWriterThread(worker, shared, port1);
    try {
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
        worker.once('exit', (code) =>
          reject(new Error(`the SQLite writer thread exited (${code})`)),
        );
      });
    } finally {
      worker.removeAllListeners('message').removeAllListeners('exit');
    }
    return thread;
  }

  /** Queues `rows` for `sql` (each row an array of its parameters). */
  post(sql: string, rows: unknown[][]): void {
    this.check();
    this.worker.postMessage({ t: 'batch', sql, rows } satisfies ThreadRequest);
    this.posted++;
  }

  /** Batches posted and not yet written. */
  get inFlight(): number {
    return this.posted - Atomics.load(this.flags, 1);
  }

  /** Waits until at most `max` batches are left to write. */
  async drain(max = 0): Promise<void> {
    for (;;) {
      this.check();
      const done = Atomics.load(this.flags, 1);
      if (this.posted - done <= max) return;
      const wait = waitAsync(this.flags, 1, done, CHECK_MS);
      if (wait.async) await wait.value;
    }
  }

  /** Runs one statement on the thread, after every batch posted before it; returns its result. */
  private call(text: string, params: readonly unknown[], mode: 'prepare' | 'all' | 'run'): unknown {
    this.check();
    Atomics.store(this.flags, 0, 0);
    this.worker.postMessage({
      t: 'call',
      sql: text,
      params: [...params],
      mode,
    } satisfies ThreadRequest);
    while (Atomics.wait(this.flags, 0, 0, CHECK_MS) === 'timed-out' || !this.answered()) {
      this.check();
    }
    const reply = receiveMessageOnPort(this.replies)?.message as CallReply | undefined;
    if (!reply) throw new Error('the SQLite writer thread did not answer');
    if ('error' in reply) {
      // Kept as SQLite's own error, so that its code (SQLITE_BUSY, ...) reads as any other's.
      const error = new SQLite.SqliteError(reply.error.message, reply.error.code ?? 'SQLITE_ERROR');
      if (reply.error.code === undefined) error.name = reply.error.name;
      throw error;
    }
    return mode === 'all' ? withBuffers(reply.result as Record<string, unknown>[]) : reply.result;
  }

  /** True when the last call is answered (and not woken by the thread's exit). */
  private answered(): boolean {
    return Atomics.load(this.flags, 0) === 1;
  }

  /** Throws if the thread has stopped (it says so itself as it exits; this thread may be blocked). */
  private check(): void {
    if (this.crashed) throw new Error('the SQLite writer thread failed', { cause: this.crashed });
    if (Atomics.load(this.flags, 2) !== 0 || this.worker.threadId === -1) {
      throw new Error('the SQLite writer thread stopped');
    }
  }

  /** Closes the connection (rolling back what was not committed) and ends the thread. */
  async close(): Promise<void> {
    if (this.worker.threadId === -1 || Atomics.load(this.flags, 2) !== 0) return;
    const exited = once(this.worker, 'exit');
    this.worker.postMessage({ t: 'close' } satisfies ThreadRequest);
    await exited;
    this.replies.close();
  }
}

/** Blob columns come back from the thread as `Uint8Array`s: made `Buffer`s, as on this thread. */
function withBuffers(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) {
    for (const key in row) {
      const v = row[key];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) {
        row[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      }
    }
  }
  return rows;
}

/**
 * `store` with its writes on `thread`: `db` and `transaction` run there, and `updateBodies`
 * posts its rows there. Reads through `reader` and `rows` stay on `store`'s connections.
 */
export function storeOnThread(store: Store, thread: SqliteWriterThread): Store {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: thread.database }) });
  return {
    ...store,
    db,
    async transaction(fn) {
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          // After SQLITE_FULL or SQLITE_IOERR SQLite has rolled back already: a failed
          // rollback must not hide the error that caused it.
          await sql`rollback`.execute(conn).catch(() => {});
          throw error;
        }
      });
    },
    updateBodies(table, workspaceId, entries) {
      thread.post(
        `update ${table} set body = cast(? as blob) where workspace_id = ? and id = ?`,
        entries.map(([id, json]) => [json, workspaceId, id]),
      );
    },
    runEach(text, rows) {
      thread.post(text, rows as unknown[][]);
    },
    async close() {
      await db.destroy();
      await thread.close();
    },
  };
}

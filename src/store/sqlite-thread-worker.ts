/**
 * The worker side of `SqliteWriterThread` (`sqlite-thread.ts`): one SQLite write connection,
 * taking requests in order from the thread that started it. A `batch` runs one statement per
 * row and counts itself done in shared memory; a `call` runs one statement and answers on
 * the reply port, then wakes the caller, which waits for it.
 */

import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-connection.ts';
import type { CallReply, ThreadRequest, WorkerData } from './sqlite-thread.ts';
import { cachedStatement } from './statement-cache.ts';

const { path, shared, replies } = workerData as WorkerData & { replies: MessagePort };
const flags = new Int32Array(shared);
const conn = openSqliteConnection(path, 'writer');
// However the thread ends, a caller waiting for an answer or a batch is woken to see it.
process.on('exit', () => {
  Atomics.store(flags, 2, 1);
  Atomics.notify(flags, 0);
  Atomics.notify(flags, 1);
});
const statements = new Map<string, SQLite.Statement>();
/**
 * The failure of a batch: until a `rollback`, later batches are skipped and every statement
 * answers with it, so a transaction that lost rows can never be committed.
 */
let failure: { error: unknown } | undefined;
const ROLLBACK = /^\s*rollback\b/i;

function statementOf(sql: string): SQLite.Statement {
  return cachedStatement(statements, sql, () => conn.prepare(sql));
}

/** A value as better-sqlite3 binds it: bytes that arrive as a `Uint8Array` bind as a blob. */
function bindable(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) {
      values[i] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return values;
}

function describe(error: unknown): CallReply {
  const e = error as { message?: unknown; code?: unknown; name?: unknown };
  return {
    error: {
      message: String(e?.message ?? error),
      code: typeof e?.code === 'string' ? e.code : undefined,
      name: typeof e?.name === 'string' ? e.name : 'Error',
    },
  };
}

function answer(request: Extract<ThreadRequest, { t: 'call' }>): CallReply {
  if (failure !== undefined) {
    if (!ROLLBACK.test(request.sql)) return describe(failure.error);
    failure = undefined;
  }
  try {
    const statement = statementOf(request.sql);
    const params = bindable(request.params);
    switch (request.mode) {
      case 'prepare':
        return { result: statement.reader };
      case 'all':
        return { result: statement.all(params) };
      case 'run': {
        const { changes, lastInsertRowid } = statement.run(params);
        return { result: { changes, lastInsertRowid } };
      }
    }
  } catch (error) {
    return describe(error);
  }
}

parentPort!.on('message', (request: ThreadRequest) => {
  switch (request.t) {
    case 'batch': {
      if (failure === undefined) {
        try {
          const statement = statementOf(request.sql);
          for (const row of request.rows) statement.run(bindable(row));
        } catch (error) {
          failure = { error };
        }
      }
      Atomics.add(flags, 1, 1);
      Atomics.notify(flags, 1);
      return;
    }
    case 'call': {
      replies.postMessage(answer(request));
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      return;
    }
    case 'close': {
      // A transaction still open is rolled back by closing. The thread ends at once (the
      // loader a thread from the sources registered would keep it alive).
      conn.close();
      process.exit(0);
    }
  }
});

parentPort!.postMessage('ready');

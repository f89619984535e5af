import { Worker } from 'node:worker_threads';
import { errorOf, type TransferredError } from '../http/error-transfer.ts';
import type { ReadTaskRunner } from '../http/route-deps.ts';

/** How long a thread that died before it was ready waits to be started again. */
const RESPAWN_AFTER_FAILED_START_MS = 1_000;

/** A task sent to a reader thread (a thread runs one at a time). */
export interface ReadJob {
  task: string;
  input: unknown;
}

/** A reader thread's answer to its job. */
export type ReadReply = { result: unknown } | { error: TransferredError };

interface Pending extends ReadJob {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job: Pending | undefined;
}

/**
 * Reader threads: reads that may take long (a search over a whole workspace) run here, each
 * on a thread with a connection of its own, so that the event loop only routes requests and
 * writes answers, and one workspace's search does not hold every other workspace's reads
 * (better-sqlite3's queries are synchronous: on the event loop a 1 s search stops the
 * server for 1 s). Jobs wait in one queue, oldest first, for the next free thread; a
 * workspace has at most a few in it at once (`workspace-gate.ts`). A thread that dies fails
 * its job with a 500 and is replaced; one that dies before it is ready (it cannot open the
 * database) fails the jobs waiting too, and is tried again a second later.
 */
export class ReadThreads implements ReadTaskRunner {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private closing = false;

  constructor(
    private readonly url: string,
    readonly size: number,
  ) {
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
  }

  /** Runs `task` with `input` on the next free thread; resolves with its answer. */
  run(task: string, input: unknown): Promise<unknown> {
    if (this.closing) return Promise.reject(new Error('the reader threads are closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, input, resolve, reject });
      this.next();
    });
  }

  /** Jobs waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Lets the jobs under way end, then closes every thread's connection and ends it. */
  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the reader threads are closed'));
    await Promise.all(
      this.threads.map(async (thread) => {
        let gone = false;
        const exited = new Promise<void>((resolve) =>
          thread.worker.once('exit', () => {
            gone = true;
            resolve();
          }),
        );
        thread.worker.ref();
        // The job under way answers, or its thread dies.
        if (thread.job) {
          const answered = new Promise<void>((resolve) =>
            thread.worker.once('message', () => resolve()),
          );
          await Promise.race([answered, exited]);
        }
        if (!gone) thread.worker.postMessage('close');
        await exited;
      }),
    );
  }

  private spawn(): Thread {
    const workerData = { url: this.url };
    // From the sources (tsx, vitest) the worker is TypeScript: it registers tsx's loader in
    // its own thread first (a worker does not inherit the loader, nor take `--import`).
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
            '.then((tsx) => { tsx.register();' +
            ` return import(${JSON.stringify(new URL('./read-thread-worker.ts', import.meta.url).href)}); })`,
          { workerData, eval: true },
        )
      : new Worker(new URL('./read-thread-worker.js', import.meta.url), { workerData });
    worker.unref();
    const thread: Thread = { worker, ready: false, job: undefined };
    worker.on('message', (message: ReadReply | 'ready') => {
      if (message === 'ready') {
        thread.ready = true;
        this.next();
        return;
      }
      const job = thread.job;
      thread.job = undefined;
      if (job) {
        if ('error' in message) job.reject(errorOf(message.error));
        else job.resolve(message.result);
      }
      this.next();
    });
    const died = (error: unknown) => {
      const at = this.threads.indexOf(thread);
      if (at === -1) return;
      this.threads.splice(at, 1);
      const failure =
        error instanceof Error ? error : new Error(`a reader thread exited (${String(error)})`);
      thread.job?.reject(failure);
      thread.job = undefined;
      if (this.closing) return;
      if (thread.ready) {
        this.threads.push(this.spawn());
        this.next();
        return;
      }
      // It died opening the database (a file it cannot read): the jobs waiting would wait for
      // ever, and a thread started again at once would die again at once, in a loop. They fail
      // now (a 500 each), and the thread is tried again a second later.
      for (const job of this.queue.splice(0)) job.reject(failure);
      setTimeout(() => {
        if (this.closing) return;
        this.threads.push(this.spawn());
        this.next();
      }, RESPAWN_AFTER_FAILED_START_MS).unref();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(code));
    return thread;
  }

  /** Hands the oldest waiting job to a free thread, while there are both. */
  private next(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (!thread.ready || thread.job) continue;
      const job = this.queue.shift()!;
      thread.job = job;
      thread.worker.postMessage({ task: job.task, input: job.input } satisfies ReadJob);
    }
  }
}

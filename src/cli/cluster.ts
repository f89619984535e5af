import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once its server listens. */
export interface ListeningMessage {
  salescrm: 'listening';
  address: string;
}

/** Options of the primary process of `serve --workers N`. */
export interface PrimaryOptions {
  workers: number;
  /** How long workers get to finish in-flight requests after SIGTERM, before SIGKILL. */
  graceMs: number;
  /** Settings the workers get beside this process's environment. */
  env?: Record<string, string>;
  /** Called once, when every first worker listens. */
  onListening(address: string, pids: number[]): void;
}

/**
 * A worker that listened and then lived at least this long was healthy: its death starts a
 * new backoff. One that never listened was never healthy, however long it took to fail.
 */
const HEALTHY_MS = 10_000;
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 10_000;
/** Workers that die before ever listening, in a row, after which the primary gives up. */
const MAX_FAILED_STARTS = 5;

/** Tells the primary (if this is a worker of one) that the server listens at `address`. */
export function reportListening(address: string): void {
  if (cluster.isWorker) process.send?.({ salescrm: 'listening', address } as ListeningMessage);
}

/**
 * The primary of `serve --workers N`: forks N workers that share one port (the same
 * CLI command runs in each), restarts a worker that dies (after a delay that doubles
 * while workers keep dying young, so a broken deployment does not spin), forwards
 * SIGTERM and SIGINT, and resolves with 0 once every worker has stopped (1 when one had
 * to be killed, or when workers kept failing before they could listen).
 */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  const startedAt = new Map<Worker, number>();
  const listenedAt = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const timers = new Set<NodeJS.Timeout>();
  let announced = false;
  let stopping = false;
  let failedStarts = 0;
  let quickDeaths = 0;
  let exitCode = 0;

  return new Promise<number>((resolve) => {
    const fork = () => {
      const worker = cluster.fork(options.env);
      startedAt.set(worker, Date.now());
      worker.on('message', (message: ListeningMessage) => {
        if (message?.salescrm !== 'listening') return;
        listening.add(worker);
        listenedAt.set(worker, Date.now());
        failedStarts = 0;
        console.log(`worker ${worker.process.pid} is ready`);
        if (!announced && listening.size === options.workers) {
          announced = true;
          options.onListening(
            message.address,
            [...listening].map((w) => w.process.pid ?? 0),
          );
        }
      });
    };

    const alive = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);

    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      console.error(`salescrm: ${signal}: stopping ${alive().length} workers`);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const worker of alive()) worker.process.kill('SIGTERM');
      // Workers bound their own grace period; this only catches one that hangs.
      const kill = setTimeout(() => {
        for (const worker of alive()) {
          console.error(`salescrm: worker ${worker.process.pid} did not stop; killing it`);
          exitCode = 1;
          worker.process.kill('SIGKILL');
        }
      }, options.graceMs + 5_000);
      kill.unref();
      if (alive().length === 0) resolve(exitCode);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));

    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
      const wasListening = listening.delete(worker);
      const servedFor = Date.now() - (listenedAt.get(worker) ?? Date.now());
      startedAt.delete(worker);
      listenedAt.delete(worker);
      if (stopping) {
        if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') exitCode = 1;
        if (alive().length === 0) resolve(exitCode);
        return;
      }
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!wasListening) failedStarts += 1;
      if (failedStarts >= MAX_FAILED_STARTS) {
        console.error(
          `salescrm: ${failedStarts} workers in a row exited (${how}) before they could listen; giving up`,
        );
        exitCode = 1;
        stop('SIGTERM');
        return;
      }
      quickDeaths = wasListening && servedFor >= HEALTHY_MS ? 0 : quickDeaths + 1;
      const delay = Math.min(FIRST_DELAY_MS * 2 ** quickDeaths, MAX_DELAY_MS);
      console.error(
        `salescrm: worker ${worker.process.pid} exited (${how}) after ${lived} ms; starting another in ${delay} ms`,
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) fork();
      }, delay);
      timers.add(timer);
    });

    for (let i = 0; i < options.workers; i++) fork();
  });
}

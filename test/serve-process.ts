import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { START_MS } from './budgets.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

/** A `salescrm serve` process of a test, on a free port of 127.0.0.1. */
export interface ServeProcess {
  child: ChildProcess;
  /** The API's base URL, as the process printed it. */
  url: string;
  /** Its standard output and error so far. */
  out(): string;
  err(): string;
  /** SIGTERM, and resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGKILL, and resolves once it has exited. */
  kill(): Promise<void>;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Starts `salescrm serve --port 0` on a database in a process of its own (a client and
 * a server in one process share one event loop, which hides what sockets do between them),
 * with the webhook dispatcher, the rate limit and load shedding off unless `env` says otherwise
 * (`args`: more options of `serve`, such as `--workers`).
 */
export async function startServe(
  databaseUrl: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...salescrmArgs(), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      OVERLOAD_DELAY_MS: '0',
      WEBHOOK_DISPATCH: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start:\n${out}\n${err}`)),
      START_MS,
    );
    const look = () => {
      const m = /salescrm is listening on (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      resolve(m[1]!);
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}\n${err}`));
    });
  });
  return {
    child,
    url,
    out: () => out,
    err: () => err,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

// `npm start` (and an `example:*` script) is one process under npm: a SIGTERM to npm's own
// process (what a supervisor or a terminal sends) stops it, frees the port, and leaves no
// process behind.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
// Made when the file runs, not when it is declared: a skipped file leaves nothing behind.
let dir: string;
const started: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-npm-start-'));
});
afterAll(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on just now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** True when something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process under `pid`, children first found first. */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const rows = out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Runs `npm ARGS` with `env` until its output matches `ready`; the child and its output so far. */
async function npmUntil(args: string[], env: Record<string, string>, ready: RegExp) {
  const npm = spawn('npm', args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm.pid!);
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  let out = '';
  npm.stdout!.on('data', (d) => {
    out += d;
  });
  npm.stderr!.on('data', (d) => {
    out += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (ready.test(out)) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    npm.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`npm ${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
  return { npm, exited, out };
}

/** SIGTERM to npm's own process: every process under it ends and `port` is free again. */
async function stopsOnSigterm(
  run: Awaited<ReturnType<typeof npmUntil>>,
  port: number,
): Promise<void> {
  const tree = descendants(run.npm.pid!);
  started.push(...tree);
  expect(tree.length).toBeGreaterThan(0);

  run.npm.kill('SIGTERM');
  await run.exited;
  const deadline = Date.now() + 15_000;
  while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(tree.filter(alive)).toEqual([]);
  expect(await listening(port)).toBe(false);
}

it('stops the server and frees the port on SIGTERM to npm', async () => {
  const port = await freePort();
  const run = await npmUntil(
    ['start'],
    {
      DATABASE_URL: `sqlite:${join(dir, 'start.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    /token: scrm_/,
  );
  // What the README promises: the URL and a token.
  expect(run.out).toContain(`salescrm is listening on http://127.0.0.1:${port}`);
  expect(await listening(port)).toBe(true);
  await stopsOnSigterm(run, port);
}, 120_000);

// The example scripts run their node process in npm's place too (`exec`), as `start` does.
it('stops an example (the webhook receiver) and frees its port on SIGTERM to npm', async () => {
  const port = await freePort();
  const run = await npmUntil(
    ['run', '-s', 'example:webhook-receiver'],
    { PORT: String(port), HOST: '127.0.0.1' },
    /listening on /,
  );
  expect(await listening(port)).toBe(true);
  await stopsOnSigterm(run, port);
}, 60_000);

/** `salescrm events`: the feed as NDJSON from the command line, and `--follow`. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/database.ts';
import { START_MS } from './budgets.ts';
import { makePerson } from './factories.ts';
import { type TestWorkspace, testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

/** Resolves once `check` holds, looking every 50 ms; fails after `ms` with `why()`. */
async function until(check: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(why());
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A test starts up to two processes, each within START_MS (seconds on a loaded machine).
describe('salescrm events', { timeout: 3 * START_MS }, () => {
  let dir: string;
  let url: string;
  let store: Store;
  let ws: TestWorkspace;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-events-'));
    url = `sqlite:${join(dir, 'events.db')}`;
    store = openStore(url);
    await store.migrate();
    ws = await testWorkspace(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [...salescrmArgs(), ...args],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, timeout: START_MS },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('prints every event as a line of NDJSON, from a number on', async () => {
    await ws.write((w) => makePerson(w, { name: '첫째' }));
    await ws.write((w) => makePerson(w, { name: '둘째' }));
    const all = await run(['events', '--workspace', ws.workspaceId]);
    expect(all.code, all.stderr).toBe(0);
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => [e.seq, e.event, e.objectType])).toEqual([
      [1, '생성', '고객'],
      [2, '생성', '고객'],
    ]);
    const later = await run(['events', '--workspace', ws.workspaceId, '--after', '1']);
    expect(
      later.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
    ).toEqual([2]);
  });

  it('refuses an unknown workspace or object type in one line', async () => {
    const unknown = await run(['events', '--workspace', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const bad = await run(['events', '--workspace', ws.workspaceId, '--object-type', 'x']);
    expect(bad.code).toBe(2);
  });

  it('--follow prints events as they commit, and stops on SIGTERM', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        ...salescrmArgs(),
        'events',
        '--workspace',
        ws.workspaceId,
        '--follow',
        '--after',
        '1',
        '--interval-ms',
        '50',
      ],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } },
    );
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const lineCount = () => out.split('\n').length - 1;
    // It has started and read what there was (event 2) once it prints it: then the write.
    await until(
      () => lineCount() >= 1 || child.exitCode !== null,
      START_MS,
      () => `no event printed: ${out}`,
    );
    await ws.write((w) => makePerson(w, { name: '셋째' }));
    await until(
      () => lineCount() >= 2 || child.exitCode !== null,
      START_MS,
      () => `the new event was not printed: ${out}`,
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => [e.seq, e.event])).toEqual([
      [2, '생성'],
      [3, '생성'],
    ]);
  });
});

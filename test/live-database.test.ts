// What others may do to a live SQLite database: while `salescrm serve` writes it, other
// processes open it with SQLite, read and close it (the `sqlite3` shell, a script, `salescrm
// export`, `backup`, `verify`, a second `serve`). None of them may take the WAL from under
// the server: had the server lost its locks on the file, the first of them to close would
// believe itself the last connection, checkpoint and delete the `-wal` the server goes on
// writing into, and a SIGKILL would then lose every write since (docs/operations.md).

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/database.ts';
import { testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';
import { type ServeProcess, startServe } from './serve-process.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
/** Clients creating people at once, over all servers. */
const WRITERS = 4;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-live-db-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated database file with one workspace. */
async function database(name: string): Promise<{ file: string; token: string; id: string }> {
  const file = join(dir, `${name}.db`);
  const store = openStore(`sqlite:${file}`);
  await store.migrate();
  const { token, workspaceId } = await testWorkspace(store, '잠금 테스트');
  await store.close();
  return { file, token, id: workspaceId };
}

/** Another process that opens the database with SQLite, reads a count and closes it. */
async function readAndClose(file: string): Promise<number> {
  const script = `const S = require('better-sqlite3');
const db = new S(process.argv[1]);
const n = db.prepare('select count(*) from people').pluck().get();
db.close();
console.log(n);`;
  const { stdout } = await run(process.execPath, ['-e', script, file], { cwd: ROOT });
  return Number(stdout.trim());
}

/** `salescrm ARGS` on the file, in a process of its own; fails the test unless it exits 0. */
async function cli(file: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...salescrmArgs(), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent' },
    timeout: 120_000,
  });
  return stdout;
}

/** The byte ranges a process holds POSIX locks on, for the file at `path`. */
function locksOf(pid: number, path: string): string[] {
  const inode = statSync(path).ino;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((line) => {
      const f = line.trim().split(/\s+/);
      return Number(f[4]) === pid && Number(f[5]?.split(':')[2]) === inode;
    });
}

/**
 * Writers creating people through `servers` (round robin) until `act` has run: every person
 * answered 201 is acknowledged. Meanwhile the `-wal` must keep its inode.
 */
async function writeWhile(
  servers: ServeProcess[],
  token: string,
  wal: string,
  act: () => Promise<void>,
): Promise<string[]> {
  const acknowledged: string[] = [];
  let done = false;
  let n = 0;
  const writer = async (w: number) => {
    const server = servers[w % servers.length]!;
    while (!done) {
      const res = await fetch(`${server.url}/v2/people`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `잠금 ${++n}` }),
      });
      const body = (await res.json()) as { data?: { people?: { id: string } } };
      expect(res.status, JSON.stringify(body)).toBe(201);
      acknowledged.push(body.data!.people!.id);
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  // Writes are flowing, so the WAL is there, before the other process starts.
  while (acknowledged.length < WRITERS) await new Promise((r) => setTimeout(r, 5));
  const inode = statSync(wal).ino;
  try {
    await act();
  } finally {
    done = true;
    await Promise.all(writers);
  }
  expect(statSync(wal).ino, 'the -wal was deleted and made anew').toBe(inode);
  return acknowledged;
}

/** After a SIGKILL of every server: the file opens intact with every acknowledged person. */
function expectAllThere(file: string, workspaceId: string, acknowledged: string[]): void {
  const db = new SQLite(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const people = new Set(
      db.prepare('select id from people where workspace_id = ?').pluck().all(workspaceId),
    );
    expect(acknowledged.filter((id) => !people.has(id))).toEqual([]);
  } finally {
    db.close();
  }
}

describe('a live SQLite database opened by other processes', { timeout: 180_000 }, () => {
  it('keeps its lock on the database file while serving, and its WAL through 20 other readers', async () => {
    const { file, token, id } = await database('readers');
    const server = await startServe(`sqlite:${file}`);
    try {
      // The shared lock every connection holds on the file while it is open.
      expect(locksOf(server.child.pid!, file).length).toBeGreaterThan(0);
      let counted = 0;
      const acknowledged = await writeWhile([server], token, `${file}-wal`, async () => {
        for (let i = 0; i < 20; i++) counted = await readAndClose(file);
      });
      expect(counted).toBeGreaterThan(0);
      expect(locksOf(server.child.pid!, file).length).toBeGreaterThan(0);
      await server.kill();
      expectAllThere(file, id, acknowledged);
    } finally {
      await server.kill();
    }
  });

  it('loses nothing to export, backup and verify run beside serve', async () => {
    const { file, token, id } = await database('commands');
    const server = await startServe(`sqlite:${file}`);
    try {
      const copy = join(dir, 'commands-copy.db');
      const acknowledged = await writeWhile([server], token, `${file}-wal`, async () => {
        const exported = await cli(file, ['export', '--workspace', id, '--quiet']);
        expect(exported).toContain('잠금 ');
        await cli(file, ['backup', copy, '--force']);
        await cli(file, ['verify', '--workspace', id]);
      });
      expect(locksOf(server.child.pid!, file).length).toBeGreaterThan(0);
      await server.kill();
      expectAllThere(file, id, acknowledged);
      expectAllThere(copy, id, []);
    } finally {
      await server.kill();
    }
  });

  it('loses nothing with two serve processes on one file', async () => {
    const { file, token, id } = await database('two-servers');
    const servers = [await startServe(`sqlite:${file}`), await startServe(`sqlite:${file}`)];
    try {
      const acknowledged = await writeWhile(servers, token, `${file}-wal`, async () => {
        for (let i = 0; i < 5; i++) await readAndClose(file);
      });
      for (const server of servers) {
        expect(locksOf(server.child.pid!, file).length).toBeGreaterThan(0);
      }
      await Promise.all(servers.map((s) => s.kill()));
      expectAllThere(file, id, acknowledged);
    } finally {
      await Promise.all(servers.map((s) => s.kill()));
    }
  });
});

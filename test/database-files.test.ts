// A SQLite file the service cannot use stops `salescrm serve` with one line naming the file,
// what is wrong and what to do, and exit code 1: a file that is not a database, a truncated
// database, and a database that reads but cannot be written (which used to start, report
// ready, serve reads and answer 500 to every write).

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/database.ts';
import { databaseFileError } from '../src/store/sqlite-file.ts';
import { testWorkspace } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

const ROOT = join(import.meta.dirname, '..');

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-files-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `salescrm serve` on `file`: its exit code and what it wrote to stderr. */
function serve(file: string) {
  const result = spawnSync(process.execPath, [...salescrmArgs(), 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stderr: result.stderr, stdout: result.stdout };
}

/** A migrated database with a workspace, at `file`. */
async function database(file: string): Promise<void> {
  const store = openStore(`sqlite:${file}`);
  await store.migrate();
  await testWorkspace(store);
  await store.close();
}

function expectOneLine(stderr: string, file: string, advice: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toContain(`salescrm: ${file} `);
  expect(lines[0]).toMatch(advice);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('salescrm serve on a bad database file', () => {
  it('that is not a database: one line, exit 1', () => {
    const file = join(dir, 'notes.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const { code, stderr } = serve(file);
    expect(code).toBe(1);
    expectOneLine(stderr, file, /is not a salescrm database .*restore this one from a backup/);
  });

  it('that is truncated: one line, exit 1', async () => {
    const file = join(dir, 'truncated.db');
    await database(file);
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 3)));
    const { code, stderr } = serve(file);
    expect(code).toBe(1);
    expectOneLine(stderr, file, /is damaged.*: restore it from a backup$/);
  });
});

/**
 * A directory whose files read but cannot be written, even by root: a tmpfs mounted
 * read-only (root ignores file permissions); as another user, permissions do it.
 */
function readOnlyDirectory(fill: (dir: string) => void): { dir: string; release(): void } | string {
  const target = join(dir, 'read-only');
  mkdirSync(target);
  if (process.getuid?.() !== 0) {
    fill(target);
    spawnSync('chmod', ['-R', 'a-w', target]);
    return { dir: target, release: () => spawnSync('chmod', ['-R', 'u+w', target]) };
  }
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', target]);
  if (mounted.status !== 0) return `cannot mount a tmpfs as root: ${mounted.stderr}`;
  fill(target);
  const ro = spawnSync('mount', ['-o', 'remount,ro', target]);
  if (ro.status !== 0) {
    spawnSync('umount', [target]);
    return `cannot remount read-only: ${ro.stderr}`;
  }
  return { dir: target, release: () => spawnSync('umount', [target]) };
}

describe('salescrm serve on a database it cannot write', () => {
  it('refuses to start: one line, exit 1', async () => {
    const source = join(dir, 'source.db');
    await database(source);
    // With its -wal and -shm files, as a server that stopped left them: SQLite then opens
    // the read-only file and reads it, and only a write fails.
    const store = openStore(`sqlite:${source}`);
    await store.migrate();
    const place = readOnlyDirectory((target) => {
      for (const suffix of ['', '-wal', '-shm']) {
        copyFileSync(`${source}${suffix}`, join(target, `crm.db${suffix}`));
      }
    });
    await store.close();
    if (typeof place === 'string') {
      console.warn(`\n!!! SKIPPED the read-only database case: ${place}\n`);
      return;
    }
    try {
      const file = join(place.dir, 'crm.db');
      const { code, stderr, stdout } = serve(file);
      expect(stdout).not.toContain('listening');
      expect(code).toBe(1);
      expectOneLine(stderr, file, /cannot be written .*check the permissions/);
    } finally {
      place.release();
    }
  });

  it('says what to do for every way SQLite says it cannot write', () => {
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_CANTOPEN']) {
      const error = Object.assign(new Error('attempt to write a readonly database'), { code });
      expect(databaseFileError('/data/crm.db', error)?.message).toMatch(
        /^\/data\/crm\.db cannot be written \(SQLite: .*\): check the permissions/,
      );
    }
    expect(databaseFileError('/data/crm.db', new Error('a bug'))).toBeUndefined();
  });
});

/**
 * Backup and restore (docs/operations.md): `salescrm backup` copies an SQLite database
 * while the API writes to it, and the copy is one consistent moment of the original; on
 * PostgreSQL, `pg_dump` and `pg_restore` give a database whose API answers as the original's.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { backupSqlite } from '../src/store/sqlite-backup.ts';
import { get, post, TEST_DIALECT, testApp, testStore } from './helpers.ts';
import { databaseUrl, ident, testServerUrl, withAdmin } from './postgres.ts';
import { salescrmArgs } from './salescrm-command.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

const ROOT = join(import.meta.dirname, '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in a child process on `url`. */
function cli(url: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs a program, failing on a non-zero exit. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: 120_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${program}: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** Every record of a list endpoint, walked page by page, as JSON text by id. */
async function records(app: FastifyInstance, token: string, url: string, key: string) {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const res = await get(
      app,
      token,
      cursor ? `${url}?limit=100&cursor=${cursor}` : `${url}?limit=100`,
    );
    expect(res.status, res.text).toBe(200);
    for (const r of res.json.data[key]) out.set(r.id, JSON.stringify(r));
    cursor = res.json.data.nextCursor;
  } while (cursor);
  return out;
}

/** The list pages of `url` in two apps, the same bytes page by page. */
async function samePages(apps: [FastifyInstance, FastifyInstance], token: string, url: string) {
  let cursor: string | null = null;
  let pages = 0;
  do {
    const at = cursor ? `${url}?cursor=${cursor}` : url;
    const a = await get(apps[0], token, at);
    const b = await get(apps[1], token, at);
    expect(a.status, a.text).toBe(200);
    expect(b.text, at).toBe(a.text);
    cursor = a.json.data.nextCursor;
    pages++;
  } while (cursor);
  return pages;
}

const LISTS = [
  ['/v2/people', 'peopleList'],
  ['/v2/organization', 'organizationList'],
  ['/v2/deal', 'dealList'],
  ['/v2/lead', 'leadList'],
  ['/v2/product', 'productList'],
] as const;

describe.runIf(TEST_DIALECT === 'sqlite')('salescrm backup (SQLite)', { timeout: 180_000 }, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let workspaceId: string;
  let token: string;

  beforeAll(async () => {
    store = await testStore();
    const demo = await createDemoWorkspace(store, { seed: 9, people: 300 });
    workspaceId = demo.workspaceId;
    token = demo.token;
    app = await testApp(store);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const dir = () => dirname(store.path);

  it('copies the database while the API writes: the copy is whole and one moment of the original', async () => {
    // Writes, one after another: odd k creates person `wk`, even k renames person X `xk`,
    // each X seen afterwards through the API (its JSON at that moment).
    const x = await post(app, token, '/v2/people', { name: 'x0' });
    expect(x.status, x.text).toBe(201);
    const xId = x.json.data.people.id as string;
    const xAt = new Map<number, string>();
    let k = 0;
    let stop = false;
    let backupRunning = false;
    let writesDuringBackup = 0;
    const writer = (async () => {
      while (!stop) {
        k++;
        if (k % 2 === 1) {
          const res = await post(app, token, '/v2/people', { name: `w${k}` });
          expect(res.status, res.text).toBe(201);
        } else {
          const res = await post(app, token, `/v2/people/${xId}`, { name: `x${k}` });
          expect(res.status, res.text).toBe(200);
          const now = await get(app, token, `/v2/people/${xId}`);
          xAt.set(k, JSON.stringify(now.json.data.people[0]));
        }
        if (backupRunning) writesDuringBackup++;
      }
    })();
    while (k < 20) await new Promise((r) => setTimeout(r, 10));
    const copy = join(dir(), 'live-copy.db');
    backupRunning = true;
    const backup = await cli(store.url, ['backup', copy]);
    backupRunning = false;
    const after = k;
    while (k < after + 10) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(
      /^backed up .*test\.db to .*live-copy\.db: \d+\.\d MiB \(\d+ pages\) in \d+\.\d\d s\n$/,
    );
    expect(writesDuringBackup).toBeGreaterThan(0);

    const raw = new SQLite(copy, { readonly: true });
    expect(raw.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    raw.close();
    const copied = openStore(`sqlite:${copy}`);
    const copyApp = await testApp(copied);
    try {
      const people = await records(copyApp, token, '/v2/people', 'peopleList');
      const original = await records(app, token, '/v2/people', 'peopleList');
      // The writes the copy holds are a prefix of them all: w1, w3, ... wK, and X as the
      // write just before or after wK left it.
      const written = [...people.values()]
        .map((r) => JSON.parse(r).이름 as string)
        .filter((name) => /^w\d+$/.test(name))
        .map((name) => Number(name.slice(1)))
        .sort((a, b) => a - b);
      const K = written[written.length - 1]!;
      expect(K).toBeGreaterThanOrEqual(19);
      expect(K).toBeLessThan(k);
      expect(written).toEqual(Array.from({ length: (K + 1) / 2 }, (_, i) => 2 * i + 1));
      const xCopy = people.get(xId)!;
      const at = Number(JSON.parse(xCopy).이름.slice(1));
      expect([K - 1, K + 1]).toContain(at);
      expect(xCopy).toBe(xAt.get(at));
      // Every other record is as the original has it still (nothing wrote to it since).
      for (const [id, json] of people) if (id !== xId) expect(json, id).toBe(original.get(id));
      for (const [url, key] of LISTS.slice(1)) {
        expect(await records(copyApp, token, url, key)).toEqual(
          await records(app, token, url, key),
        );
      }
      expect((await verifyWorkspace(copied, workspaceId)).differences).toBe(0);
    } finally {
      await copyApp.close();
      await copied.close();
    }
  });

  it('copies an idle database page for page', async () => {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    const copy = join(dir(), 'idle-copy.db');
    const result = await backupSqlite(store.path, copy);
    const a = new SQLite(store.path, { readonly: true });
    const b = new SQLite(copy, { readonly: true });
    try {
      for (const pragma of ['page_size', 'page_count', 'freelist_count', 'user_version']) {
        expect(b.pragma(pragma, { simple: true }), pragma).toBe(a.pragma(pragma, { simple: true }));
      }
      expect(b.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const pageSize = Number(a.pragma('page_size', { simple: true }));
      const pages = Number(a.pragma('page_count', { simple: true }));
      expect(result.pages).toBe(pages);
      const source = readFileSync(store.path);
      const target = readFileSync(copy);
      expect(target.length).toBe(pages * pageSize);
      expect(source.length).toBe(target.length);
      // The header's change counter (bytes 24–27), schema cookie (40–43: a backup moves it,
      // so that connections to the copy read its schema again) and the version they are
      // valid for (92–99) are the copy's own; every other byte of every page is the original's.
      const header = (f: Buffer) =>
        Buffer.concat([
          f.subarray(0, 24),
          f.subarray(28, 40),
          f.subarray(44, 92),
          f.subarray(100, pageSize),
        ]);
      expect(header(target).equals(header(source))).toBe(true);
      for (let page = 1; page < pages; page++) {
        const at = page * pageSize;
        const same = source.subarray(at, at + pageSize).equals(target.subarray(at, at + pageSize));
        expect(same, `page ${page + 1}`).toBe(true);
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('refuses to overwrite a file unless --force, and other mistakes, in one line', async () => {
    const file = join(dir(), 'exists.db');
    writeFileSync(file, 'keep me');
    const refused = await cli(store.url, ['backup', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`salescrm: ${file} exists (--force replaces it)\n`);
    expect(readFileSync(file, 'utf8')).toBe('keep me');

    const forced = await cli(store.url, ['backup', file, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const raw = new SQLite(file, { readonly: true });
    expect(raw.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    raw.close();

    const itself = await cli(store.url, ['backup', store.path, '--force']);
    expect(itself.code).toBe(1);
    expect(itself.stderr).toBe(`salescrm: ${store.path} is the database itself\n`);

    const noDir = await cli(store.url, ['backup', join(dir(), 'nowhere', 'x.db')]);
    expect(noDir.code).toBe(1);
    expect(noDir.stderr).toBe(`salescrm: no directory ${join(dir(), 'nowhere')}\n`);

    const noDb = await cli(`sqlite:${join(dir(), 'missing.db')}`, ['backup', join(dir(), 'y.db')]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toBe(`salescrm: no database at ${join(dir(), 'missing.db')}\n`);

    const text = join(dir(), 'not-a-database.db');
    writeFileSync(text, 'x'.repeat(4096));
    const notDb = await cli(`sqlite:${text}`, ['backup', join(dir(), 'z.db')]);
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toMatch(/^salescrm: backup of .*not-a-database\.db failed: [^\n]+\n$/);
    expect(existsSync(join(dir(), 'z.db'))).toBe(false);
    expect(readdirSync(dir()).filter((f) => f.includes('partial'))).toEqual([]);

    const usage = await cli(store.url, ['backup']);
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe("salescrm: missing required argument 'FILE'");
  });
});

describe.runIf(TEST_DIALECT === 'postgres')(
  'backup and restore (PostgreSQL)',
  { timeout: 180_000 },
  () => {
    let store: TestStore;
    let restored: Store | undefined;
    let restoredName: string;
    let workspaceId: string;
    let token: string;

    beforeAll(async () => {
      store = await testStore();
      const demo = await createDemoWorkspace(store, { seed: 9, people: 120 });
      workspaceId = demo.workspaceId;
      token = demo.token;
    }, 120_000);

    afterAll(async () => {
      await restored?.close();
      if (restoredName) {
        await withAdmin(testServerUrl(), (c) =>
          c.query(`drop database if exists ${ident(restoredName)} with (force)`),
        );
      }
      await store?.dispose();
    });

    it('salescrm backup says to use pg_dump, in one line, exit 2', async () => {
      const res = await cli(store.url, ['backup', '/tmp/never-written.db']);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(
        'salescrm: backup copies SQLite databases; back up PostgreSQL with pg_dump (docs/operations.md)\n',
      );
      expect(existsSync('/tmp/never-written.db')).toBe(false);
    });

    it('pg_dump then pg_restore into a new database: the API answers the same', async () => {
      const dumpDir = mkdtempSync(join(tmpdir(), 'salescrm-dump-'));
      const dump = join(dumpDir, 'workspace.dump');
      restoredName = `${new URL(store.url).pathname.slice(1)}_restored`;
      const url = databaseUrl(testServerUrl(), restoredName);
      try {
        await run('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, store.url]);
        await withAdmin(testServerUrl(), (c) => c.query(`create database ${ident(restoredName)}`));
        await run('pg_restore', ['--no-owner', `--dbname=${url}`, dump]);
      } finally {
        rmSync(dumpDir, { recursive: true, force: true });
      }
      restored = openStore(url);
      await restored.migrate();
      const apps: [FastifyInstance, FastifyInstance] = [
        await testApp(store),
        await testApp(restored),
      ];
      try {
        for (const [list] of LISTS) expect(await samePages(apps, token, list)).toBeGreaterThan(0);
        for (const list of ['/v2/deal/activity', '/v2/people/history', '/v2/memo', '/v2/todo']) {
          await samePages(apps, token, list);
        }
        expect((await verifyWorkspace(restored, workspaceId)).differences).toBe(0);
      } finally {
        await apps[0].close();
        await apps[1].close();
      }
    });
  },
);

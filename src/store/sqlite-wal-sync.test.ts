import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from './database.ts';
import { openSqliteDatabase } from './sqlite-open-files.ts';
import { WalFile, WalSync } from './sqlite-wal-sync.ts';

/** A sync that ends when the test says, counting those begun. */
function controlledSync() {
  const pending: (() => void)[] = [];
  const failures: (() => void)[] = [];
  let begun = 0;
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      begun += 1;
      pending.push(resolve);
      failures.push(() => reject(new Error('EIO')));
    });
  return {
    sync,
    begun: () => begun,
    end: () => pending.shift()!(),
    fail: () => {
      pending.shift();
      failures[begun - 1]!();
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('WalSync (group commit)', () => {
  it('begins a sync for a commit when none runs', async () => {
    const c = controlledSync();
    const walSync = new WalSync(c.sync);
    let done = false;
    void walSync.afterCommit().then(() => {
      done = true;
    });
    await tick();
    expect(c.begun()).toBe(1);
    expect(done).toBe(false);
    c.end();
    await tick();
    expect(done).toBe(true);
  });

  it('makes the commits of one running sync wait for the next, and share it', async () => {
    const c = controlledSync();
    const walSync = new WalSync(c.sync);
    const order: string[] = [];
    void walSync.afterCommit().then(() => order.push('first'));
    await tick();
    // Committed while the first sync runs: it may have begun before their frames were written.
    const later = Array.from({ length: 5 }, (_, i) =>
      walSync.afterCommit().then(() => order.push(`later ${i}`)),
    );
    await tick();
    expect(c.begun()).toBe(1);
    c.end();
    await tick();
    expect(order).toEqual(['first']);
    expect(c.begun()).toBe(2);
    c.end();
    await Promise.all(later);
    expect(order).toEqual(['first', 'later 0', 'later 1', 'later 2', 'later 3', 'later 4']);
    expect(c.begun()).toBe(2);
    // Nothing runs now: the next commit begins its own sync at once.
    void walSync.afterCommit();
    await tick();
    expect(c.begun()).toBe(3);
    c.end();
  });

  it('fails the commits a failed sync was for, and syncs the next ones anew', async () => {
    const c = controlledSync();
    const walSync = new WalSync(c.sync);
    const first = walSync.afterCommit();
    const second = walSync.afterCommit();
    await tick();
    c.fail();
    await expect(first).rejects.toThrow('EIO');
    await tick();
    expect(c.begun()).toBe(2);
    c.end();
    await expect(second).resolves.toBeUndefined();
  });
});

describe('WalFile', () => {
  it('syncs a file that is there, passes over one that is not yet, and keeps one descriptor until the last connection closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'salescrm-wal-sync-'));
    const database = join(dir, 'x.db');
    const path = `${database}-wal`;
    const conn = openSqliteDatabase(database);
    const file = new WalFile(database);
    // This file's descriptors only: other test files open and close their own in this process.
    const descriptors = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // closed meanwhile
        }
      }).length;
    try {
      await expect(file.sync()).resolves.toBeUndefined();
      writeFileSync(path, 'frames');
      const before = descriptors();
      await Promise.all([file.sync(), file.sync()]);
      for (let i = 0; i < 20; i++) await file.sync();
      expect(descriptors()).toBe(before + 1);
      // Closing a descriptor would release the connection's locks: it stays open until the
      // process's last connection to the database closes.
      file.close();
      await expect(file.sync()).resolves.toBeUndefined();
      expect(descriptors()).toBe(before + 1);
      conn.close();
      expect(descriptors()).toBe(before);
    } finally {
      file.close();
      if (conn.open) conn.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the SQLite store's writer", () => {
  it('commits without a sync of its own (NORMAL) and syncs the WAL before a write resolves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'salescrm-wal-sync-'));
    const store = openStore(`sqlite:${join(dir, 'w.db')}`);
    try {
      await store.migrate();
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      expect(rows[0]!.synchronous).toBe(1);
      // Many writes at once: each resolves, and each is there for the reader after.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.transaction((trx) =>
            sql`insert into users (workspace_id, id, name, email, status, role, created_at, updated_at)
                values ('w', ${`u${i}`}, 'n', ${`u${i}@example.com`}, 'active', 'member', '', '')`.execute(
              trx,
            ),
          ),
        ),
      );
      const count = await sql<{ n: number }>`select count(*) as n from users`.execute(store.reader);
      expect(Number(count.rows[0]!.n)).toBe(20);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

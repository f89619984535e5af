import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteWriterThread } from './sqlite-thread.ts';

describe('SqliteWriterThread', () => {
  let dir: string;
  let path: string;
  let thread: SqliteWriterThread | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-thread-'));
    path = join(dir, 'test.db');
    const db = new SQLite(path);
    db.exec('create table t (id integer primary key, v text, b blob)');
    db.close();
  });
  afterEach(async () => {
    await thread?.close();
    thread = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (sql: string, params: unknown[] = []) => thread!.database.prepare(sql).run(params);
  const all = (sql: string, params: unknown[] = []) => thread!.database.prepare(sql).all(params);
  /** What another connection sees committed. */
  const committed = () => {
    const db = new SQLite(path, { readonly: true });
    try {
      return db.prepare('select id, v from t order by id').all();
    } finally {
      db.close();
    }
  };

  it('runs a statement after every batch posted before it, in order', async () => {
    thread = await SqliteWriterThread.start(path);
    run('begin immediate');
    for (let i = 0; i < 10; i++) {
      thread.post(
        'insert into t (id, v) values (?, ?)',
        Array.from({ length: 100 }, (_, j) => [i * 100 + j, `v${i * 100 + j}`]),
      );
    }
    // No wait: the count is read after the ten batches, on the thread.
    expect(all('select count(*) as n, max(id) as m from t')).toEqual([{ n: 1000, m: 999 }]);
    expect(thread.database.prepare('select 1').reader).toBe(true);
    expect(thread.database.prepare('delete from t where id < 0').reader).toBe(false);
    run('commit');
    expect(committed()).toHaveLength(1000);
  });

  it('drain waits until the batches are written', async () => {
    thread = await SqliteWriterThread.start(path);
    run('begin immediate');
    for (let i = 0; i < 50; i++) {
      thread.post('insert into t (id, v) values (?, ?)', [[i, 'x']]);
    }
    await thread.drain(0);
    expect(thread.inFlight).toBe(0);
    run('commit');
    expect(committed()).toHaveLength(50);
  });

  it('keeps bytes as bytes both ways, and text cast to a blob as its UTF-8', async () => {
    thread = await SqliteWriterThread.start(path);
    run('insert into t (id, b) values (?, ?)', [1, Buffer.from([0, 1, 255])]);
    thread.post('insert into t (id, b) values (?, cast(? as blob))', [[2, '한글']]);
    const rows = all('select id, b from t order by id') as { id: number; b: Buffer }[];
    expect(Buffer.isBuffer(rows[0]!.b)).toBe(true);
    expect([...rows[0]!.b]).toEqual([0, 1, 255]);
    expect(rows[1]!.b.toString('utf8')).toBe('한글');
  });

  it('reports a failed batch, with SQLite error code, at every statement until a rollback, and skips the batches after it', async () => {
    thread = await SqliteWriterThread.start(path);
    run('begin immediate');
    thread.post('insert into t (id, v) values (?, ?)', [
      [1, 'a'],
      [1, 'duplicate'],
    ]);
    thread.post('insert into t (id, v) values (?, ?)', [[2, 'after']]);
    let error: unknown;
    try {
      all('select count(*) as n from t');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SQLite.SqliteError);
    expect((error as { code?: string }).code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    // A commit now would keep the rows before the failure and lose the rest: it is refused.
    expect(() => run('commit')).toThrow(/UNIQUE constraint failed/);
    // The rollback runs, nothing was committed, and the thread takes statements again.
    run('rollback');
    expect(all('select count(*) as n from t')).toEqual([{ n: 0 }]);
    expect(committed()).toEqual([]);
  });

  it('a statement that fails throws its SQLite error and leaves the thread usable', async () => {
    thread = await SqliteWriterThread.start(path);
    expect(() => run('insert into nowhere values (1)')).toThrow(/no such table: nowhere/);
    run('insert into t (id, v) values (?, ?)', [1, 'ok']);
    expect(committed()).toEqual([{ id: 1, v: 'ok' }]);
  });

  it('closing rolls back a transaction left open', async () => {
    thread = await SqliteWriterThread.start(path);
    run('begin immediate');
    thread.post('insert into t (id, v) values (?, ?)', [[1, 'never committed']]);
    await thread.drain();
    await thread.close();
    thread = undefined;
    expect(committed()).toEqual([]);
  });

  it('holds the write lock for its transaction: another writer waits for it', async () => {
    thread = await SqliteWriterThread.start(path);
    run('begin immediate');
    const other = new SQLite(path);
    other.pragma('busy_timeout = 0');
    try {
      expect(() => other.prepare('insert into t (id, v) values (9, ?)').run('x')).toThrow(
        /database is locked/,
      );
      run('commit');
      other.prepare('insert into t (id, v) values (9, ?)').run('x');
    } finally {
      other.close();
    }
  });

  it('a file that cannot be opened fails at start, and nothing is left running', async () => {
    await expect(SqliteWriterThread.start(join(dir, 'no', 'such', 'dir', 'x.db'))).rejects.toThrow(
      /unable to open|directory does not exist/i,
    );
  });

  it('a statement after close fails clearly instead of waiting', async () => {
    const closed = await SqliteWriterThread.start(path);
    await closed.close();
    expect(() => closed.database.prepare('select 1').all([])).toThrow(/writer thread stopped/);
    expect(() => closed.post('select ?', [[1]])).toThrow(/writer thread stopped/);
  });
});

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.ts';
import { WAL_CHECKPOINT_BYTES, WAL_KEPT_BYTES } from './sqlite-connection.ts';

describe('the checkpointer thread', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-checkpoint-'));
    store = openStore(`sqlite:${join(dir, 'test.db')}`);
    await store.migrate();
    await sql`create table filler (id integer primary key, b blob)`.execute(store.db);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const walSize = () => statSync(join(dir, 'test.db-wal')).size;
  /** `length` bytes of `file` (in the test's directory) from `start`, not the whole file. */
  function bytesOf(file: string, start: number, length: number): Buffer {
    const fd = openSync(join(dir, file), 'r');
    try {
      const bytes = Buffer.alloc(length);
      readSync(fd, bytes, 0, length, start);
      return bytes;
    } finally {
      closeSync(fd);
    }
  }
  /** The WAL header's salts (bytes 16–23): SQLite changes them each time the WAL starts over. */
  const walSalts = () => bytesOf('test.db-wal', 16, 8).toString('hex');
  const write = (bytes: number) =>
    store.transaction(async (trx) => {
      await sql`insert into filler (b) values (randomblob(${bytes}))`.execute(trx);
    });
  /** Frames copied back since the WAL started over: `nBackfill`, at byte 96 of the `-shm` file. */
  const copiedFrames = () => bytesOf('test.db-shm', 96, 4).readUInt32LE(0);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Small writes, a pause before each, until the WAL starts over (or `ms` have passed). */
  async function writeUntilStartedOver(ms: number): Promise<boolean> {
    const before = walSalts();
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      await pause(50);
      await write(16);
      if (walSalts() !== before) return true;
    }
    return false;
  }
  /** Twice the checkpointer's threshold, far below the writer's own (24 MiB), in one write. */
  const writeTwiceTheThreshold = () =>
    store.transaction(async (trx) => {
      for (let i = 0; i < 32; i++)
        await sql`insert into filler (b) values (randomblob(${WAL_CHECKPOINT_BYTES / 16}))`.execute(
          trx,
        );
    });

  it('copies a WAL past 4 MiB back into the database, so that the next write starts it over', async () => {
    await writeTwiceTheThreshold();
    const grown = walSize();
    expect(grown).toBeGreaterThan(2 * WAL_CHECKPOINT_BYTES);
    // The thread looks every 25 ms; each small write after its checkpoint can start over.
    expect(await writeUntilStartedOver(5_000)).toBe(true);
    // Started over, the WAL is written again from its start: the file is not cut back (it
    // holds the frames of the writes made before it started over too), nor does it grow.
    const kept = walSize();
    expect(kept).toBeGreaterThanOrEqual(grown);
    for (let i = 0; i < 5; i++) await write(16);
    expect(walSize()).toBe(kept);
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(store.reader);
    expect(Number(rows.rows[0]!.n)).toBeGreaterThan(32);
  });

  it('cuts a WAL that grew past what is kept back to that when it starts over', async () => {
    // One transaction the size of what is kept and more: the WAL must hold it until it commits.
    await store.transaction(async (trx) => {
      for (let i = 0; i < WAL_KEPT_BYTES / (1024 * 1024) + 4; i++)
        await sql`insert into filler (b) values (randomblob(${1024 * 1024}))`.execute(trx);
    });
    expect(walSize()).toBeGreaterThan(WAL_KEPT_BYTES);
    expect(await writeUntilStartedOver(5_000)).toBe(true);
    expect(walSize()).toBeLessThanOrEqual(WAL_KEPT_BYTES);
  });

  it('copies a write that committed after its checkpoint began, so that the WAL still starts over', async () => {
    await writeTwiceTheThreshold();
    // A reader's snapshot holds the checkpoint to the frames before the next write, as a
    // checkpoint that is still copying when the write commits would be.
    const reader = new SQLite(join(dir, 'test.db'));
    try {
      reader.exec('begin');
      reader.prepare('select count(*) from filler').get();
      await write(16);
      const deadline = Date.now() + 5_000;
      while (copiedFrames() === 0 && Date.now() < deadline) await pause(25);
      expect(copiedFrames()).toBeGreaterThan(0);
      reader.exec('commit');
    } finally {
      reader.close();
    }
    // One write's frame is left to copy, far below the threshold: it is copied all the same.
    expect(await writeUntilStartedOver(5_000)).toBe(true);
  });

  it('counts the frames since the WAL started over, not the WAL file, which keeps its length', async () => {
    await writeTwiceTheThreshold();
    expect(await writeUntilStartedOver(5_000)).toBe(true);
    // The file is still longer than the threshold, but holds only a few small writes'
    // frames: no checkpoint is due, so the WAL goes on from where it is.
    expect(walSize()).toBeGreaterThan(WAL_CHECKPOINT_BYTES);
    expect(await writeUntilStartedOver(400)).toBe(false);
    // Past the threshold again, it is copied back and starts over once more.
    await writeTwiceTheThreshold();
    expect(await writeUntilStartedOver(5_000)).toBe(true);
  });

  it('lets a process that closes its store end normally (nothing else keeps it alive)', () => {
    const script = `
      import { openStore } from ${JSON.stringify(new URL('./database.ts', import.meta.url).pathname)};
      const store = openStore(${JSON.stringify(`sqlite:${join(dir, 'other.db')}`)});
      await store.migrate();
      await store.transaction(async () => {});
      await store.close();
      console.log('closed');
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('closed\n');
  });
});

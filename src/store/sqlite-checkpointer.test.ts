import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.ts';
import { WAL_CHECKPOINT_BYTES } from './sqlite-connection.ts';

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
  const write = (bytes: number) =>
    store.transaction(async (trx) => {
      await sql`insert into filler (b) values (randomblob(${bytes}))`.execute(trx);
    });

  it('copies a WAL past 4 MiB back into the database, so that the next write starts it over', async () => {
    // Twice the checkpointer's threshold, far below the writer's own (24 MiB), in one write:
    // between small writes the thread may already copy them back and start the WAL over.
    await store.transaction(async (trx) => {
      for (let i = 0; i < 32; i++)
        await sql`insert into filler (b) values (randomblob(${WAL_CHECKPOINT_BYTES / 16}))`.execute(
          trx,
        );
    });
    expect(walSize()).toBeGreaterThan(WAL_CHECKPOINT_BYTES);
    // The thread looks every 25 ms; each small write after its checkpoint can start over.
    const deadline = Date.now() + 5_000;
    while (walSize() > WAL_CHECKPOINT_BYTES && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await write(16);
    }
    expect(walSize()).toBeLessThanOrEqual(WAL_CHECKPOINT_BYTES);
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(store.reader);
    expect(Number(rows.rows[0]!.n)).toBeGreaterThan(32);
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

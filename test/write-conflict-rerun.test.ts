/**
 * PostgreSQL: a write the database rolled back to end a deadlock with another transaction
 * runs once more (src/store/write.ts), instead of failing the user's request with a 503:
 * nothing of it had committed, and the other transaction has gone on.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConflictRollback } from '../src/store/unavailable.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makePerson } from './factories.ts';
import { storePerTest, TEST_DIALECT, type TestStore, type TestWorkspace } from './helpers.ts';
import { waitingForLocks } from './postgres.ts';
import { waitFor } from './webhook-fixtures.ts';

let store: TestStore;
let ws: TestWorkspace;
const cleanups = storePerTest((s, w) => {
  store = s;
  ws = w;
});

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: store.url });
  await c.connect();
  cleanups.push(() => c.end());
  return c;
}

describe('a conflict rolled back by the database', () => {
  it('is told apart from other failures, through a wrapped cause too', () => {
    expect(isConflictRollback({ code: '40P01' })).toBe(true);
    expect(isConflictRollback({ code: '40001' })).toBe(true);
    expect(isConflictRollback(new Error('x', { cause: { code: '40P01' } }))).toBe(true);
    expect(isConflictRollback({ code: '57P01' })).toBe(false);
    expect(isConflictRollback({ code: '23505' })).toBe(false);
    expect(isConflictRollback(new Error('deadlock'))).toBe(false);
    expect(isConflictRollback(undefined)).toBe(false);
  });
});

describe.runIf(TEST_DIALECT === 'postgres')('a write ended by a deadlock (postgres)', () => {
  it('runs once more and commits, once the other transaction has gone on', async () => {
    const person = await ws.write((w) => makePerson(w));
    const other = await client();
    const watch = await client();
    // Another transaction holds the person's row, and waits a long time before it looks for
    // a deadlock: the write, waiting second, is the one PostgreSQL ends.
    await other.query('begin');
    await other.query(`set local deadlock_timeout = '60s'`);
    await other.query('update people set job_title = $1 where workspace_id = $2 and id = $3', [
      'other',
      ws.workspaceId,
      person,
    ]);
    let runs = 0;
    let entered!: () => void;
    const inWrite = new Promise<void>((resolve) => (entered = resolve));
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    const written = writeWorkspace(store, ws.workspaceId, async (w) => {
      runs += 1;
      // The first run: its workspace's row is locked (its `begin`); it waits for the test.
      if (runs === 1) {
        entered();
        await gate;
      }
      await w.trx
        .updateTable('people')
        .set({ job_title: 'write' })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', person)
        .execute();
      return runs;
    });
    await inWrite;
    // The other now waits for the workspace's row, which the write holds...
    const otherWaits = other.query('update workspaces set name = name where id = $1', [
      ws.workspaceId,
    ]);
    await waitFor(async () => (await waitingForLocks(watch)) === 1);
    // ...and the write for the person's row, which the other holds: a deadlock.
    go();
    // PostgreSQL ends the write; the other goes on and commits; the write runs again.
    await otherWaits;
    await other.query('commit');
    expect(await written).toBe(2);
    const row = await store.db
      .selectFrom('people')
      .select('job_title')
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', person)
      .executeTakeFirstOrThrow();
    expect(row.job_title).toBe('write');
  });
});

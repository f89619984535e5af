// A write whose commit landed but whose WAL sync failed (an I/O error, or a disk that was full
// when the kernel wrote the pages back) is answered 500 saying so, and from then on the store
// takes no writes (503, nothing written) and is not ready, while reads go on: a later sync
// cannot be trusted to cover what the failed one did not write. SQLite only (PostgreSQL syncs
// its own WAL and stops itself). The disk's failure is injected through `syncWal`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { UNSYNCED_WRITE_MESSAGE, WRITES_STOPPED_MESSAGE } from '../src/http/errors.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { get, post, TEST_DIALECT, type TestWorkspace, testApp, testWorkspace } from './helpers.ts';

/** A store whose WAL sync fails with `failure` once `failing` is set. */
async function failingStore(failure: NodeJS.ErrnoException) {
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-sync-'));
  const state = { failing: false, syncs: 0 };
  const store = openStore(`sqlite:${join(dir, 'test.db')}`, {
    syncWal: async (sync) => {
      state.syncs += 1;
      if (state.failing) throw failure;
      await sync();
    },
  });
  await store.migrate();
  const dispose = async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { store, state, dispose };
}

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, fdatasync`), { code, syscall: 'fdatasync' });
}

async function peopleCount(store: Store, workspaceId: string): Promise<number> {
  const row = await store.reader
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.runIf(TEST_DIALECT === 'sqlite')('a WAL sync that fails after a commit', () => {
  let app: FastifyInstance | undefined;
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await app?.close();
    await dispose?.();
    app = undefined;
    dispose = undefined;
  });

  async function setUp(failure: NodeJS.ErrnoException) {
    const failing = await failingStore(failure);
    dispose = failing.dispose;
    const ws: TestWorkspace = await testWorkspace(failing.store);
    const log: Record<string, unknown>[] = [];
    app = await testApp(
      failing.store,
      { logLevel: 'error' },
      { logger: true, logStream: { write: (line) => log.push(JSON.parse(line)) } },
    );
    return { ...failing, ws, app, log };
  }

  it('answers the write 500 saying it may be kept, then refuses writes and is not ready; reads go on', async () => {
    const { store, state, ws, app, log } = await setUp(errnoError('EIO', 'i/o error'));
    expect((await post(app, ws.token, '/v2/people', { name: '앞선 사람' })).status).toBe(201);
    expect((await get(app, null, '/readyz')).status).toBe(200);

    state.failing = true;
    const unsynced = await post(app, ws.token, '/v2/people', { name: '확인 못 한 사람' });
    expect(unsynced.status).toBe(500);
    expect(unsynced.json).toEqual({
      success: false,
      message: UNSYNCED_WRITE_MESSAGE,
      reason: UNSYNCED_WRITE_MESSAGE,
    });
    // The commit landed: the person is there for anyone who looks.
    expect(await peopleCount(store, ws.workspaceId)).toBe(2);
    const errors = log.filter((l) => (l.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/not synced/);
    expect(JSON.stringify(errors[0]!.err)).toContain('EIO');

    // No sync is tried again: the next writes are refused before they begin.
    const syncs = state.syncs;
    state.failing = false;
    for (const name of ['다음 사람', '그다음 사람']) {
      const refused = await post(app, ws.token, '/v2/people', { name });
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({ success: false, message: WRITES_STOPPED_MESSAGE });
    }
    expect(await peopleCount(store, ws.workspaceId)).toBe(2);
    expect(state.syncs).toBe(syncs);

    const ready = await get(app, null, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toEqual({ status: 'unavailable' });
    const list = await get(app, ws.token, '/v2/people?limit=10');
    expect(list.status).toBe(200);
    expect(list.json.data.peopleList).toHaveLength(2);
  });

  it('is not a 507 when the sync fails for lack of space: the write was not refused', async () => {
    const { store, state, ws, app } = await setUp(errnoError('ENOSPC', 'no space left on device'));
    state.failing = true;
    const unsynced = await post(app, ws.token, '/v2/people', { name: '자리 없는 디스크' });
    expect(unsynced.status).toBe(500);
    expect(unsynced.json.message).toBe(UNSYNCED_WRITE_MESSAGE);
    expect(await peopleCount(store, ws.workspaceId)).toBe(1);
    expect((await post(app, ws.token, '/v2/people', { name: '또' })).status).toBe(503);
  });

  it('fails every write that waited on the failed sync, and only those', async () => {
    const { store, state, ws, app } = await setUp(errnoError('EIO', 'i/o error'));
    state.failing = true;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(app!, ws.token, '/v2/people', { name: `동시 ${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    // Each write either committed (and shares the failed sync: 500) or came after the
    // failure (refused: 503). None is acknowledged.
    expect(statuses.every((s) => s === 500 || s === 503)).toBe(true);
    expect(statuses).toContain(500);
    expect(await peopleCount(store, ws.workspaceId)).toBe(statuses.filter((s) => s === 500).length);
  });
});

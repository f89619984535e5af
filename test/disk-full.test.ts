// A write that cannot be stored for lack of space answers 507 in shape A, keeps nothing, and
// is logged once per interval with the database it failed on. The full disk is simulated:
// on SQLite the writer's `max_page_count` is set to the file's size (inserts then fail with
// SQLITE_FULL and SQLite rolls the transaction back by itself, as on a real full disk), on
// PostgreSQL a trigger raises `53100 disk_full`.

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmClient, InsufficientStorageError, ServerError } from '../src/client/index.ts';
import type { FetchLike } from '../src/client/transport.ts';
import type { Store } from '../src/store/database.ts';
import { listen } from './client-server.ts';
import {
  get,
  post,
  TEST_DIALECT,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';

/** Makes every write that needs more space fail, as a full disk does. */
async function fillDisk(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') {
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(store.db);
    const count = pages.rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${count}`).execute(store.db);
    return;
  }
  await sql`create function salescrm_test_disk_full() returns trigger language plpgsql as $$
    begin
      raise exception 'could not extend file: No space left on device' using errcode = 'disk_full';
    end $$`.execute(store.db);
  await sql`create trigger salescrm_test_disk_full before insert on people
    for each row execute function salescrm_test_disk_full()`.execute(store.db);
}

/** Gives the database room again. */
async function freeDisk(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') {
    await sql.raw('pragma max_page_count = 1073741823').execute(store.db);
    return;
  }
  await sql`drop trigger salescrm_test_disk_full on people`.execute(store.db);
  await sql`drop function salescrm_test_disk_full()`.execute(store.db);
}

/** What a workspace holds: its people and its events. */
async function counts(store: Store, workspaceId: string): Promise<[number, number]> {
  const people = await store.db
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const events = await store.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return [Number(people.n), Number(events.n)];
}

/** A person whose memo needs pages of its own (16 KiB pages): it never fits in free space. */
const big = (name: string) => ({ name, memo: '가'.repeat(30_000) });

describe('a write when the disk is full', () => {
  let store: TestStore;
  let ws: TestWorkspace;
  let app: FastifyInstance;
  const log: Record<string, unknown>[] = [];
  let created = 0;

  /** Creates people until one is refused; returns the refused answer. */
  async function createUntilRefused() {
    for (let i = 0; i < 100; i++) {
      const before = await counts(store, ws.workspaceId);
      const res = await post(app, ws.token, '/v2/people', big(`가득${i}`));
      if (res.status === 201) {
        created += 1;
        continue;
      }
      return { res, before };
    }
    throw new Error('no write was refused');
  }

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    app = await testApp(
      store,
      { logLevel: 'error' },
      {
        logger: true,
        logStream: { write: (line) => log.push(JSON.parse(line)) },
        diskFullLogIntervalMs: 60 * 60_000,
      },
    );
    await fillDisk(store);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it('answers 507 in shape A, keeps nothing of the write, and reads still work', async () => {
    const { res, before } = await createUntilRefused();
    expect(res.status).toBe(507);
    expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
    expect(res.json).toMatchObject({ success: false, reason: 'disk full' });
    expect(res.json.message).toMatch(/^저장 공간이 부족합니다/);
    expect(await counts(store, ws.workspaceId)).toEqual(before);

    const again = await post(app, ws.token, '/v2/people', big('또'));
    expect(again.status).toBe(507);
    expect(await counts(store, ws.workspaceId)).toEqual(before);
    const list = await get(app, ws.token, '/v2/people?limit=100');
    expect(list.status).toBe(200);
    expect(list.json.data.peopleList).toHaveLength(created);
  });

  it('logs it once per interval, at level error, naming the database', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post(app, ws.token, '/v2/people', big(`또${i}`))).status).toBe(507);
    }
    const lines = log.filter((l) => typeof l.msg === 'string' && l.msg.includes('disk full'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, database: store.location });
    const pg = new URL(store.url);
    expect(store.location).toBe(
      TEST_DIALECT === 'sqlite' ? store.path : `postgres://${pg.host}${pg.pathname}`,
    );
    // No other error line: the failure is not logged once per request besides.
    expect(log.filter((l) => (l.level as number) >= 50)).toHaveLength(1);
  });

  it('is raised by the client as InsufficientStorageError, not retried', async () => {
    const url = await listen(app);
    let calls = 0;
    const counting: FetchLike = (u, init) => {
      calls += 1;
      return fetch(u, init);
    };
    const crm = new CrmClient({ baseUrl: url, token: ws.token, fetch: counting, maxRetries: 3 });
    const error = await crm.people.create(big('클라이언트')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientStorageError);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 507, reason: 'disk full' });
    expect(calls).toBe(1);
  });

  it('writes again once there is space', async () => {
    await freeDisk(store);
    const res = await post(app, ws.token, '/v2/people', { name: '다시' });
    expect(res.status).toBe(201);
  });
});

describe('a transaction that fails', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('throws the error that failed it when the database already rolled back', async () => {
    const failed = store.transaction(async (trx) => {
      // As SQLite does by itself after SQLITE_FULL or SQLITE_IOERR.
      await sql`rollback`.execute(trx);
      throw new Error('the original failure');
    });
    await expect(failed).rejects.toThrow('the original failure');
    // The connection is usable for the next write.
    await expect(
      store.transaction(async (trx) => sql`select 1`.execute(trx)),
    ).resolves.toBeDefined();
  });

  it.skipIf(TEST_DIALECT !== 'postgres')(
    'throws the error that failed it when the rollback fails too',
    async () => {
      const failed = store.transaction(async (trx) => {
        await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
      });
      await expect(failed).rejects.toMatchObject({ code: '57P01' });
    },
  );
});

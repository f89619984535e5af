import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../src/resources/people/commands.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { SqliteWriterThread, storeOnThread } from '../src/store/sqlite-thread.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { TEST_DIALECT, testWorkspace } from './helpers.ts';

/**
 * A write of the API through a store whose writes run on the writer thread (as an import's
 * do): the transaction, its catalog version and its closing update run on the thread's
 * connection, where none of the main writer's cached statements can.
 */
describe.skipIf(TEST_DIALECT !== 'sqlite')('a workspace write on the writer thread', () => {
  // Made in the hook: a describe's body runs even when it is skipped.
  let dir: string;
  let path: string;
  let store: Store;
  let thread: SqliteWriterThread;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'salescrm-write-thread-'));
    path = join(dir, 'crm.db');
    store = openStore(`sqlite:${path}`);
    await store.migrate();
    thread = await SqliteWriterThread.start(path);
  });
  afterAll(async () => {
    await thread?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('commits the record, its rendered JSON, its event and a new data version', async () => {
    const ws = await testWorkspace(store, '스레드 쓰기');
    const version = async () =>
      Number(
        (
          await store.reader
            .selectFrom('workspaces')
            .select(['data_version', 'event_seq'])
            .where('id', '=', ws.workspaceId)
            .executeTakeFirstOrThrow()
        ).data_version,
      );
    const before = await version();
    // What the thread's connection is asked: the whole write must run there.
    const ran: string[] = [];
    const prepare = thread.database.prepare.bind(thread.database);
    thread.database.prepare = (sql: string) => {
      ran.push(sql);
      return prepare(sql);
    };
    const onThread = storeOnThread(store, thread);
    const written = await writeWorkspace(onThread, ws.workspaceId, (w) =>
      createPerson(w, ws.userId, { name: '스레드 고객' }),
    );
    const row = await store.reader
      .selectFrom('people')
      .select(['name', 'body'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('id', '=', written.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('스레드 고객');
    expect(JSON.parse(Buffer.from(row.body as Uint8Array).toString())).toMatchObject({
      id: written.id,
      이름: '스레드 고객',
    });
    expect(await version()).toBe(before + 1);
    expect(ran[0]).toBe('begin immediate');
    expect(ran.some((q) => q.startsWith('select "catalog_version" from "workspaces"'))).toBe(true);
    expect(ran.some((q) => q.startsWith('insert into "people"'))).toBe(true);
    expect(ran.some((q) => q.startsWith('update "workspaces" set "data_version"'))).toBe(true);
    expect(ran.at(-1)).toBe('commit');
    const events = await store.reader
      .selectFrom('events')
      .select(['event', 'object_id', 'seq'])
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(events).toEqual([{ event: '생성', object_id: written.id, seq: 1 }]);
  });
});

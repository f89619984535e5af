import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { Database } from '../src/model/tables.ts';
import {
  createToken,
  createWorkspace,
  insertTeams,
  insertUsers,
} from '../src/resources/workspaces/writes.ts';
import { type AppOptions, buildApp } from '../src/server/app.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { type WorkspaceWrite, writeWorkspace } from '../src/store/write.ts';
import { databaseUrl, ident, withAdmin } from './postgres.ts';

/**
 * Gives each test a store and a workspace of its own (handed to `use` before it), and returns
 * the list of what the test leaves to undo: done after it, the last pushed first (so
 * receivers pushed after their dispatchers close first, and a POST waiting for one ends at
 * once), then the store disposed.
 */
export function storePerTest(
  use: (store: TestStore, ws: TestWorkspace) => void,
): (() => Promise<unknown> | unknown)[] {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  let store: TestStore | undefined;
  beforeEach(async () => {
    store = await testStore();
    use(store, await testWorkspace(store));
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await store?.dispose();
    store = undefined;
  });
  return cleanups;
}

/** The store the suite runs on: `SALESCRM_TEST_STORE=postgres` (the vitest project sets it) or SQLite. */
export const TEST_DIALECT: Store['dialect'] =
  process.env.SALESCRM_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

let postgresDatabases = 0;

/**
 * A migrated store in a fresh database: a temporary SQLite file, or on PostgreSQL a copy of
 * the run's migrated template; `url` opens it again (as another process would), `dispose`
 * removes it.
 */
export async function testStore(): Promise<
  Store & { path: string; url: string; dispose(): Promise<void> }
> {
  if (TEST_DIALECT === 'postgres') return postgresTestStore();
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-test-'));
  const store = openStore(`sqlite:${join(dir, 'test.db')}`);
  await store.migrate();
  return Object.assign(store, {
    path: join(dir, 'test.db'),
    url: `sqlite:${join(dir, 'test.db')}`,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

async function postgresTestStore() {
  const { serverUrl, prefix, template } = inject('postgres');
  postgresDatabases += 1;
  const name = `${prefix}${process.pid}_${postgresDatabases}`;
  await withAdmin(serverUrl, (c) =>
    c.query(`create database ${ident(name)} template ${ident(template)}`),
  );
  const url = databaseUrl(serverUrl, name);
  const store = openStore(url);
  await store.migrate();
  return Object.assign(store, {
    path: '',
    url,
    async dispose() {
      await store.close();
      await withAdmin(serverUrl, (c) =>
        c.query(`drop database if exists ${ident(name)} with (force)`),
      );
    },
  });
}

/** A workspace with an admin in a team, and a token acting as that admin. */
export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  teamId: string;
  token: string;
  tokenId: string;
  /** Runs `fn` as one write in this workspace. */
  write<T>(fn: (w: WorkspaceWrite) => Promise<T>): Promise<T>;
}

/** Creates a workspace to test in. */
export async function testWorkspace(
  store: Store,
  name = '테스트 워크스페이스',
): Promise<TestWorkspace> {
  const workspaceId = await createWorkspace(store, name);
  const { userId, teamId } = await store.transaction(async (trx) => {
    const [userId] = await insertUsers(trx, workspaceId, [
      { name: '김관리', email: 'admin@example.com', role: 'admin' },
    ]);
    const [teamId] = await insertTeams(trx, workspaceId, [
      { name: '영업1팀', memberIds: [userId!] },
    ]);
    return { userId: userId!, teamId: teamId! };
  });
  const { id: tokenId, token } = await createToken(store, workspaceId, userId);
  return {
    workspaceId,
    userId,
    teamId,
    token,
    tokenId,
    write: (fn) => writeWorkspace(store, workspaceId, fn),
  };
}

/** The API over a store, rate limit off unless asked for. */
export async function testApp(
  store: Store,
  config: Partial<AppOptions['config']> = {},
  options: Pick<
    AppOptions,
    | 'webhookVerifyTimeoutMs'
    | 'logger'
    | 'logStream'
    | 'diskFullLogIntervalMs'
    | 'readThreads'
    | 'rateLimiter'
  > = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    ...options,
    store,
    config: {
      basePath: '',
      rateLimitMax: 0,
      rateLimitWindowMs: 10_000,
      pageCacheBytes: 8 * 1024 * 1024,
      logLevel: 'silent',
      logRequests: false,
      webhookAllowPrivate: false,
      ...config,
    },
  });
  await app.ready();
  return app;
}

/** A response as a test reads it. */
export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  json: any;
}

/** GET `url` with a bearer token (or no Authorization when token is null). */
export async function get(
  app: FastifyInstance,
  token: string | null,
  url: string,
): Promise<TestResponse> {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

/** POST `url` with a JSON body (none when `body` is undefined) and a bearer token. */
export async function post(
  app: FastifyInstance,
  token: string | null,
  url: string,
  body?: unknown,
): Promise<TestResponse> {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    payload: body === undefined ? '' : JSON.stringify(body),
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

/** Every record of a list endpoint, following the cursor; also returns the pages. */
export async function walk(
  app: FastifyInstance,
  token: string,
  url: string,
  listKey: string,
  cursorKey = 'nextCursor',
): Promise<{ records: Record<string, unknown>[]; pages: number; cursors: string[] }> {
  const records: Record<string, unknown>[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(app, token, cursor ? `${url}${sep}cursor=${cursor}` : url);
    if (res.status !== 200) throw new Error(`walk: ${res.status} ${res.text}`);
    records.push(...res.json.data[listKey]);
    cursor = res.json.data[cursorKey];
    if (cursor) cursors.push(cursor);
    pages += 1;
  } while (cursor);
  return { records, pages, cursors };
}

/** A store made by `testStore`. */
export type TestStore = Awaited<ReturnType<typeof testStore>>;

/** How many rows of `table` a workspace has. */
export async function rowCount(
  store: Pick<TestStore, 'db'>,
  table: keyof Database,
  workspaceId: string,
): Promise<number> {
  const row = await store.db
    .selectFrom(table as 'people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One store and one app (page cache on, as in production) for a whole test file: made
 * before its first test and handed to `use`, closed after its last.
 */
export function appForFile(use: (store: TestStore, app: FastifyInstance) => void): void {
  let store: TestStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await testStore();
    app = await testApp(store);
    use(store, app);
  });
  afterAll(async () => {
    await app.close();
    await store.dispose();
  });
}

/** What `appWithWorkspace` hands to a test file. */
export interface FileApp {
  store: TestStore;
  app: FastifyInstance;
  ws: TestWorkspace;
}

/**
 * One store and one app for a whole test file, as `appForFile`, and a workspace in it: a
 * fresh one before every test, or with `workspace: 'file'` one for the whole file. `config`
 * (or a function giving it, called once the earlier `beforeAll`s have run) goes to the app.
 * `use` gets the three whenever the workspace is new.
 */
export function appWithWorkspace(
  use: (made: FileApp) => void,
  options: {
    config?: Partial<AppOptions['config']> | (() => Partial<AppOptions['config']>);
    workspace?: 'test' | 'file';
  } = {},
): void {
  let store: TestStore | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    store = await testStore();
    const { config = {} } = options;
    app = await testApp(store, typeof config === 'function' ? config() : config);
  });
  afterAll(async () => {
    // The store's files go even when closing the app fails.
    try {
      await app?.close();
    } finally {
      await store?.dispose();
    }
  });
  (options.workspace === 'file' ? beforeAll : beforeEach)(async () => {
    use({ store: store!, app: app!, ws: await testWorkspace(store!) });
  });
}

/** List endpoints of docs/api.md, by what they list: path and list key. */
export const LISTS = {
  people: ['/v2/people', 'peopleList'],
  organization: ['/v2/organization', 'organizationList'],
  deal: ['/v2/deal', 'dealList'],
  lead: ['/v2/lead', 'leadList'],
  product: ['/v2/product', 'productList'],
  activity: ['/v2/deal/activity', 'dealActivityList'],
  history: ['/v2/people/history', 'peopleHistoryList'],
} as const;
export type Listed = keyof typeof LISTS;

/**
 * Webhook fixtures: a registered webhook written straight into the store (the registration
 * API is built elsewhere), a receiver on 127.0.0.1 that keeps what it gets, the check of
 * a Standard Webhooks signature as a receiver would make it, dispatchers and receivers
 * that end with their test (`perTestWebhooks`), a claim by a dispatcher holding nothing, a
 * row lock held as another process's transaction would hold it (`holdLock`), and the
 * connections listening to a channel (`listeningTo`).
 */
import { createHmac } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { attachToWrites } from '../src/dispatch/attach.ts';
import { Dispatcher, type DispatcherOptions } from '../src/dispatch/dispatcher.ts';
import { EVENT_TOPICS } from '../src/domain/events.ts';
import { newId } from '../src/domain/ids.ts';
import { newWebhookSecret } from '../src/domain/webhook-signature.ts';
import { bumpCatalogVersion } from '../src/store/catalog.ts';
import type { Executor, Store } from '../src/store/database.ts';
import { type ClaimRequest, claimDeliveries } from '../src/store/outbox/deliveries.ts';

/** A webhook as a test registers it. */
export interface TestWebhook {
  id: string;
  url: string;
  secret: string;
}

/** Inserts an active webhook on every event of people (unless told otherwise), as a registration would. */
export async function insertWebhook(
  store: Store,
  workspaceId: string,
  input: {
    url: string;
    objectTypes?: string[];
    status?: 'active' | 'disabled';
    previousSecret?: string;
    previousSecretUntil?: string;
  },
): Promise<TestWebhook> {
  const id = newId();
  const secret = newWebhookSecret();
  const now = new Date().toISOString();
  await store.transaction(async (trx) => {
    await trx
      .insertInto('webhooks')
      .values({
        workspace_id: workspaceId,
        id,
        url: input.url,
        object_types: JSON.stringify(input.objectTypes ?? ['people']),
        events: JSON.stringify(EVENT_TOPICS),
        fields: null,
        status: input.status ?? 'active',
        secret,
        previous_secret: input.previousSecret ?? null,
        previous_secret_until: input.previousSecretUntil ?? null,
        failure_streak: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // Its subscription is part of the workspace's catalog, as a registration's is.
    await bumpCatalogVersion(trx, workspaceId);
  });
  return { id, url: input.url, secret };
}

/** One POST a receiver got. */
export interface Receipt {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `performance.now()` when the body was in. */
  at: number;
}

/** How a receiver answers a POST (the body is read already). */
export type Answer = (req: IncomingMessage, res: ServerResponse, receipt: Receipt) => void;

/** Answers 200 with a short JSON body. */
export const answerOk: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};

/** An HTTP server on 127.0.0.1 that keeps every POST it gets. */
export interface Receiver {
  url: string;
  port: number;
  receipts: Receipt[];
  /** How it answers; change it at any time. */
  answer: Answer;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
  /** Listens again, on the same port. */
  reopen(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startReceiver(answer: Answer = answerOk, path = '/hook'): Promise<Receiver> {
  const receipts: Receipt[] = [];
  let server: Server;
  const receiver: Receiver = {
    url: '',
    port: 0,
    receipts,
    answer,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async reopen() {
      server = make();
      await listen(server, receiver.port);
    },
  };
  const make = () =>
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const receipt: Receipt = {
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.now(),
        };
        receipts.push(receipt);
        receiver.answer(req, res, receipt);
      });
    });
  server = make();
  receiver.port = await listen(server, 0);
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** The signature a receiver expects from `secret` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`). */
export function expectedSignature(secret: string, receipt: Receipt): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${receipt.id}.${receipt.timestamp}.${receipt.body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** A workspace's due mark (`workspaces.deliveries_due_at`): where dispatchers look. */
export async function dueMarkOf(store: Store, workspaceId: string): Promise<string | null> {
  const row = await store.db
    .selectFrom('workspaces')
    .select('deliveries_due_at')
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.deliveries_due_at;
}

/**
 * Polls `check` every 10 ms until it is true; fails after `ms` with `why()`. The time is a
 * guard against a hang, not a measure: by default most of a test's 30 s, which a loaded
 * machine may need for what takes a second on a quiet one.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms = 25_000,
  why: () => string = () => 'timed out',
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waitFor: ${why()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Fast settings: short retries, short polls, no jitter. The time limit of a try only guards
 * against a hang (these receivers answer at once, which a loaded machine can make seconds);
 * the tests of the time limit set their own.
 */
export const FAST_DISPATCH: DispatcherOptions = {
  retryDelays: [0.05, 0.1],
  timeoutMs: 20_000,
  concurrency: 8,
  perWebhook: 4,
  pollMs: 20,
  jitter: 0,
  // The receivers of these tests listen on 127.0.0.1.
  allowPrivate: true,
};

/**
 * Dispatchers and receivers that end with their test (pushed on `cleanups`, the list of
 * `storePerTest`, which undoes them last first): `dispatcher` starts one on `storeOf()` or
 * `on` (`FAST_DISPATCH`, with no poll in a test's time unless `options` asks), `attach`
 * joins one to this process's writes as `serve` does, `receiver` listens.
 */
export function perTestWebhooks(
  cleanups: (() => Promise<unknown> | unknown)[],
  storeOf: () => Store,
) {
  return {
    dispatcher(options: Partial<DispatcherOptions> = {}, on: Store = storeOf()): Dispatcher {
      const d = new Dispatcher(on, { ...FAST_DISPATCH, pollMs: 600_000, ...options });
      cleanups.push(() => d.stop());
      d.start();
      return d;
    },
    attach(d: Dispatcher): void {
      cleanups.push(attachToWrites(storeOf(), d));
    },
    async receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const r = await startReceiver(...args);
      cleanups.push(() => r.close().catch(() => {}));
      return r;
    },
  };
}

/**
 * PostgreSQL: the backends (their pids) of `store`'s database whose last statement was a
 * LISTEN of `channel`: a process's listening connection, once it listens there.
 */
export async function listeningTo(store: Store, channel: string): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
    where datname = current_database() and query = ${`listen ${channel}`}`.execute(store.db);
  return rows.map((r) => r.pid);
}

/** A claim by a dispatcher that holds nothing (up to 100 deliveries, 64 a webhook). */
export function claimHoldingNothing(store: Store, request: Partial<ClaimRequest>) {
  return claimDeliveries(store, {
    now: new Date().toISOString(),
    leaseUntil: new Date(Date.now() + 30_000).toISOString(),
    limit: 100,
    perWebhook: 64,
    held: new Set<string>(),
    heldOf: () => 0,
    heldIn: () => [],
    mostHeldOfOne: 0,
    ...request,
  });
}

/**
 * Runs `lock` in a transaction of `on` (say, a `for update` of a row) and keeps the
 * transaction open, so its locks are held, until `release`, which commits it.
 */
export async function holdLock(
  on: Store,
  lock: (trx: Executor) => Promise<unknown>,
): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = on.transaction(async (trx) => {
    await lock(trx);
    locked();
    await released;
  });
  // A lock that failed ends the transaction: say so rather than wait for `locked`.
  await Promise.race([isLocked, holding]);
  return {
    async release() {
      release();
      await holding;
    },
  };
}

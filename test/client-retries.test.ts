import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorFromResponse } from '../src/client/errors.ts';
import {
  ConnectionError,
  CrmApiError,
  CrmClient,
  type CrmClientOptions,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../src/client/index.ts';
import { START_MS } from './budgets.ts';
import {
  answer,
  listen,
  proxy,
  type StubHandler,
  type StubServer,
  stubServer,
} from './client-server.ts';
import { makePerson } from './factories.ts';
import { appWithWorkspace, type TestStore, type TestWorkspace } from './helpers.ts';

// Retries, abort and timeout, against tiny real HTTP servers that answer 429/503/500 (or
// nothing) first and then pass the call on to the real API.

let store: TestStore;
let app: FastifyInstance;
let ws: TestWorkspace;
let apiUrl: string;
const stubs: StubServer[] = [];

appWithWorkspace((made) => ({ store, app, ws } = made), { workspace: 'file' });
beforeAll(async () => {
  await ws.write(async (w) => {
    for (let i = 0; i < 3; i++) await makePerson(w, { name: `재시도 고객 ${i}` });
  });
  apiUrl = await listen(app);
});

afterEach(async () => {
  for (const stub of stubs.splice(0)) await stub.close();
});

/** A stub in front of the real API, and a client of it with fast backoff. */
async function clientVia(
  handler: StubHandler,
  options: Partial<CrmClientOptions> = {},
): Promise<{ crm: CrmClient; stub: StubServer }> {
  const stub = await stubServer(handler);
  stubs.push(stub);
  const crm = new CrmClient({
    baseUrl: stub.url,
    token: ws.token,
    retryBaseDelayMs: 5,
    maxRetryDelayMs: 20,
    ...options,
  });
  return { crm, stub };
}

/** Answers the first calls from `script` (status and headers), then proxies. */
function failFirst(script: [number, Record<string, string>?][]): StubHandler {
  return (call, res, n) => {
    const step = script[n];
    if (!step) return proxy(apiUrl, call, res);
    const [status, headers] = step;
    const body =
      status === 429
        ? { success: false, message: 'Too Many Requests' }
        : { success: false, message: `stub ${status}` };
    answer(res, status, body, { 'x-request-id': `stub-${n}`, ...headers });
  };
}

async function peopleCount(): Promise<number> {
  const row = await store.reader
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('client retries', () => {
  it('a read retries 429 (honouring Retry-After: 0) and 503, then succeeds', async () => {
    const { crm, stub } = await clientVia(failFirst([[429, { 'retry-after': '0' }], [503]]));
    const people = await crm.people.list().toArray({ max: 100 });
    expect(people).toHaveLength(3);
    expect(stub.calls).toHaveLength(3);
    expect(new Set(stub.calls.map((c) => c.url)).size).toBe(1);
  });

  it('Retry-After is waited for before the retry', async () => {
    const { crm, stub } = await clientVia(failFirst([[429, { 'retry-after': '1' }]]), {
      retryBaseDelayMs: 1,
    });
    const started = Date.now();
    await crm.users.me();
    // A lower bound only: a loaded machine can only make it later.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(stub.calls).toHaveLength(2);
  });

  it('a Retry-After beyond maxRetryAfterMs is not waited for', async () => {
    const { crm, stub } = await clientVia(failFirst([[429, { 'retry-after': '3600' }]]));
    const error = (await crm.users.me().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(3600);
    expect(error.requestId).toBe('stub-0');
    expect(stub.calls).toHaveLength(1);
  });

  it('retries are bounded by maxRetries; the last error is thrown', async () => {
    const { crm, stub } = await clientVia(
      (_call, res, n) => answer(res, 503, { success: false, message: `busy ${n}` }),
      { maxRetries: 3 },
    );
    const error = (await crm.people
      .list()
      .page()
      .catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(503);
    expect(error.message).toBe('busy 3');
    expect(stub.calls).toHaveLength(4);
    // Per call, maxRetries: 0 sends once.
    await expect(crm.users.me({ maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(stub.calls).toHaveLength(5);
  });

  it('a read retries a 500; a write does not (it may have been applied)', async () => {
    const read = await clientVia(failFirst([[500]]));
    expect((await read.crm.users.me()).id).toBe(ws.userId);
    expect(read.stub.calls).toHaveLength(2);

    const before = await peopleCount();
    const write = await clientVia(failFirst([[500]]));
    await expect(write.crm.people.create({ name: '500 고객' })).rejects.toBeInstanceOf(ServerError);
    expect(write.stub.calls).toHaveLength(1);
    expect(await peopleCount()).toBe(before);
  });

  it('a write is retried after 429 and 503 (answered before processing), and applied once', async () => {
    const before = await peopleCount();
    const { crm, stub } = await clientVia(failFirst([[429, { 'retry-after': '0' }], [503]]));
    const created = await crm.people.create({ name: '재시도 생성' });
    expect(stub.calls.map((c) => c.method)).toEqual(['POST', 'POST', 'POST']);
    expect(stub.calls.every((c) => c.body === '{"name":"재시도 생성"}')).toBe(true);
    expect(await peopleCount()).toBe(before + 1);
    expect(
      (await new CrmClient({ baseUrl: apiUrl, token: ws.token }).people.get(created.id))['이름'],
    ).toBe('재시도 생성');
  });

  it('a refused connection is retried, for reads and writes, then thrown as ConnectionError', async () => {
    const stub = await stubServer(() => {});
    const url = stub.url;
    await stub.close(); // nothing listens there now
    let calls = 0;
    const crm = new CrmClient({
      baseUrl: url,
      token: ws.token,
      retryBaseDelayMs: 1,
      fetch: (u, init) => {
        calls += 1;
        return fetch(u, init);
      },
    });
    const error = (await crm.people
      .create({ name: '연결 거부' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(CrmApiError);
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.timedOut).toBe(false);
    expect(error.status).toBe(0);
    expect(calls).toBe(3);
  });

  it('a 400 is never retried', async () => {
    const { crm, stub } = await clientVia(failFirst([]));
    await expect(crm.people.list().page({ cursor: 'bad' })).rejects.toBeInstanceOf(ValidationError);
    expect(stub.calls).toHaveLength(1);
  });

  it('415 maps to ValidationError; a non-JSON error page keeps its text', async () => {
    const { crm } = await clientVia(
      (_c, res, n) => {
        if (n === 0) answer(res, 415, { success: false, message: 'Content-Type' });
        else {
          res.writeHead(502, { 'content-type': 'text/html' });
          res.end('<html>Bad Gateway</html>');
        }
      },
      { maxRetries: 0 },
    );
    const e415 = await crm.users.me().catch((e: unknown) => e);
    expect(e415).toBeInstanceOf(ValidationError);
    const e502 = (await crm.users.me().catch((e: unknown) => e)) as ServerError;
    expect(e502).toBeInstanceOf(ServerError);
    expect(e502.body).toBe('<html>Bad Gateway</html>');
  });
});

describe('client abort and timeout', () => {
  it('an aborted call rejects with the abort reason at once and is not retried', async () => {
    const controller = new AbortController();
    // Never answers: the call is aborted once the server has it (not after a fixed time,
    // which a busy machine may not have reached the server by).
    const { crm, stub } = await clientVia(() => controller.abort());
    const pending = crm.people.list().page({ signal: controller.signal });
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error).not.toBeInstanceOf(CrmApiError);
    expect(error.name).toBe('AbortError');
    expect(stub.calls).toHaveLength(1);
  });

  it('a signal aborted before the call sends nothing', async () => {
    const { crm, stub } = await clientVia(failFirst([]));
    const reason = new Error('stop');
    await expect(crm.users.me({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(stub.calls).toHaveLength(0);
  });

  it('an abort during the backoff wait stops the retries', async () => {
    const { crm, stub } = await clientVia(
      (_c, res) => answer(res, 503, { success: false, message: 'busy' }),
      { retryBaseDelayMs: 60_000, maxRetryDelayMs: 60_000 },
    );
    const controller = new AbortController();
    const pending = crm.users.me({ signal: controller.signal });
    // Aborted once the first try was answered (a timer could fire before it was even sent).
    await vi.waitFor(() => expect(stub.calls).toHaveLength(1), { timeout: START_MS });
    controller.abort(new Error('enough'));
    await expect(pending).rejects.toThrow('enough');
    expect(stub.calls).toHaveLength(1);
  });

  it('the signal of a list stops its iteration', async () => {
    const { crm } = await clientVia(failFirst([]));
    const controller = new AbortController();
    const seen: string[] = [];
    const walk = (async () => {
      for await (const person of crm.people.list({ limit: 1, signal: controller.signal })) {
        seen.push(person.id);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(walk).rejects.toHaveProperty('name', 'AbortError');
    expect(seen).toHaveLength(2);
  });

  it('timeoutMs: no answer in time is a ConnectionError (timedOut), retried for reads', async () => {
    const { crm, stub } = await clientVia(() => {}, { timeoutMs: 150, maxRetries: 1 });
    const error = (await crm.people
      .list()
      .page()
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.timedOut).toBe(true);
    expect(stub.calls).toHaveLength(2);
  });

  it('a write that timed out is not repeated (it may have been applied)', async () => {
    const { crm, stub } = await clientVia(() => {}, { timeoutMs: 150, maxRetries: 3 });
    const error = (await crm.people
      .create({ name: '시간 초과' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.timedOut).toBe(true);
    expect(stub.calls).toHaveLength(1);
  });

  it('a per-call timeoutMs overrides the client’s', async () => {
    const { crm } = await clientVia(
      (call, res) => {
        setTimeout(() => void proxy(apiUrl, call, res), 300);
      },
      { timeoutMs: 100, maxRetries: 0 },
    );
    await expect(crm.users.me()).rejects.toBeInstanceOf(ConnectionError);
    expect((await crm.users.me({ timeoutMs: 10_000 })).id).toBe(ws.userId);
  });
});

describe('the wait of a 429 without Retry-After', () => {
  it('is the N초 its reason names, as the live API words it', () => {
    const error = errorFromResponse(
      429,
      {},
      {
        success: false,
        message: '요청이 너무 많습니다.',
        reason: '3초 후 재시도해주세요.',
      },
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3);
    // The header, when there is one, says it; a reason without seconds says nothing.
    const both = errorFromResponse(
      429,
      { 'retry-after': '7' },
      { reason: '3초 후 재시도해주세요.' },
    );
    expect((both as RateLimitError).retryAfter).toBe(7);
    const none = errorFromResponse(429, {}, { reason: '잠시 후 다시 시도해 주세요.' });
    expect((none as RateLimitError).retryAfter).toBeUndefined();
  });
});

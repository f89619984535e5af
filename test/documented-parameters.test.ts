/**
 * Every query parameter the OpenAPI document gives an operation is one the operation reads:
 * a request using it (a plausible value, path ids of a seeded workspace) succeeds and never
 * names it in `X-Ignored-Parameters`, the header of the parameters a route ignores. A
 * parameter documented but ignored answers every record where a client asked for some.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import type { Operation } from '../src/api-schema/operations/operation.ts';
import { MEMO_TYPE_IDS } from '../src/domain/memo-types.ts';
import { prepare, send } from './fuzz/check.ts';
import { type Fixture, makeFixture } from './fuzz/fixture.ts';
import { type Req, VALID } from './fuzz/valid.ts';
import { get, post, type TestStore, testApp, testStore } from './helpers.ts';
import { type Receiver, startReceiver } from './webhook-fixtures.ts';

registerFormats();

let store: TestStore;
let app: FastifyInstance;
let receiver: Receiver;
let fx: Fixture;

beforeAll(async () => {
  store = await testStore();
  receiver = await startReceiver();
  app = await testApp(store, { webhookAllowPrivate: true });
  fx = await makeFixture(store, app, receiver.url);
  // Two history rows of each type at least, so that its lists have a second page.
  for (const type of ['people', 'organization', 'deal', 'lead'] as const) {
    for (const name of ['이력 하나', '이력 둘']) {
      const id = fx.m.ids[type][0];
      const res = await post(app, fx.m.ws.token, `/v2/${type}/${id}`, { name: `${name} ${type}` });
      expect(res.status, res.text).toBe(200);
    }
  }
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await store?.dispose();
});

/** Valid requests of `op`, the same on every run. */
function samples(op: Operation): Req[] {
  const generator = VALID[op.operationId];
  if (!generator) throw new Error(`no generator of valid requests for ${op.operationId}`);
  return fc.sample(generator(fx), { numRuns: 60, seed: 20240408 });
}

/**
 * A request of `op` using `name` with a value the operation should act on: one of its valid
 * requests that uses it (on its own path: some parameters belong to some paths), else the
 * one with the fewest parameters and a value made here from the seeded workspace.
 */
function requestWith(op: Operation, name: string, valid: readonly Req[]): Req | undefined {
  const fewest = (reqs: Req[]) =>
    [...reqs].sort((a, b) => (a.query?.length ?? 0) - (b.query?.length ?? 0))[0];
  const using = fewest(valid.filter((req) => req.query?.some(([k]) => k === name)));
  if (using) {
    const value = using.query!.find(([k]) => k === name)![1];
    return withQuery(op, using, [[name, value]]);
  }
  const ids = fx.m.ids;
  const made: Record<string, string | undefined> = {
    ownerId: fx.m.ws.userId,
    typeId: MEMO_TYPE_IDS[1],
    limit: '2',
    startDate: '2024-01-01',
    endDate: '2030-12-31',
    dealId: ids.deal[0],
    leadId: ids.lead[0],
    peopleId: ids.people[0],
    organizationId: ids.organization[0],
  };
  const value = made[name];
  return value === undefined ? undefined : withQuery(op, fewest([...valid])!, [[name, value]]);
}

/** The request with only its required query parameters, and `extra`. */
function withQuery(op: Operation, req: Req, extra: [string, string][]): Req {
  const required = new Set(op.query.filter((q) => q.required).map((q) => q.name));
  const names = new Set(extra.map(([k]) => k));
  const kept = (req.query ?? []).filter(([k]) => required.has(k) && !names.has(k));
  return { ...req, query: [...kept, ...extra] };
}

/**
 * A request of `op` with a cursor the operation itself handed out: a page of one of each
 * valid request in turn, until one has more after it; else a cursor the fixture took.
 */
async function requestWithCursor(op: Operation, valid: readonly Req[]): Promise<Req | undefined> {
  const pageOfOne = op.query.some((q) => q.name === 'limit');
  for (const req of valid) {
    const small = withQuery(op, req, pageOfOne ? [['limit', '1']] : []);
    if (op.method === 'POST' && small.body && typeof small.body === 'object') {
      small.body = { ...(small.body as object), limit: 1 };
    }
    const sent = await prepare(fx, small);
    const res = await send(app, fx.m.ws.token, sent);
    if (res.statusCode !== 200) continue;
    const data = res.json().data ?? {};
    const cursor = data.nextCursor ?? data.nextCurosr;
    // The request as sent (tokens made real), so the cursor's scope is the same.
    if (typeof cursor === 'string') {
      const [path, query = ''] = sent.url.split('?');
      const params = [...new URLSearchParams(query)].filter(([k]) => k !== 'limit');
      return {
        ...small,
        path: path!,
        query: [...params, ['cursor', cursor]],
        ...(sent.payload === undefined ? {} : { body: JSON.parse(String(sent.payload)) }),
      };
    }
  }
  const taken = fx.cursors.find((c) => c.of === 'm' && matches(op.path, c.path));
  return taken && { method: op.method, path: taken.path, query: [['cursor', taken.cursor]] };
}

/** Whether `path` is one of the document's `template` (`/v2/webForm/{webFormId}/submit`). */
function matches(template: string, path: string): boolean {
  const pattern = template.replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path.split('?')[0]!);
}

it('no operation of the document ignores a query parameter it documents', async () => {
  const doc = (await get(app, null, '/openapi.json')).json as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const documented = new Set(
    Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId)),
  );
  const operations = OPERATIONS.filter((op) => documented.has(op.operationId));
  expect(operations.length).toBe(documented.size);
  const problems: string[] = [];
  let checked = 0;
  for (const op of operations) {
    if (op.query.length === 0) continue;
    const valid = samples(op);
    for (const parameter of op.query) {
      const name = parameter.name;
      const req =
        name === 'cursor' ? await requestWithCursor(op, valid) : requestWith(op, name, valid);
      if (req === undefined) {
        problems.push(`${op.method} ${op.path} ?${name}: no value to try`);
        continue;
      }
      const sent = await prepare(fx, req);
      const res = await send(app, fx.m.ws.token, sent);
      const ignored = String(res.headers['x-ignored-parameters'] ?? '').split(',');
      checked += 1;
      if (res.statusCode >= 400) {
        problems.push(`${sent.method} ${sent.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      } else if (ignored.includes(name)) {
        problems.push(`${sent.method} ${sent.url}: X-Ignored-Parameters names ${name}`);
      }
    }
  }
  expect(problems).toEqual([]);
  // Every list's cursor and limit at least, and the filters.
  expect(checked).toBeGreaterThan(60);
}, 120_000);

/**
 * The operation fuzz, run in parts (`test/fuzz-operations-*.test.ts`, one file each, so that
 * the test runner spreads them over its workers). Fuzzing of every operation of the OpenAPI document (fast-check): valid requests made from
 * each operation's parameters and body schema must get its success status and match its
 * response schema; invalid ones (`test/fuzz/invalid.ts`) must be refused with 400, 404, 413 or
 * 415 in the operation's error shape, never a 5xx, never with the other workspace's data, and
 * a refused request changes no row of any table. `FUZZ_RUNS` sets the cases of each kind per
 * operation (20 in `npm test`, 100 in `npm run test:slow`; `npm run fuzz` runs 10,000), `FUZZ_SEED`
 * replays or varies a run.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFormats } from '../../src/api-schema/formats.ts';
import { OPERATIONS } from '../../src/api-schema/operations/index.ts';
import type { Operation } from '../../src/api-schema/operations/operation.ts';
import { get, type TestStore, testApp, testStore } from '../helpers.ts';
import { type SmtpSink, startSmtpSink } from '../smtp-sink.ts';
import { tableSnapshot } from '../table-snapshot.ts';
import { type Receiver, startReceiver } from '../webhook-fixtures.ts';
import {
  checkNoForeignData,
  checkRefusal,
  checkSuccess,
  describeCase,
  prepare,
  send,
} from './check.ts';
import { type Fixture, makeFixture } from './fixture.ts';
import { invalidRequests } from './invalid.ts';
import { VALID } from './valid.ts';

registerFormats();

// 20 cases a kind in `npm test`, 100 in `npm run test:slow`, what `FUZZ_RUNS` says otherwise.
const RUNS = Number(
  process.env.FUZZ_RUNS ?? (process.env.SALESCRM_TEST_TIER === 'slow' ? 100 : 20),
);
const SEED = Number(process.env.FUZZ_SEED ?? 20240408);
/**
 * Generous: a refused write's case counts every table's rows (its snapshot), and by the
 * end of a 10,000-case run the earlier operations' valid cases have made hundreds of
 * thousands of rows: on SQLite, part 4's invalid batch updates took 780 s (against 1,060
 * at 0.1 s a case).
 */
const TIMEOUT = 60_000 + RUNS * 250;

/**
 * Operations each of whose cases rewrites every stored record of a type (a field is a key of
 * every record of its type), so a case costs in proportion to the records the part's earlier
 * operations made: on PostgreSQL at 1,000 cases, 1,000 valid `createField`s took 171 s
 * after them (17 ms a case alone), and its invalid cases passed the 310 s timeout.
 */
const REWRITES_RECORDS = new Set(['createField', 'updateField']);

/** The timeout of a test of `op`'s cases. */
function timeoutOf(op: Operation): number {
  return REWRITES_RECORDS.has(op.operationId) ? 3 * TIMEOUT : TIMEOUT;
}

/** What a test's last checks after its cases may take (snapshots of every table). */
const CHECKS_AFTER_MS = 20_000;

/**
 * fast-check's options for `op`'s cases. The property stops starting cases in time for the
 * test to end before its timeout, and fails saying how many it ran: a test that timed out
 * instead would leave its cases running on beside the next tests, whose "changes nothing"
 * checks then fail on its writes (a slow PostgreSQL run at 1,000 cases failed six such
 * tests after one timed out).
 */
function runOptions(op: Operation) {
  return {
    numRuns: RUNS,
    seed: SEED,
    endOnFailure: true,
    interruptAfterTimeLimit: timeoutOf(op) - CHECKS_AFTER_MS,
    markInterruptAsFailure: true,
  };
}

/**
 * Runs `check` on `op`'s `cases` with `runOptions`. An interrupted property does not wait
 * for the case it was running: this does, so that none of its requests lands in the next test.
 */
async function checkCases<T>(
  op: Operation,
  cases: fc.Arbitrary<T>,
  check: (c: T) => Promise<void>,
): Promise<void> {
  let running: Promise<void> | undefined;
  try {
    await fc.assert(
      fc.asyncProperty(cases, (c) => {
        running = check(c);
        return running;
      }),
      runOptions(op),
    );
  } finally {
    await running?.catch(() => {});
  }
}

/**
 * A long run (`npm run fuzz`) says as it goes which operation passed its cases and in how
 * long: a run of hours that is stopped still tells what it covered.
 */
function progress(kind: string, op: Operation, started: number): void {
  if (RUNS <= 100) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `fuzz: ${op.operationId}: ${RUNS.toLocaleString('en-US')} ${kind} cases passed in ${seconds} s`,
  );
}

/**
 * Lets the event loop turn. An answer of `inject` finishes in a `setImmediate` that holds
 * its payload, and a run of cases that never waits on I/O (reads of SQLite, the document)
 * never reaches the loop's immediates: 10,000 `GET /openapi.json` held 13 GB until the
 * worker ran out of heap. Each case ends here, as each request of a real client would.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fuzzes part `part` (from 0) of `parts` of the document's operations, in their order, in a
 * store and fixture of its own; part 0 also checks that every operation has a generator.
 */
export function fuzzOperations(part: number, parts: number): void {
  let store: TestStore;
  let app: FastifyInstance;
  let receiver: Receiver;
  let fx: Fixture;
  /** Takes the messages of `POST /v2/email`. */
  let smtp: SmtpSink;

  beforeAll(async () => {
    store = await testStore();
    receiver = await startReceiver();
    smtp = await startSmtpSink();
    app = await testApp(
      store,
      { webhookAllowPrivate: true, smtpUrl: smtp.url },
      { webhookVerifyTimeoutMs: 2000 },
    );
    fx = await makeFixture(store, app, receiver.url);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await smtp?.close();
    await store?.dispose();
  });

  /** The other workspace's rows and data_version: no request of the fuzz may change them. */
  async function foreignSnapshot(): Promise<Record<string, number>> {
    const all = await tableSnapshot(store);
    return Object.fromEntries(Object.entries(all).filter(([k]) => k.endsWith(fx.o.ws.workspaceId)));
  }

  /**
   * Runs before each case of an operation that needs room (an invalid case may be taken, and
   * make a webhook or a field); true when it changed rows.
   */
  const BEFORE: Record<string, () => Promise<boolean>> = {
    createWebhook: () => fx.trimWebhooks(),
    createField: () => fx.trimFields(),
    updateField: () => fx.trimFields(),
  };

  /** Operations whose valid requests are not generated: none, so every new operation needs one. */
  const NOT_YET_FUZZED = new Set<string>();

  describe.runIf(part === 0)('the fuzz covers the document', () => {
    it('every operation of GET /openapi.json has a generator of valid requests', async () => {
      const doc = (await get(app, null, '/openapi.json')).json;
      const ids = Object.values(
        doc.paths as Record<string, Record<string, { operationId: string }>>,
      ).flatMap((item) => Object.values(item).map((o) => o.operationId));
      expect(ids.sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
      expect(ids.filter((id) => !VALID[id] && !NOT_YET_FUZZED.has(id))).toEqual([]);
    });
  });

  const fuzzed = OPERATIONS.filter((op) => !NOT_YET_FUZZED.has(op.operationId));
  const size = Math.ceil(fuzzed.length / parts);
  describe.each(
    fuzzed.slice(part * size, (part + 1) * size).map((op) => [op.operationId, op] as const),
  )('%s', (_id, op: Operation) => {
    it(
      `valid requests of ${op.method} ${op.path} succeed in the response schema`,
      async () => {
        const started = performance.now();
        const generator = VALID[op.operationId];
        if (!generator) throw new Error(`no generator of valid requests for ${op.operationId}`);
        const foreign = await foreignSnapshot();
        let followed = 0;
        await checkCases(op, generator(fx), async (req) => {
          await BEFORE[op.operationId]?.();
          const sent = await prepare(fx, req);
          const res = await send(app, fx.m.ws.token, sent);
          const context = describeCase(op.operationId, sent, res);
          checkSuccess(op, res, context);
          checkNoForeignData(res, sent, fx, context);
          // The next page, through the cursor the answer gave.
          const data = op.response && res.json().data;
          const cursor = data?.nextCursor ?? data?.nextCurosr;
          if (typeof cursor === 'string' && op.query.some((q) => q.name === 'cursor')) {
            const next = {
              ...sent,
              url: `${sent.url}${sent.url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`,
            };
            const page = await send(app, fx.m.ws.token, next);
            const pageContext = describeCase(`${op.operationId} next page`, next, page);
            checkSuccess(op, page, pageContext);
            checkNoForeignData(page, next, fx, pageContext);
            followed += 1;
          }
          await turn();
        });
        expect(await foreignSnapshot()).toEqual(foreign);
        // At 100 cases and more, the draws reach a second page of every list; at the 20 of
        // `npm test`, a list with filters may by chance never have one.
        const paged =
          op.query.some((q) => q.name === 'cursor') && op.operationId !== 'searchObjects';
        if (paged && RUNS >= 100) {
          expect(followed, 'some valid requests reached a second page').toBeGreaterThan(0);
        }
        progress('valid', op, started);
      },
      timeoutOf(op),
    );

    it(
      `invalid requests of ${op.method} ${op.path} are refused in shape ${op.errorShape} and change nothing`,
      async () => {
        const started = performance.now();
        const generator = VALID[op.operationId];
        if (!generator) throw new Error(`no generator of valid requests for ${op.operationId}`);
        const foreign = await foreignSnapshot();
        const before = op.method === 'GET' ? await tableSnapshot(store) : undefined;
        const seen = new Map<number, number>();
        // The rows as the last case left them: a refused case changes nothing, so its snapshot
        // after is the next case's before, unless the next case made records for itself.
        let known: Record<string, number> | undefined;
        await checkCases(op, invalidRequests(op, fx, generator(fx)), async (bad) => {
          const made = fx.made;
          if (await BEFORE[op.operationId]?.()) known = undefined;
          const sent = await prepare(fx, bad.req);
          if (fx.made !== made) known = undefined;
          const snapshot =
            op.method === 'POST' ? (known ?? (await tableSnapshot(store))) : undefined;
          known = undefined;
          const res = await send(app, fx.m.ws.token, sent);
          await turn();
          const context = describeCase(`${op.operationId} ${bad.why}`, sent, res);
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) throw new Error(`a 5xx: ${context}`);
          checkNoForeignData(res, sent, fx, context);
          const refused = res.statusCode >= 400;
          // A JSON-RPC message without an id is a notification: accepted, no answer.
          if (op.mcp && res.statusCode === 202 && res.body === '') return;
          if (bad.expect === 'maybe') {
            if (!refused) return checkSuccess(op, res, context);
            if (![400, 404, 413, 415].includes(res.statusCode))
              throw new Error(`unexpected status: ${context}`);
          } else if (!bad.expect.includes(res.statusCode)) {
            throw new Error(`expected ${bad.expect.join(' or ')}: ${context}`);
          }
          checkRefusal(op, res, context);
          if (snapshot) {
            const after = await tableSnapshot(store);
            expect(after, `changed rows: ${context}`).toEqual(snapshot);
            known = after;
          }
        });
        if (before) expect(await tableSnapshot(store)).toEqual(before);
        expect(await foreignSnapshot()).toEqual(foreign);
        // An operation without parameters or body has only unknown parameters to get wrong,
        // and those are ignored by design.
        const inputs = op.method === 'POST' || op.query.length > 0 || op.path.includes('{');
        if (inputs) {
          expect(
            [...seen.keys()].some((s) => s >= 400),
            'some requests were refused',
          ).toBe(true);
        }
        progress('invalid', op, started);
      },
      timeoutOf(op),
    );
  });
}

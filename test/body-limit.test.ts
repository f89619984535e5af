import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmClient, ValidationError } from '../src/client/index.ts';
import { type TestStore, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { type ServeProcess, startServe } from './serve-process.ts';

// A body over the 1 MiB limit gets its 413 over real sockets, however large (within the
// bound the server reads and discards) and however fast the client writes it: the server
// reads the rest of the body before it closes the connection, so the client's write never
// fails first (EPIPE) and the answer is there to read. The server runs in a process of its
// own, as in production: in the test's process the client's reads and the server's close
// would take turns on one event loop, and the reset would never overtake the answer.

const MiB = 1024 * 1024;
const SIZES = [2, 8, 32];
const TRIES = 12;

let store: TestStore;
let server: ServeProcess;
let ws: TestWorkspace;
let baseUrl: string;

beforeAll(async () => {
  store = await testStore();
  ws = await testWorkspace(store);
  server = await startServe(store.url);
  baseUrl = server.url;
});

afterAll(async () => {
  await server?.stop();
  await store?.dispose();
});

/** A JSON body of about `mib` MiB: a person whose memo is that long. */
function bigBody(mib: number): string {
  return JSON.stringify({ name: '큰 본문', memo: 'x'.repeat(mib * MiB) });
}

describe('a body over 1 MiB', () => {
  for (const mib of SIZES) {
    it(`of ${mib} MiB sent with fetch is answered 413 in shape A, ${TRIES} times of ${TRIES}`, async () => {
      const body = bigBody(mib);
      const outcomes: string[] = [];
      for (let i = 0; i < TRIES; i++) {
        try {
          const res = await fetch(`${baseUrl}/v2/people`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
            body,
          });
          const json = (await res.json()) as { success: boolean; message: string };
          outcomes.push(`${res.status} ${json.success} ${json.message}`);
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          outcomes.push(`no answer: ${cause?.code ?? String(error)}`);
        }
      }
      expect(outcomes).toEqual(
        Array.from({ length: TRIES }, () => '413 false 요청 본문이 1 MiB를 넘습니다.'),
      );
    }, 120_000);

    it(`of ${mib} MiB sent with the typed client throws ValidationError, ${TRIES} times of ${TRIES}`, async () => {
      const crm = new CrmClient({ baseUrl, token: ws.token, maxRetries: 0 });
      const memo = 'x'.repeat(mib * MiB);
      const outcomes: string[] = [];
      for (let i = 0; i < TRIES; i++) {
        try {
          await crm.people.create({ name: '큰 본문', memo });
          outcomes.push('created');
        } catch (error) {
          outcomes.push(
            error instanceof ValidationError
              ? `${error.name} ${error.status}`
              : `${(error as Error).name}: ${(error as Error).message}`,
          );
        }
      }
      expect(outcomes).toEqual(Array.from({ length: TRIES }, () => 'ValidationError 413'));
    }, 120_000);
  }

  it('leaves the server answering, and nothing was written', async () => {
    const res = await fetch(`${baseUrl}/v2/people`, {
      headers: { authorization: `Bearer ${ws.token}` },
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { data: { peopleList: unknown[] } };
    expect(json.data.peopleList).toEqual([]);
  });
});

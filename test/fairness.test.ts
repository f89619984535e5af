// One workspace may not slow another: heavy calls (searches) of a workspace run a few at a
// time, the rest queue behind them and, past the queue, that workspace alone gets `429`; and
// searches run on reader threads with connections of their own, answering what they would
// on the event loop.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchReadAnswer } from '../src/resources/batch/reads.ts';
import { searchPage } from '../src/resources/search/search-page.ts';
import { ReadThreads } from '../src/server/read-threads.ts';
import { makePerson } from './factories.ts';
import {
  get,
  post,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
} from './helpers.ts';

let store: TestStore;
let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  store = await testStore();
  a = await testWorkspace(store, '무거운 워크스페이스');
  b = await testWorkspace(store, '가벼운 워크스페이스');
  for (const w of [a, b]) {
    await w.write(async (t) => {
      for (let i = 0; i < 30; i++) {
        await makePerson(t, { name: `김민준 ${i}`, email: `p${i}@example.com` });
      }
    });
  }
});
afterAll(async () => {
  await store.dispose();
});

const SEARCH = '/v2/object/people/search';
const body = {
  filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '민준' }] }],
  sortList: [{ fieldName: '이메일' }],
  limit: 5,
};

describe('each workspace’s fair share of heavy calls', () => {
  it('queues a workspace’s searches past its bound, refuses past its queue, and leaves the others alone', async () => {
    // Searches that end only when the test says: the gate, not the search, is under test.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let started = 0;
    const runner = {
      async run(_task: string, input: unknown) {
        started++;
        await held;
        return searchPage(store, input as Parameters<typeof searchPage>[1]);
      },
    };
    const gated = await testAppWith(runner, { workspaceHeavyRunning: 1, workspaceHeavyWaiting: 1 });
    try {
      // Three at once: one runs, one waits, and one (whichever arrives last) finds the
      // queue full and is answered at once while the others are held.
      const settled: Awaited<ReturnType<typeof post>>[] = [];
      const three = [0, 1, 2].map(() =>
        post(gated, a.token, SEARCH, body).then((r) => {
          settled.push(r);
          return r;
        }),
      );
      await until(() => settled.length === 1, 'the refusal');
      const refused = settled[0]!;
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json).toMatchObject({ success: false });
      await until(() => started === 1, 'the first search');
      // Another workspace's search is not behind A's: it starts at once.
      const other = post(gated, b.token, SEARCH, body);
      await until(() => started === 2, "the other workspace's search");
      // And its plain reads are answered meanwhile.
      const me = await get(gated, b.token, '/v2/user/me');
      expect(me.status).toBe(200);
      expect(settled).toHaveLength(1);
      release();
      const answers = await Promise.all([...three, other]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
      expect(started).toBe(3);
      // Once A's searches have ended, A may search again.
      expect((await post(gated, a.token, SEARCH, body)).status).toBe(200);
    } finally {
      release();
      await gated.close();
    }
  });
});

describe('batch reads are heavy calls too', () => {
  it('waits behind, or is refused past, the workspace’s searches', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let started = 0;
    const gated = await testAppWith(
      {
        // Searches held until the test says; batch reads answered at once.
        async run(task: string, input: unknown) {
          if (task === 'batchRead') {
            return batchReadAnswer(store, input as Parameters<typeof batchReadAnswer>[1]);
          }
          started++;
          await held;
          return searchPage(store, input as Parameters<typeof searchPage>[1]);
        },
      },
      { workspaceHeavyRunning: 1, workspaceHeavyWaiting: 0 },
    );
    try {
      const search = post(gated, a.token, SEARCH, body);
      await until(() => started === 1, 'the search');
      const read = async (w: TestWorkspace) => {
        const page = await get(gated, w.token, '/v2/people?limit=3');
        const idList = (page.json.data.peopleList as { id: string }[]).map((p) => p.id);
        return post(gated, w.token, '/v3/object/read', { objectType: 'people', idList });
      };
      const refused = await read(a);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect((await read(b)).status).toBe(200);
      release();
      expect((await search).status).toBe(200);
      expect((await read(a)).status).toBe(200);
    } finally {
      release();
      await gated.close();
    }
  });
});

describe('searches on reader threads', () => {
  let threads: ReadThreads;
  beforeAll(() => {
    threads = new ReadThreads(store.url, 2);
  });
  afterAll(async () => {
    await threads.close();
  });

  it('answer the same bytes as on the event loop, and the same errors', async () => {
    const onLoop = await testApp(store);
    const onThreads = await testAppWith(threads);
    try {
      const cases = [
        body,
        { ...body, fieldList: ['이메일'] },
        {
          filterGroupList: [{ filters: [{ fieldName: '없는 필드', operator: 'EQ', value: 'x' }] }],
        },
      ];
      for (const c of cases) {
        const here = await post(onLoop, a.token, SEARCH, c);
        const there = await post(onThreads, a.token, SEARCH, c);
        expect(there.status, JSON.stringify(c)).toBe(here.status);
        expect(there.text).toBe(here.text);
      }
      // A cursor made by a thread is read by a thread: the next page follows.
      const first = await post(onThreads, a.token, SEARCH, body);
      const cursor = (first.json as { data: { nextCursor: string } }).data.nextCursor;
      const next = await post(
        onThreads,
        a.token,
        `${SEARCH}?cursor=${encodeURIComponent(cursor)}`,
        body,
      );
      const again = await post(
        onLoop,
        a.token,
        `${SEARCH}?cursor=${encodeURIComponent(cursor)}`,
        body,
      );
      expect(next.status).toBe(200);
      expect(next.text).toBe(again.text);
    } finally {
      await onLoop.close();
      await onThreads.close();
    }
  });

  it('answer batch reads with the same bytes as the event loop, and the same errors', async () => {
    const onLoop = await testApp(store);
    const onThreads = await testAppWith(threads);
    try {
      const page = await get(onLoop, a.token, '/v2/people?limit=20');
      const idList = (page.json.data.peopleList as { id: string }[]).map((p) => p.id);
      const cases = [
        { objectType: 'people', idList },
        { objectType: '고객', idList, fieldList: ['이메일'] },
        { objectType: 'people', idList, fieldList: ['없는 필드'] },
      ];
      for (const c of cases) {
        const here = await post(onLoop, a.token, '/v3/object/read', c);
        const there = await post(onThreads, a.token, '/v3/object/read', c);
        expect(there.status, JSON.stringify(c)).toBe(here.status);
        expect(there.text).toBe(here.text);
      }
      expect(
        (await post(onThreads, a.token, '/v3/object/read', cases[0])).json.data.objectList,
      ).toHaveLength(20);
    } finally {
      await onLoop.close();
      await onThreads.close();
    }
  });

  it('fail their jobs, not hang them, when a thread cannot open the database, and close', async () => {
    const broken = new ReadThreads('sqlite:/nonexistent-salescrm-dir/none/x.db', 1);
    try {
      await expect(broken.run('search', {})).rejects.toThrow();
    } finally {
      await broken.close();
    }
  });

  it('runs many searches at once on its threads and answers each', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        threads.run('search', {
          workspaceId: i % 2 ? a.workspaceId : b.workspaceId,
          catalogVersion: 0,
          cursorSecret: 'x'.repeat(32),
          type: 'people',
          body,
          cursor: undefined,
          deadline: Date.now() + 60_000,
        }),
      ),
    );
    for (const answer of answers) {
      expect(JSON.parse(answer as string).data.objectList).toHaveLength(5);
    }
    expect(threads.waiting).toBe(0);
  });
});

/** The API with searches sent to `runner`. */
function testAppWith(
  runner: { run(task: string, input: unknown): Promise<unknown> },
  config: Parameters<typeof testApp>[1] = {},
) {
  return testApp(store, config, { readThreads: runner });
}

async function until(condition: () => boolean, what = ''): Promise<void> {
  const end = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * `afterWrite` (src/store/write-commits.ts): a store's listeners hear of each write that
 * commits through `writeWorkspace`, whatever made it (here, no HTTP request at all), and of
 * no write that rolls back; `serve` wakes its webhook dispatcher so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterWrite } from '../src/store/write-commits.ts';
import { makePerson } from './factories.ts';
import { type TestStore, type TestWorkspace, testStore, testWorkspace } from './helpers.ts';

let store: TestStore;
let ws: TestWorkspace;

beforeAll(async () => {
  store = await testStore();
  ws = await testWorkspace(store, '커밋 알림');
});
afterAll(async () => {
  await store?.dispose();
});

describe('afterWrite', () => {
  it('calls its listener once a write commits in this process, not for a write rolled back, and no more once stopped', async () => {
    const heard: string[] = [];
    let seen = 0;
    const delivers: boolean[] = [];
    const stop = afterWrite(store, (write) => {
      seen += 1;
      delivers.push(write.delivers);
    });
    // A listener that throws is not the write's error, nor the other listeners' loss.
    const stopThrowing = afterWrite(store, () => {
      throw new Error('듣는 쪽 오류');
    });
    try {
      const id = await ws.write(async (w) => {
        const made = await makePerson(w, { name: '알림 고객' });
        heard.push(`during ${seen}`);
        return made;
      });
      expect(id).toEqual(expect.any(String));
      expect(heard).toEqual(['during 0']);
      expect(seen).toBe(1);
      // The workspace has no webhook: nothing to wake a dispatcher for.
      expect(delivers).toEqual([false]);

      await expect(
        ws.write(async (w) => {
          await makePerson(w, { name: '되돌릴 고객' });
          throw new Error('되돌림');
        }),
      ).rejects.toThrow('되돌림');
      expect(seen).toBe(1);
    } finally {
      stop();
      stopThrowing();
    }
    await ws.write((w) => makePerson(w, { name: '조용한 고객' }));
    expect(seen).toBe(1);
  });
});

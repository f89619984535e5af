import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTEN_BACKLOG } from '../src/server/overload.ts';
import { type TestStore, testStore } from './helpers.ts';
import { startServe } from './serve-process.ts';

/** `ss` (iproute2) shows a listening socket's backlog as its Send-Q; Linux only. */
const ss = spawnSync('ss', ['-V'], { encoding: 'utf8' });
const hasSs = ss.status === 0;

describe.skipIf(!hasSs)('the listening socket of serve', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('holds a backlog of 4,096 connections (as the kernel allows), not Node’s 511', async () => {
    const server = await startServe(store.url);
    try {
      const port = new URL(server.url).port;
      const listed = spawnSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' });
      const [state, , backlog] = listed.stdout.trim().split(/\s+/);
      expect(state).toBe('LISTEN');
      const cap = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
      expect(Number(backlog)).toBe(Math.min(LISTEN_BACKLOG, cap));
      expect(Number(backlog)).toBeGreaterThan(511);
    } finally {
      await server.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Pacer } from './pace.ts';

/** A clock that sleeping moves on. */
function clock() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
    pass: (ms: number) => {
      now += ms;
    },
  };
}

const headers = (remaining: string | null, reset: string | null) => ({
  get: (name: string) =>
    name === 'ratelimit-remaining' ? remaining : name === 'ratelimit-reset' ? reset : null,
});

describe('Pacer', () => {
  it('asks at once while the window has room, and waits for its reset when it has none', async () => {
    const c = clock();
    const pacer = new Pacer(0, c.sleep, c.now);
    await pacer.before();
    pacer.after(headers('1', '8'));
    await pacer.before();
    expect(c.slept).toEqual([]);
    pacer.after(headers('0', '8'));
    await pacer.before();
    expect(c.slept).toEqual([8000]);
    expect(pacer.counts).toEqual({ waits: 1, waitedMs: 8000 });
  });

  it('keeps a set pace for a source without limit headers, and drops it once they come', async () => {
    const c = clock();
    const pacer = new Pacer(4, c.sleep, c.now);
    await pacer.before();
    pacer.after(headers(null, null));
    await pacer.before();
    expect(c.slept).toEqual([250]);
    c.pass(100);
    pacer.after(headers(null, null));
    await pacer.before();
    expect(c.slept).toEqual([250, 150]);
    pacer.after(headers('50', '3'));
    await pacer.before();
    expect(c.slept).toEqual([250, 150]);
  });
});

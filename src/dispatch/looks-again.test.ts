import { describe, expect, it } from 'vitest';
import { LooksAgain } from './looks-again.ts';

describe('LooksAgain', () => {
  it('hands a blocked workspace out once its wait is over, then waits twice as long while it stays blocked, up to the most', () => {
    const looks = new LooksAgain(60, 200);
    expect(looks.untilNext(0)).toBe(Number.POSITIVE_INFINITY);
    looks.looked(['w1', 'w2'], ['w1'], 1_000);
    expect(looks.untilNext(1_010)).toBe(50);
    expect(looks.due(1_059)).toEqual([]);
    expect(looks.due(1_060)).toEqual(['w1']);
    // Handed out once: not again until a claim looks there.
    expect(looks.due(5_000)).toEqual([]);
    expect(looks.untilNext(5_000)).toBe(Number.POSITIVE_INFINITY);
    looks.looked(['w1'], ['w1'], 2_000);
    expect(looks.due(2_119)).toEqual([]);
    expect(looks.due(2_120)).toEqual(['w1']);
    looks.looked(['w1'], ['w1'], 3_000);
    expect(looks.due(3_200)).toEqual(['w1']);
    looks.looked(['w1'], ['w1'], 4_000);
    expect(looks.untilNext(4_000)).toBe(200);
  });

  it('forgets a workspace once a claim there is not blocked: its next block waits the first wait again', () => {
    const looks = new LooksAgain(60, 1_000);
    looks.looked(['w1'], ['w1'], 0);
    looks.looked(['w1'], ['w1'], 100);
    expect(looks.due(100)).toEqual([]);
    expect(looks.untilNext(100)).toBe(120);
    looks.looked(['w1'], [], 200);
    expect(looks.due(10_000)).toEqual([]);
    looks.looked(['w1'], ['w1'], 300);
    expect(looks.untilNext(300)).toBe(60);
  });

  it('hands out each due workspace, and reckons the next from those still waiting', () => {
    const looks = new LooksAgain(60, 1_000);
    looks.looked(['a'], ['a'], 0);
    looks.looked(['b'], ['b'], 30);
    expect(looks.due(60)).toEqual(['a']);
    expect(looks.untilNext(60)).toBe(30);
    expect(looks.due(90)).toEqual(['b']);
  });

  it('forgets every wait past its most workspaces, rather than grow without end', () => {
    const looks = new LooksAgain(60, 1_000, 2);
    looks.looked(['a', 'b'], ['a', 'b'], 0);
    looks.looked(['c'], ['c'], 0);
    expect(looks.due(60)).toEqual(['c']);
  });
});

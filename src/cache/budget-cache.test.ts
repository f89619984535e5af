import { describe, expect, it } from 'vitest';
import { BudgetCache, idleUsesFor } from './budget-cache.ts';

/** Asks for each key in turn `rounds` times, keeping what was missed; the hits of the last round. */
function roundRobin(cache: BudgetCache<string>, keys: string[], rounds: number): number {
  let hits = 0;
  for (let round = 0; round < rounds; round++) {
    hits = 0;
    for (const key of keys) {
      if (cache.get(key) === undefined) cache.set(key, `value of ${key}`, 100);
      else hits += 1;
    }
  }
  return hits;
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

describe('BudgetCache', () => {
  it('keeps every value while the budget has room', () => {
    const cache = new BudgetCache<string>(1_000);
    expect(roundRobin(cache, keys(10), 3)).toBe(10);
    expect(cache.bytes).toBe(1_000);
  });

  it('keeps the values it holds when traffic goes round more keys than fit', () => {
    // Ten fit; twenty asked for in turn. Least recently used eviction would drop each value
    // just before it was asked for again and hit nothing.
    const cache = new BudgetCache<string>(1_000);
    expect(roundRobin(cache, keys(20), 5)).toBe(10);
    expect(cache.size).toBe(10);
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
  });

  it('lets a value unused for the window give way to a new one', () => {
    const cache = new BudgetCache<string>(300, 5);
    for (const key of ['a', 'b', 'c']) cache.set(key, key, 100);
    // Within the window: 'd' is not kept.
    expect(cache.set('d', 'd', 100)).toBe(false);
    expect(cache.has('d')).toBe(false);
    // 'b' and 'c' in use, 'a' unused for five uses: 'd' takes its place.
    for (let i = 0; i < 3; i++) {
      cache.get('b');
      cache.get('c');
    }
    expect(cache.set('d', 'd', 100)).toBe(true);
    expect([...'abcd'].filter((k) => cache.has(k))).toEqual(['b', 'c', 'd']);
  });

  it('replaces the value of a key it holds, full or not', () => {
    const cache = new BudgetCache<string>(200);
    cache.set('a', 'old', 100);
    cache.set('b', 'b', 100);
    expect(cache.set('a', 'new', 100)).toBe(true);
    expect(cache.get('a')).toBe('new');
    expect(cache.bytes).toBe(200);
  });

  it('never keeps a value larger than the budget, nor any in a budget of 0', () => {
    const cache = new BudgetCache<string>(100);
    expect(cache.set('big', 'x', 101)).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.set('nan', 'x', Number.NaN)).toBe(false);
    expect(cache.has('nan')).toBe(false);
    const none = new BudgetCache<string>(0);
    expect(none.set('a', 'a', 1)).toBe(false);
    expect(none.get('a')).toBeUndefined();
  });

  it('remembers a window wider than a budget of small values holds', () => {
    expect(idleUsesFor(0)).toBe(8_192);
    expect(idleUsesFor(256 * 1024 ** 2)).toBe(65_536);
    expect(idleUsesFor(16 * 1024 ** 3)).toBe(262_144);
  });
});

import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.ts';

const page = (n: number) => Buffer.alloc(n, 1);

/** A request as the list handler makes it: a hit, or a render that is offered to the cache. */
function ask(cache: PageCache, key: string, version: number, bytes = page(10)): 'hit' | 'miss' {
  if (cache.get(key, version)) return 'hit';
  cache.set(key, version, bytes);
  return 'miss';
}

/** A cache of `budget` bytes after `count` keys were each asked for twice, pages of `size` bytes. */
function askedTwice(budget: number, count: number, size: number) {
  const cache = new PageCache(budget);
  const keys = Array.from({ length: count }, (_, i) => `workspace${i}`);
  for (const key of keys) ask(cache, key, 1, page(size));
  for (const key of keys) ask(cache, key, 1, page(size));
  return { cache, keys };
}

describe('PageCache', () => {
  it('keeps a page from its second request on', () => {
    const cache = new PageCache(1_000);
    expect(ask(cache, 'a', 1)).toBe('miss');
    expect(cache.has('a')).toBe(false);
    expect(ask(cache, 'a', 1)).toBe('miss');
    expect(cache.has('a')).toBe(true);
    expect(ask(cache, 'a', 1)).toBe('hit');
  });

  it('never keeps the pages of a walk, each asked once', () => {
    const cache = new PageCache(1_000_000);
    for (let i = 0; i < 1_000; i++) expect(ask(cache, `walk?cursor=${i}`, 1)).toBe('miss');
    expect(cache.bytes).toBe(0);
  });

  it('serves a page only at the version it was rendered at, and keeps its newer rendering', () => {
    const cache = new PageCache(1_000);
    ask(cache, 'a', 1, page(10));
    ask(cache, 'a', 1, page(10));
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.has('a')).toBe(false);
    cache.set('a', 2, page(20));
    expect(cache.get('a', 2)?.length).toBe(20);
    expect(cache.bytes).toBe(20);
  });

  it('past its byte budget, puts a new page in place of the least recently used once that one is idle', () => {
    const cache = new PageCache(800);
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
    for (const key of keys) {
      ask(cache, key, 1, page(100));
      ask(cache, key, 1, page(100));
    }
    expect(cache.bytes).toBe(800);
    // Every page held was asked for lately: a new one is not kept in place of one.
    ask(cache, 'k8', 1, page(100));
    ask(cache, 'k8', 1, page(100));
    expect(cache.has('k8')).toBe(false);
    expect(keys.every((k) => cache.has(k))).toBe(true);
    // A window of asks (8,192, the least) for other pages, k0 among the last: now k1 is the
    // least recently used, and idle.
    for (let i = 0; i < 8_192; i++) cache.get(`other${i % 100}`, 1);
    expect(cache.get('k0', 1)).toBeDefined();
    ask(cache, 'k8', 1, page(100));
    expect(cache.has('k8')).toBe(true);
    expect(cache.has('k1')).toBe(false);
    expect([...keys.filter((k) => k !== 'k1'), 'k8'].every((k) => cache.has(k))).toBe(true);
    expect(cache.bytes).toBe(800);
  });

  it('serves most of a round over more pages than its budget holds, where plain LRU would serve none', () => {
    const cache = new PageCache(1_000_000);
    // 1,100 pages of 1,000 bytes, asked for in turn: a tenth more than the budget holds.
    const keys = Array.from({ length: 1_100 }, (_, i) => `workspace${i}`);
    const round = () => keys.filter((key) => ask(cache, key, 1, page(1_000)) === 'hit').length;
    round();
    round();
    expect(cache.bytes).toBe(1_000_000);
    for (let r = 0; r < 5; r++) expect(round()).toBe(1_000);
  });

  it('a page made stale by a write keeps its place at its new version, the budget spent', () => {
    const { cache } = askedTwice(1_000, 10, 100);
    expect(cache.bytes).toBe(1_000);
    expect(ask(cache, 'workspace3', 2, page(100))).toBe('miss');
    expect(cache.get('workspace3', 2)).toBeDefined();
  });

  it('does not keep a page larger than an eighth of the budget', () => {
    const cache = new PageCache(80);
    ask(cache, 'big', 1, page(11));
    ask(cache, 'big', 1, page(11));
    expect(cache.has('big')).toBe(false);
    expect(cache.bytes).toBe(0);
  });

  it('forgets keys asked once after many others, so its memory is bounded', () => {
    const cache = new PageCache(1_000);
    ask(cache, 'first', 1);
    for (let i = 0; i < 10_000; i++) ask(cache, `other${i}`, 1);
    expect(ask(cache, 'first', 1)).toBe('miss');
    expect(cache.has('first')).toBe(false); // asked "once" again
    expect(ask(cache, 'first', 1)).toBe('miss');
    expect(cache.has('first')).toBe(true);
  });

  it('keeps the pages of ten thousand workspaces read in turn, once each was asked twice', () => {
    const cache = new PageCache(64 * 1024 * 1024);
    const keys = Array.from({ length: 10_000 }, (_, i) => `workspace${i}\u0000/v2/people`);
    const round = () => keys.map((key) => ask(cache, key, 1, page(4_000)));
    expect(round().every((r) => r === 'miss')).toBe(true);
    expect(round().every((r) => r === 'miss')).toBe(true); // asked again: kept now
    expect(cache.bytes).toBe(10_000 * 4_000);
    expect(round().every((r) => r === 'hit')).toBe(true);
    expect(cache.hits).toBe(10_000);
  });

  it('remembers one key asked once every 4 KiB of its budget, and forgets those past it', () => {
    const cache = new PageCache(64 * 1024 * 1024);
    ask(cache, 'first', 1);
    for (let i = 0; i < 16_383; i++) ask(cache, `other${i}`, 1);
    expect(ask(cache, 'first', 1)).toBe('miss');
    expect(cache.has('first')).toBe(true); // within the 16,384 keys remembered
    ask(cache, 'second', 1);
    for (let i = 0; i < 16_384; i++) ask(cache, `more${i}`, 1);
    expect(ask(cache, 'second', 1)).toBe('miss');
    expect(cache.has('second')).toBe(false); // past them: asked "once" again
  });

  it('past its budget, keeps the pages it holds while in use, and lets others in as they go idle', () => {
    const { cache, keys } = askedTwice(1_000_000, 5_000, 1_000);
    expect(cache.bytes).toBe(1_000_000);
    // The first to earn a place hold it; the traffic then moves to the last thousand.
    expect(keys.slice(0, 1_000).every((k) => cache.has(k))).toBe(true);
    const last = keys.slice(-1_000);
    for (let r = 0; r < 12; r++) for (const key of last) ask(cache, key, 1, page(1_000));
    expect(last.every((k) => cache.has(k))).toBe(true);
    expect(cache.has(keys[0]!)).toBe(false);
    expect(cache.bytes).toBe(1_000_000);
  });
});

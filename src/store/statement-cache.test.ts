import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedStatement, STATEMENTS_KEPT } from './statement-cache.ts';

describe('the store’s statement caches', () => {
  it('keep a statement by its text, and start over rather than grow past what they keep', () => {
    const conn = new SQLite(':memory:');
    try {
      const cache = new Map<string, SQLite.Statement>();
      const get = (i: number) =>
        cachedStatement(cache, `select ${i}`, () => conn.prepare(`select ${i}`));
      const first = get(0);
      expect(get(0)).toBe(first);
      for (let i = 1; i < STATEMENTS_KEPT; i++) get(i);
      expect(cache.size).toBe(STATEMENTS_KEPT);
      expect(get(0)).toBe(first);
      get(STATEMENTS_KEPT);
      expect(cache.size).toBe(1);
      expect(get(0)).not.toBe(first);
      expect(get(0).pluck().get()).toBe(0);
    } finally {
      conn.close();
    }
  });
});

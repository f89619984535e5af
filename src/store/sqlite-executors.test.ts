import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keptStatement, STATEMENTS_KEPT } from './sqlite-executors.ts';

describe('the store’s statement caches', () => {
  it('prepare a text once, and start over rather than grow past what they keep', () => {
    const conn = new SQLite(':memory:');
    try {
      const cache = new Map<string, SQLite.Statement>();
      let prepared = 0;
      const get = (i: number) =>
        keptStatement(cache, `select ${i}`, () => {
          prepared += 1;
          return conn.prepare(`select ${i}`);
        });
      const first = get(0);
      expect(get(0)).toBe(first);
      expect(prepared).toBe(1);
      for (let i = 1; i <= STATEMENTS_KEPT; i++) get(i);
      expect(cache.size).toBeLessThanOrEqual(STATEMENTS_KEPT);
      expect(get(0)).not.toBe(first);
      expect(get(0).pluck().get()).toBe(0);
      expect(prepared).toBe(STATEMENTS_KEPT + 2);
    } finally {
      conn.close();
    }
  });
});

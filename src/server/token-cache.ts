import { LRUCache } from 'lru-cache';

/**
 * Token lookups a server keeps, least recently used first out once `max` are kept: one a
 * token, so a server of ten thousand workspaces keeps every token in use (a kept lookup is
 * a few hundred bytes). What makes a kept lookup still true is the caller's (`auth.ts`).
 * An `lru-cache`: dropping a Map's oldest key costs more the more keys were dropped before.
 */
export class TokenCache<T extends object> {
  private readonly entries: LRUCache<string, T>;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
  }

  /** The kept lookup of `token`, marked as the most recently used. */
  get(token: string): T | undefined {
    return this.entries.get(token);
  }

  set(token: string, entry: T): void {
    this.entries.set(token, entry);
  }

  get size(): number {
    return this.entries.size;
  }
}

import { LRUCache } from 'lru-cache';

/**
 * Uses a value kept may go without before a new value may take its place: one per 4 KiB of
 * the budget (65,536 for 256 MiB), 8,192 at least and 262,144 at most. It must be wider than
 * the values the budget holds: traffic spread evenly over ten thousand workspaces uses each
 * one's value once in ten thousand uses, and with a narrower window every value would look
 * idle when it was next wanted. A use costs nothing kept; the window only sets how long a
 * value that stopped being used keeps its place.
 */
export function idleUsesFor(maxBytes: number): number {
  return Math.min(262_144, Math.max(8_192, Math.floor(maxBytes / 4096)));
}

/** A value kept, its size, and the cache's count of uses when it was kept or last used. */
interface Kept<V> {
  value: V;
  size: number;
  lastUse: number;
}

/**
 * Values kept in memory within a byte budget, the least recently used dropped first, with
 * one rule for traffic that goes round more keys than the budget holds: once the budget is
 * spent, a new value takes the place of the least recently used one only if that one went
 * unused for `idleUses` uses; else the new value is not kept this time. Traffic spread evenly
 * over more values than fit (requests round robin over ten thousand workspaces) so keeps the
 * values it holds and is served from them; with plain least-recently-used eviction each
 * value would be dropped just before it was wanted again, and none would ever be used twice.
 * Values that stop being used still make room within a window's uses.
 *
 * The rendered list pages (`src/http/page-cache.ts`) and the workspaces' catalogs
 * (`src/store/catalog.ts`) are kept so.
 */
export class BudgetCache<V> {
  private readonly kept: LRUCache<string, Kept<V>>;
  /** Lookups so far: the clock of `Kept.lastUse`. */
  private uses = 0;

  // An `lru-cache`: dropping a Map's oldest key (`keys().next()`) walks past every key
  // dropped before it until the Map is rebuilt, which made each new key cost 9 µs at 8,192
  // keys and 58 µs at 65,536.
  constructor(
    private readonly maxBytes: number,
    private readonly idleUses = idleUsesFor(maxBytes),
  ) {
    this.kept = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (kept) => kept.size,
    });
  }

  /** The value kept for `key`, marked the most recently used; each call is a use. */
  get(key: string): V | undefined {
    this.uses += 1;
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    kept.lastUse = this.uses;
    return kept.value;
  }

  /**
   * Keeps `value` (about `size` bytes) for `key` when there is room in the budget, the key
   * has a value kept already, or the least recently used value went unused for the window;
   * says whether it did. A value larger than the whole budget, or of no size that is a
   * number, is never kept (`lru-cache` would throw on it).
   */
  set(key: string, value: V, size: number): boolean {
    const bytes = Math.max(1, Math.ceil(size));
    if (!(bytes <= this.maxBytes) || !this.hasRoomFor(key, bytes)) return false;
    this.kept.set(key, { value, size: bytes, lastUse: this.uses });
    return true;
  }

  private hasRoomFor(key: string, size: number): boolean {
    if (this.kept.calculatedSize + size <= this.maxBytes || this.kept.has(key)) return true;
    const oldest = this.kept.rvalues().next().value;
    return !oldest || this.uses - oldest.lastUse >= this.idleUses;
  }

  delete(key: string): void {
    this.kept.delete(key);
  }

  /** Whether a value is kept for `key` (not a use). */
  has(key: string): boolean {
    return this.kept.has(key);
  }

  /** Values kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes of the values kept, as their sizes were given. */
  get bytes(): number {
    return this.kept.calculatedSize;
  }
}

import { LRUCache } from 'lru-cache';
import { ReadAhead } from './read-ahead.ts';

/**
 * Keys remembered for admission: one every 4 KiB of the budget (65,536 for
 * 256 MiB), 8,192 at least and 262,144 at most. A page is kept when it is asked for again
 * within that many other keys, so the window must be wider than the pages the budget holds:
 * traffic spread evenly over ten thousand workspaces asks for each one's page once in ten
 * thousand keys, and with a narrower window no page of theirs would ever be kept (a list
 * page of 20 records is about 25 KB). A remembered key costs about a tenth of a KiB.
 */
function admissionKeys(maxBytes: number): number {
  return Math.min(262_144, Math.max(8_192, Math.floor(maxBytes / 4096)));
}

/** A page kept: the data version it was rendered at, its bytes, when it was last asked for. */
interface KeptPage {
  version: number;
  bytes: Buffer;
  /** The cache's count of asks when the page was kept or last served. */
  lastAsk: number;
}

/**
 * Rendered list pages kept in memory, each tagged with the workspace's data version when
 * it was rendered. A page is served again only while the version is unchanged, so a write
 * (in this process or any other) is seen on the next request.
 *
 * A page is kept only when it is asked for a second time (or was kept before a write made
 * it stale): a cursor walk reads each page once, and caching those would only push the hot
 * pages out and give the garbage collector a budget's worth of buffers to chase.
 *
 * Once the byte budget is spent, a new page takes the place of the least recently used one
 * only if that one has not been asked for within the last asks of the admission window (one
 * per key it remembers); else the new page is not kept this time. Traffic that goes round
 * more pages than the budget holds (requests spread evenly over ten thousand workspaces
 * whose pages outgrew it) so keeps the pages it holds and is served from them: with plain
 * least-recently-used eviction each page would be dropped just before it was asked for
 * again, and none would ever be served. Pages that stop being asked for still make room
 * within a window's asks.
 */
export class PageCache {
  private readonly pages: LRUCache<string, KeptPage>;
  /** Keys asked for once and not kept yet, least recently asked first; `true` once asked again. */
  private readonly asked: LRUCache<string, boolean>;
  /** Pages read ahead of cursor walks, which are never asked for twice. */
  readonly readAhead = new ReadAhead();
  /** Lookups answered with a kept page, and those that were not (for metrics). */
  hits = 0;
  misses = 0;
  /** Lookups so far: the clock of `KeptPage.lastAsk`. */
  private asks = 0;
  /** Asks a page kept goes without being asked for before a new page may take its place. */
  private readonly idleAsks: number;

  // Both are `lru-cache`s: dropping a Map's oldest key (`keys().next()`) walks past every key
  // dropped before it until the Map is rebuilt, which made each new key cost 9 µs at 8,192
  // keys and 58 µs at 65,536.
  constructor(private readonly maxBytes: number) {
    this.pages = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (page) => Math.max(1, page.bytes.length),
    });
    this.idleAsks = admissionKeys(maxBytes);
    this.asked = new LRUCache({ max: this.idleAsks });
  }

  get(key: string, version: number): Buffer | undefined {
    this.asks += 1;
    // Marks the page as the most recently used.
    const page = this.pages.get(key);
    if (!page) {
      this.misses += 1;
      this.asked.set(key, this.asked.has(key));
      return undefined;
    }
    if (page.version !== version) {
      this.misses += 1;
      this.pages.delete(key);
      this.asked.set(key, true);
      return undefined;
    }
    this.hits += 1;
    page.lastAsk = this.asks;
    return page.bytes;
  }

  /** Keeps a page just rendered for `key`, if the key has earned a place (see above). */
  set(key: string, version: number, bytes: Buffer): void {
    if (this.asked.get(key) !== true) return;
    if (bytes.length > this.maxBytes / 8) {
      this.asked.delete(key);
      return;
    }
    // Not kept while the pages held are in use: still asked twice, it tries again at its
    // next rendering.
    if (!this.hasRoomFor(key, bytes.length)) return;
    this.asked.delete(key);
    this.pages.set(key, { version, bytes, lastAsk: this.asks });
  }

  /**
   * Whether a page of `size` bytes for `key` may be kept: there is room in the budget, or
   * the least recently used page has not been asked for in `idleAsks` asks.
   */
  private hasRoomFor(key: string, size: number): boolean {
    if (this.pages.calculatedSize + size <= this.maxBytes || this.pages.has(key)) return true;
    const oldest = this.pages.rvalues().next().value;
    return !oldest || this.asks - oldest.lastAsk >= this.idleAsks;
  }

  /** Whether a page is kept for `key` (at any version). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  get bytes(): number {
    return this.pages.calculatedSize;
  }
}

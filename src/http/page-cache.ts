import { LRUCache } from 'lru-cache';
import { BudgetCache, idleUsesFor } from '../cache/budget-cache.ts';
import { ReadAhead } from './read-ahead.ts';

/** A page kept: the data version it was rendered at, and its bytes. */
interface KeptPage {
  version: number;
  bytes: Buffer;
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
 * only if that one has not been asked for within the admission window (`BudgetCache`); else
 * the new page is not kept this time. Traffic that goes round more pages than the budget
 * holds (requests spread evenly over ten thousand workspaces whose pages outgrew it) so keeps
 * the pages it holds and is served from them.
 */
export class PageCache {
  private readonly pages: BudgetCache<KeptPage>;
  /**
   * Keys asked for once and not kept yet, least recently asked first; `true` once asked
   * again. As many as the window of `pages`: a page is kept when it is asked for again
   * within that many other keys. A remembered key costs about a tenth of a KiB.
   */
  private readonly asked: LRUCache<string, boolean>;
  /** Pages read ahead of cursor walks, which are never asked for twice. */
  readonly readAhead = new ReadAhead();
  /** Lookups answered with a kept page, and those that were not (for metrics). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {
    this.pages = new BudgetCache(maxBytes);
    this.asked = new LRUCache({ max: idleUsesFor(maxBytes) });
  }

  get(key: string, version: number): Buffer | undefined {
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
    if (this.pages.set(key, { version, bytes }, bytes.length)) this.asked.delete(key);
  }

  /** Whether a page is kept for `key` (at any version). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  get bytes(): number {
    return this.pages.bytes;
  }
}

import { ReadAhead } from './read-ahead.ts';

/** Keys remembered for admission: enough for every hot page of many workspaces. */
const ADMISSION_KEYS = 8_192;

/**
 * Rendered list pages kept in memory, each tagged with the workspace's data version when
 * it was rendered. A page is served again only while the version is unchanged, so a write
 * (in this process or any other) is seen on the next request. Least recently used pages
 * go first once the byte budget is spent.
 *
 * A page is kept only when it is asked for a second time (or was kept before a write made
 * it stale): a cursor walk reads each page once, and caching those would only push the hot
 * pages out and give the garbage collector a budget's worth of buffers to chase.
 */
export class PageCache {
  private readonly pages = new Map<string, { version: number; bytes: Buffer }>();
  /** Keys asked for once and not kept yet, oldest first; `true` once asked again. */
  private readonly asked = new Map<string, boolean>();
  private size = 0;
  /** Pages read ahead of cursor walks, which are never asked for twice. */
  readonly readAhead = new ReadAhead();
  /** Lookups answered with a kept page, and those that were not (for metrics). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page) {
      this.misses += 1;
      this.remember(key, this.asked.has(key));
      return undefined;
    }
    if (page.version !== version) {
      this.misses += 1;
      this.delete(key, page.bytes.length);
      this.remember(key, true);
      return undefined;
    }
    this.hits += 1;
    // Re-insert to mark as recently used.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page.bytes;
  }

  /** Keeps a page just rendered for `key`, if the key has earned a place (see above). */
  set(key: string, version: number, bytes: Buffer): void {
    if (this.asked.get(key) !== true) return;
    this.asked.delete(key);
    if (bytes.length > this.maxBytes / 8) return;
    const old = this.pages.get(key);
    if (old) this.delete(key, old.bytes.length);
    this.pages.set(key, { version, bytes });
    this.size += bytes.length;
    while (this.size > this.maxBytes) {
      const oldest = this.pages.entries().next().value;
      if (!oldest) break;
      this.delete(oldest[0], oldest[1].bytes.length);
    }
  }

  /** Whether a page is kept for `key` (at any version). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  get bytes(): number {
    return this.size;
  }

  private remember(key: string, again: boolean): void {
    this.asked.delete(key);
    this.asked.set(key, again);
    if (this.asked.size > ADMISSION_KEYS) this.asked.delete(this.asked.keys().next().value!);
  }

  private delete(key: string, length: number): void {
    this.pages.delete(key);
    this.size -= length;
  }
}

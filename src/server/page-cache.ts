/**
 * Rendered list pages kept in memory, each tagged with the workspace's data version when
 * it was rendered. A page is served again only while the version is unchanged, so a write
 * (in this process or any other) is seen on the next request. Least recently used pages
 * go first once the byte budget is spent.
 */
export class PageCache {
  private readonly pages = new Map<string, { version: number; bytes: Buffer }>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.version !== version) {
      this.delete(key, page.bytes.length);
      return undefined;
    }
    // Re-insert to mark as recently used.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page.bytes;
  }

  set(key: string, version: number, bytes: Buffer): void {
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

  private delete(key: string, length: number): void {
    this.pages.delete(key);
    this.size -= length;
  }
}

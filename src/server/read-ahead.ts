import type { RenderedPage } from './list.ts';

/** Walks read ahead at once, at most: one page each, so memory stays a few MB. */
const WALKS = 64;

/**
 * Pages read ahead of cursor walks. Once a list page with more records after it is sent,
 * the next page is read from the store and rendered in the background, while the client
 * takes in the page it has; when the client asks for it with the cursor it was given, it
 * is ready. Every page is still read and rendered once: the store's work overlaps the
 * client's instead of waiting for it. A page read ahead is served only while the
 * workspace's data version is the one it was read at, like the page cache's pages, and a
 * page that no client comes for is dropped once newer walks need the room.
 */
export class ReadAhead {
  private readonly pages = new Map<
    string,
    { version: number; page: Promise<RenderedPage | undefined> }
  >();

  /** Takes the page read ahead for `key` at `version`, if there is one. */
  take(key: string, version: number): Promise<RenderedPage | undefined> | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    this.pages.delete(key);
    return entry.version === version ? entry.page : undefined;
  }

  /**
   * Reads a page ahead, after the current request's answer is on its way. A failure is
   * dropped: the client's own request reads the page again and gets the error itself.
   */
  start(key: string, version: number, render: () => Promise<RenderedPage>): void {
    if (this.pages.has(key)) return;
    const page = new Promise<RenderedPage | undefined>((resolve) => {
      setImmediate(() => render().then(resolve, () => resolve(undefined)));
    });
    this.pages.set(key, { version, page });
    if (this.pages.size > WALKS) this.pages.delete(this.pages.keys().next().value!);
  }

  /** Pages waiting for their walk. */
  get size(): number {
    return this.pages.size;
  }
}

import type { RenderedPage } from './list-page.ts';

/** Walks read ahead at once, at most: one page each. */
const WALKS = 64;
/** Bytes of pages read ahead, at most: the oldest go first past it. */
const MAX_BYTES = 16 * 1024 * 1024;

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
    { version: number; page: Promise<RenderedPage | undefined>; bytes: number }
  >();
  private bytes = 0;

  /** Takes the page read ahead for `key` at `version`, if there is one. */
  take(key: string, version: number): Promise<RenderedPage | undefined> | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    this.drop(key);
    return entry.version === version ? entry.page : undefined;
  }

  /**
   * Reads a page ahead, after the current request's answer is on its way. A failure is
   * dropped: the client's own request reads the page again and gets the error itself.
   */
  start(key: string, version: number, render: () => Promise<RenderedPage>): void {
    if (this.pages.has(key)) return;
    const entry = {
      version,
      page: undefined as unknown as Promise<RenderedPage | undefined>,
      bytes: 0,
    };
    entry.page = new Promise<RenderedPage | undefined>((resolve) => {
      setImmediate(() =>
        render().then(
          (rendered) => {
            // Counted once read, if its walk has not taken or lost it meanwhile.
            if (this.pages.get(key) === entry) {
              entry.bytes = rendered.bytes.length;
              this.bytes += entry.bytes;
              this.trim();
            }
            resolve(rendered);
          },
          () => resolve(undefined),
        ),
      );
    });
    this.pages.set(key, entry);
    this.trim();
  }

  private trim(): void {
    while (this.pages.size > WALKS || (this.bytes > MAX_BYTES && this.pages.size > 0))
      this.drop(this.pages.keys().next().value!);
  }

  private drop(key: string): void {
    const entry = this.pages.get(key);
    if (!entry) return;
    this.pages.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Pages waiting for their walk. */
  get size(): number {
    return this.pages.size;
  }

  /** Bytes of the pages read and waiting. */
  get heldBytes(): number {
    return this.bytes;
  }
}

import type { CallOptions, QueryValues, Transport } from './transport.ts';

/** One page of a list. */
export interface Page<T> {
  /** The page's records, in the list's order. */
  items: T[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/** Options of `.page()`. */
export interface PageOptions extends CallOptions {
  /** The cursor a previous page returned; none for the first page. */
  cursor?: string | null;
  /** Records per page (the server's default is 50, at most 100). */
  limit?: number;
}

/** Options of `.toArray()`: `max` is required, so a list never fills memory unbounded. */
export interface ToArrayOptions extends CallOptions {
  /** Stop after this many records. */
  max: number;
}

/** The page's cursor, under either spelling (deal and lead lists say `nextCurosr`). */
function cursorOf(data: Record<string, unknown>): string | null {
  const next = data.nextCursor ?? data.nextCurosr;
  return typeof next === 'string' && next !== '' ? next : null;
}

/**
 * A list endpoint with its filters: an async iterable over every record (it follows the
 * cursor page by page, fetching the next page only when the previous one is used up),
 * with `.page()` for one page, `.pages()` for page by page, and `.toArray({ max })`.
 */
export class ListRequest<T> implements AsyncIterable<T> {
  readonly #transport: Transport;
  readonly #path: string;
  readonly #listKey: string;
  readonly #query: QueryValues;
  readonly #options: CallOptions & { limit?: number };
  readonly #body: Record<string, unknown> | undefined;

  constructor(
    transport: Transport,
    path: string,
    listKey: string,
    query: QueryValues,
    options: CallOptions & { limit?: number } = {},
    /** For a list read by POST (a search): its body, to which each page adds `limit`. */
    body?: Record<string, unknown>,
  ) {
    this.#transport = transport;
    this.#path = path;
    this.#listKey = listKey;
    this.#query = query;
    this.#options = options;
    this.#body = body;
  }

  /** One page: the first, or the one `cursor` points at. */
  async page(options: PageOptions = {}): Promise<Page<T>> {
    const { cursor, limit, ...call } = { ...this.#options, ...options };
    const data = await this.#transport.request<Record<string, unknown>>(
      this.#body ? 'POST' : 'GET',
      this.#path,
      this.#body
        ? {
            ...call,
            query: { ...this.#query, cursor: cursor ?? undefined },
            body: limit === undefined ? this.#body : { ...this.#body, limit },
          }
        : { ...call, query: { ...this.#query, limit, cursor: cursor ?? undefined } },
    );
    const items = data?.[this.#listKey];
    if (!Array.isArray(items))
      throw new TypeError(`answer of ${this.#path} has no '${this.#listKey}' array`);
    return { items: items as T[], nextCursor: cursorOf(data) };
  }

  /** Every page in turn, from the first (or from `cursor`) to the last. */
  async *pages(options: PageOptions = {}): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = options.cursor ?? null;
    const seen = new Set<string>();
    do {
      const page = await this.page({ ...options, cursor });
      yield page;
      cursor = page.nextCursor;
      // A cursor seen before would walk in a circle: stop rather than loop for ever.
      if (cursor !== null) {
        if (seen.has(cursor))
          throw new Error(`${this.#path} returned the cursor '${cursor}' twice`);
        seen.add(cursor);
      }
    } while (cursor !== null);
  }

  /** Every record, following the cursor. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** The first `max` records (fewer if the list is shorter), following the cursor. */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    const { max, ...call } = options ?? ({} as ToArrayOptions);
    if (!Number.isInteger(max) || max < 0)
      throw new TypeError('toArray: `max` must be a whole number ≥ 0');
    const out: T[] = [];
    if (max === 0) return out;
    // Pages no larger than needed (a cursor is not bound to `limit`, docs/decisions.md, Cursors).
    const limit = this.#options.limit ?? Math.min(100, max);
    for await (const page of this.pages({ limit, ...call })) {
      for (const item of page.items) {
        out.push(item);
        if (out.length >= max) return out;
      }
    }
    return out;
  }
}

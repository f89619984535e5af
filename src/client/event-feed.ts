import type { EventFeedItem } from './events.ts';
import type { CallOptions, Transport } from './transport.ts';

/** The record types the feed can be narrowed to. */
export type EventObjectType = 'people' | 'organization' | 'lead' | 'deal' | 'customObject';

/** Where a walk of the feed starts and what it keeps. */
export interface EventFeedOptions extends CallOptions {
  /** A `nextCursor` from before; none starts at the oldest event kept. */
  cursor?: string | null;
  /** Only this record type's events. */
  objectType?: EventObjectType;
  /** Events per page (50 by default, at most 100). */
  limit?: number;
}

/** One page of the feed. */
export interface EventFeedPage {
  items: EventFeedItem[];
  /** Where the next page starts; at the end, where to poll from later. Never null. */
  nextCursor: string;
  /** Whether more events are waiting now. */
  hasMore: boolean;
}

/**
 * The event feed `GET /v2/event`: an async iterable over every event waiting now, oldest
 * first (it ends when none wait; `cursor` is then where to resume, later, for the next), and
 * `.page()` for one page. A `410` (`GoneError`) means the events after the cursor were pruned.
 */
export class EventFeed implements AsyncIterable<EventFeedItem> {
  readonly #transport: Transport;
  readonly #options: EventFeedOptions;
  #cursor: string | null;

  constructor(transport: Transport, options: EventFeedOptions = {}) {
    this.#transport = transport;
    this.#options = options;
    this.#cursor = options.cursor ?? null;
  }

  /** Where the walk stands: the cursor to resume from (null before the first page). */
  get cursor(): string | null {
    return this.#cursor;
  }

  /** The page at the walk's cursor; the cursor then moves past it. */
  async page(options: CallOptions = {}): Promise<EventFeedPage> {
    const { cursor: _, objectType, limit, ...call } = { ...this.#options, ...options };
    const data = await this.#transport.request<Record<string, unknown>>('GET', '/v2/event', {
      ...call,
      query: { objectType, limit, cursor: this.#cursor ?? undefined },
    });
    const items = data?.eventList;
    if (!Array.isArray(items)) throw new TypeError("answer of /v2/event has no 'eventList' array");
    const next = typeof data.nextCursor === 'string' ? data.nextCursor : (this.#cursor ?? '');
    this.#cursor = next || this.#cursor;
    return { items: items as EventFeedItem[], nextCursor: next, hasMore: data.hasMore === true };
  }

  /** Every event waiting now, page by page; `cursor` is then where to resume. */
  async *[Symbol.asyncIterator](): AsyncGenerator<EventFeedItem, void, undefined> {
    for (;;) {
      const page = await this.page();
      yield* page.items;
      if (!page.hasMore) return;
    }
  }
}

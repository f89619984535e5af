import { PLACED_SEPARATOR } from '../../domain/search-values.ts';
import { matches, type RecordValues } from './filters.ts';
import type { IndexPlan } from './index-plan.ts';
import type { Found, SearchPage, SearchQuery } from './run-search.ts';
import { placeOf } from './sort.ts';

/** Values of one filter a search reads from placed rows at most (one stream each, merged). */
export const MAX_PLACED_VALUES = 8;

/** Rows read per query once the first batch (a page's worth) was not enough. */
const MAX_BATCH = 4_096;

/** A record's place in the list: its creation time and id. */
interface At {
  at: string;
  id: string;
}

/**
 * The placed rows of one value (`PLACED_PREFIX`), in the list's order, read a batch at a
 * time from a place on.
 */
class PlacedStream {
  private readonly buffer: At[] = [];
  private next = 0;
  private last: { value: string; id: string } | undefined;
  private done = false;
  private readonly prefix: string;
  /** Index rows read. */
  scanned = 0;

  constructor(
    private readonly plan: IndexPlan,
    private readonly key: string,
    private readonly value: string,
    after: At | undefined,
    private batch: number,
  ) {
    this.prefix = `${value}${PLACED_SEPARATOR}`;
    this.last = after && { value: `${this.prefix}${after.at}`, id: after.id };
  }

  /** The next record's place, read from the index when none is left; undefined at the end. */
  async peek(): Promise<At | undefined> {
    while (this.next === this.buffer.length && !this.done) {
      const rows = await this.plan.placedAfter(this.key, this.value, this.last, this.batch);
      this.scanned += rows.length;
      this.done = rows.length < this.batch;
      this.buffer.length = 0;
      this.next = 0;
      for (const row of rows) {
        const at = row.value.slice(this.prefix.length);
        // A row of another value that starts with this one and the separator.
        if (!at.includes(PLACED_SEPARATOR)) this.buffer.push({ at, id: row.id });
      }
      this.last = rows.at(-1) ?? this.last;
      this.batch = Math.min(MAX_BATCH, this.batch * 2);
    }
    return this.buffer[this.next];
  }

  take(): void {
    this.next += 1;
  }
}

/**
 * A search in the list's order (creation, then id) whose one group is narrowest by a
 * single-select field's values: the records of those values read from their placed rows,
 * which the index keeps in the list's order (one stream a value, merged), their values read
 * by id a batch at a time and checked against the filters, until the page is full. The page
 * and its cursor are the ones a walk of the list would give.
 */
export async function walkPlaced(
  q: SearchQuery,
  plan: IndexPlan,
  key: string,
  values: readonly string[],
  read: (ids: string[]) => Promise<Map<string, RecordValues>>,
  checkTime: () => void,
): Promise<SearchPage> {
  const after = q.after && { at: String(q.after.values[0]), id: q.after.id };
  const streams = [...new Set(values)].map(
    (value) => new PlacedStream(plan, key, value, after, q.limit + 1),
  );
  const scanned = () => streams.reduce((n, s) => n + s.scanned, 0);
  /** The next record of any stream, in the list's order; undefined when all have ended. */
  const nextId = async (): Promise<string | undefined> => {
    let best: { stream: PlacedStream; at: At } | undefined;
    for (const stream of streams) {
      const at = await stream.peek();
      if (at && (!best || at.at < best.at.at || (at.at === best.at.at && at.id < best.at.id)))
        best = { stream, at };
    }
    best?.stream.take();
    return best?.at.id;
  };
  const found: Found[] = [];
  let chunk = q.limit + 1;
  for (;;) {
    checkTime();
    const ids: string[] = [];
    while (ids.length < chunk) {
      const id = await nextId();
      if (id === undefined) break;
      ids.push(id);
    }
    if (ids.length === 0) return { records: found, next: undefined, scanned: scanned() };
    const rows = await read(ids);
    for (const id of ids) {
      const row = rows.get(id);
      if (!row || !matches(q.groups, row)) continue;
      if (found.length === q.limit) {
        const last = found[found.length - 1]!;
        return { records: found, next: placeOf(q.order, last.values, last.id), scanned: scanned() };
      }
      found.push({ id, values: row });
    }
    if (ids.length < chunk) return { records: found, next: undefined, scanned: scanned() };
    chunk = Math.min(MAX_BATCH, chunk * 2);
  }
}

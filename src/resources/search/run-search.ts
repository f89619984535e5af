import type { Kysely } from 'kysely';
import type { Body } from '../../model/tables.ts';
import type { Store } from '../../store/database.ts';
import { type FilterGroups, matches, type RecordValues } from './filters.ts';
import { comparePlaces, type Place, placeOf, type SortKey } from './sort.ts';

/** The record types a search reads, and the table of each. */
export const SEARCH_TABLES = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
} as const;
export type SearchType = keyof typeof SEARCH_TABLES;

/**
 * Fields whose rendered value is a column of the record's table, with an index on
 * `(workspace_id, column)`: an `EQ` or `IN` on one of them reads only the rows it names.
 */
const INDEXED_COLUMNS: Record<SearchType, Readonly<Record<string, string>>> = {
  people: { id: 'id', 이름: 'name', 이메일: 'email', 전화: 'phone' },
  organization: { id: 'id', 이름: 'name' },
  deal: { id: 'id', 이름: 'name' },
  lead: { id: 'id', 이름: 'name' },
};

/** What one search asks of the store. */
export interface SearchQuery {
  type: SearchType;
  groups: FilterGroups;
  /** The order: `생성 날짜` ascending when the request gives none. */
  order: readonly SortKey[];
  /** Whether `order` is the table's own (created_at, id): pages then walk its index. */
  byCreation: boolean;
  /** The place the page starts after. */
  after: Place | undefined;
  limit: number;
}

/** A matching record: its id and its rendered values. */
export interface Found {
  id: string;
  values: RecordValues;
}

/** One page of a search, and the place of its last record when more follow. */
export interface SearchPage {
  records: Found[];
  next: Place | undefined;
  /** Rows read to answer (for the benchmark and the logs). */
  scanned: number;
}

/** Rows read per query while walking a table: small first (most pages end early), then more. */
const FIRST_BATCH = 256;
const MAX_BATCH = 4_096;

// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
type AnyDb = Kysely<any>;

function parse(body: unknown): RecordValues {
  const text = typeof body === 'string' ? body : (body as Buffer).toString('utf8');
  return JSON.parse(text) as RecordValues;
}

/**
 * Runs a search. Filters are decided here, on the stored records' values (one meaning on
 * both stores); the store narrows the rows read: by an index when every group has an
 * `EQ`/`IN` on an indexed column, else by walking the table in keyset batches, and in the
 * table's own order a page stops as soon as it is full.
 */
export async function runSearch(
  store: Store,
  workspaceId: string,
  q: SearchQuery,
): Promise<SearchPage> {
  const narrowed = narrowing(q);
  if (narrowed)
    return pageOfCandidates(q, await readCandidates(store, workspaceId, q.type, narrowed));
  return q.byCreation ? walkInOrder(store, workspaceId, q) : walkAndRank(store, workspaceId, q);
}

/** Per group, an indexed column and the values it must equal; undefined if a group has none. */
function narrowing(q: SearchQuery): { column: string; values: readonly string[] }[] | undefined {
  if (q.groups.length === 0) return undefined;
  const columns = INDEXED_COLUMNS[q.type];
  const out = [];
  for (const filters of q.groups) {
    const hit = filters.find((f) => f.equals && Object.hasOwn(columns, f.field.name));
    if (!hit) return undefined;
    out.push({ column: columns[hit.field.name]!, values: hit.equals! });
  }
  return out;
}

async function readCandidates(
  store: Store,
  workspaceId: string,
  type: SearchType,
  narrowed: { column: string; values: readonly string[] }[],
): Promise<{ id: string; body: Body }[]> {
  const db = store.reader as AnyDb;
  const rows = await db
    .selectFrom(SEARCH_TABLES[type])
    .select(['id', 'body'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(narrowed.map(({ column, values }) => eb(column, 'in', [...values]))))
    .execute();
  return rows as { id: string; body: Body }[];
}

/** Sorts the matching candidates and takes the page after `q.after`. */
function pageOfCandidates(q: SearchQuery, rows: { id: string; body: Body }[]): SearchPage {
  const ranked = new Ranked(q);
  for (const row of rows) ranked.offer(row.id, parse(row.body));
  return ranked.page(rows.length);
}

/** Walks the table by (created_at, id) from the cursor, and stops once the page is full. */
async function walkInOrder(store: Store, workspaceId: string, q: SearchQuery): Promise<SearchPage> {
  const db = store.reader as AnyDb;
  const found: Found[] = [];
  let scanned = 0;
  let from = q.after ? { at: String(q.after.values[0]), id: q.after.id } : undefined;
  let batch = FIRST_BATCH;
  for (;;) {
    let query = db
      .selectFrom(SEARCH_TABLES[q.type])
      .select(['id', 'created_at', 'body'])
      .where('workspace_id', '=', workspaceId);
    if (from) {
      const { at, id } = from;
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(at, id)));
    }
    const rows = (await query.orderBy('created_at').orderBy('id').limit(batch).execute()) as {
      id: string;
      created_at: string;
      body: Body;
    }[];
    scanned += rows.length;
    for (const row of rows) {
      const values = parse(row.body);
      if (!matches(q.groups, values)) continue;
      if (found.length === q.limit) {
        const last = found[found.length - 1]!;
        return { records: found, next: placeOf(q.order, last.values, last.id), scanned };
      }
      found.push({ id: row.id, values });
    }
    if (rows.length < batch) return { records: found, next: undefined, scanned };
    const last = rows[rows.length - 1]!;
    from = { at: last.created_at, id: last.id };
    batch = Math.min(MAX_BATCH, batch * 2);
  }
}

/** Walks the whole table, keeping the `limit + 1` best places after the cursor. */
async function walkAndRank(store: Store, workspaceId: string, q: SearchQuery): Promise<SearchPage> {
  const db = store.reader as AnyDb;
  const ranked = new Ranked(q);
  let scanned = 0;
  let from: { at: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom(SEARCH_TABLES[q.type])
      .select(['id', 'created_at', 'body'])
      .where('workspace_id', '=', workspaceId);
    if (from) {
      const { at, id } = from;
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(at, id)));
    }
    const rows = (await query.orderBy('created_at').orderBy('id').limit(MAX_BATCH).execute()) as {
      id: string;
      created_at: string;
      body: Body;
    }[];
    scanned += rows.length;
    for (const row of rows) ranked.offer(row.id, parse(row.body));
    if (rows.length < MAX_BATCH) return ranked.page(scanned);
    const last = rows[rows.length - 1]!;
    from = { at: last.created_at, id: last.id };
  }
}

/** The best `limit + 1` matching records after a place, in order (a bounded sorted list). */
class Ranked {
  private readonly best: { place: Place; found: Found }[] = [];

  constructor(private readonly q: SearchQuery) {}

  offer(id: string, values: RecordValues): void {
    const { q, best } = this;
    if (!matches(q.groups, values)) return;
    const place = placeOf(q.order, values, id);
    if (q.after && comparePlaces(q.order, place, q.after) <= 0) return;
    const keep = q.limit + 1;
    if (best.length === keep && comparePlaces(q.order, place, best[keep - 1]!.place) >= 0) return;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comparePlaces(q.order, best[mid]!.place, place) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, { place, found: { id, values } });
    if (best.length > keep) best.pop();
  }

  page(scanned: number): SearchPage {
    const { best, q } = this;
    const more = best.length > q.limit;
    const records = best.slice(0, q.limit).map((b) => b.found);
    return { records, next: more ? best[q.limit - 1]!.place : undefined, scanned };
  }
}

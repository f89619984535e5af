import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { type IndexedField, PLACED_PREFIX } from '../../domain/search-values.ts';
import { HttpError } from '../../http/errors.ts';
import type { ReadSide } from '../../store/database.ts';
import { type CompiledFilter, type FilterGroups, matches, type RecordValues } from './filters.ts';
import { INDEXED_COLUMNS, IndexPlan, indexTextOf, type Narrowing } from './index-plan.ts';
import { MAX_PLACED_VALUES, walkPlaced } from './placed-walk.ts';
import { SEARCH_TABLES, type SearchType } from './search-tables.ts';
import { comparePlaces, type Place, placeOf, type SortKey } from './sort.ts';

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
  /** The fields the filters, the order and the answer read, in record key order. */
  fields: readonly string[];
  /** When (`Date.now()`) the search gives up: a 503 rather than a request that runs on. */
  deadline: number;
  /** The fields the search index holds, by `indexedName` (pairs `g:…`, placed rows `p:…`). */
  indexed: ReadonlyMap<string, IndexedField>;
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

/** A row as read: its id, its creation time, and its values (whole, or the fields asked). */
type Row = { id: string; created_at: string } & Record<string, unknown>;

/**
 * What a search reads of each row. On SQLite, the fields it needs, taken out of the stored
 * JSON by the database (`body -> '$."name"'`, each as JSON text), so the process parses a
 * few small values rather than whole records; on PostgreSQL (and for a name SQLite's path
 * syntax cannot quote) the stored JSON itself.
 */
class RowReader {
  readonly columns: unknown[];
  private readonly extracted: boolean;

  constructor(
    store: ReadSide,
    private readonly fields: readonly string[],
  ) {
    this.extracted = store.dialect === 'sqlite' && fields.every((name) => !/["\\]/.test(name));
    this.columns = this.extracted
      ? ['id', 'created_at', ...fields.map((name, i) => sql`body -> ${`$."${name}"`}`.as(`v${i}`))]
      : ['id', 'created_at', 'body'];
  }

  values(row: Row): RecordValues {
    if (!this.extracted) {
      const body = row.body;
      return JSON.parse(typeof body === 'string' ? body : (body as Buffer).toString('utf8'));
    }
    const values: RecordValues = {};
    this.fields.forEach((name, i) => {
      const raw = row[`v${i}`];
      if (raw !== null && raw !== undefined) values[name] = JSON.parse(String(raw));
    });
    return values;
  }
}

/**
 * Runs a search. Filters are decided here, on the stored records' values (one meaning on
 * both stores); the store narrows the rows read: few candidates are read by id, many of a
 * single-select value from its placed rows (`walkPlaced`), a sort by one held field from the
 * index in its order (`walkIndexOrder`). Otherwise the table is walked in keyset batches of
 * (created_at, id), with the conditions the columns can check in the query (`EQ`/`IN`,
 * and `CONTAINS` of uncased text, on the indexed columns: the database then reads only
 * those rows, through an index where it has one); in the table's own order a page stops as
 * soon as it is full, and a sorted search reads every match once a page.
 */
export async function runSearch(
  store: ReadSide,
  workspaceId: string,
  q: SearchQuery,
): Promise<SearchPage> {
  const reader = new RowReader(store, q.fields);
  const base = () =>
    (store.reader as AnyDb)
      .selectFrom(SEARCH_TABLES[q.type])
      .select(reader.columns as never[])
      .where('workspace_id', '=', workspaceId);
  const plan = new IndexPlan(store, workspaceId, q);
  const narrowing = await plan.narrowing(searchTuning.few);
  if (narrowing && (await plan.mayBeFew(narrowing, searchTuning.few))) {
    // Few records can match: read them by id, and rank them here.
    const ids = await plan.candidates(narrowing, searchTuning.few + 1);
    if (ids.length <= searchTuning.few && q.byCreation && ids.length > q.limit + 1) {
      // In the table's order: the candidates' places first (no values read), then their
      // values in that order, a batch at a time, until the page is full.
      const places: { id: string; at: string }[] = [];
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        // `updated_at` too: with only the columns of the (workspace, created_at, id) index,
        // SQLite would scan that whole index rather than look the ids up by key.
        const rows = await (store.reader as AnyDb)
          .selectFrom(SEARCH_TABLES[q.type])
          .select(['id', 'created_at', 'updated_at'])
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', ids.slice(i, i + ID_CHUNK))
          .execute();
        for (const r of rows as { id: string; created_at: string }[])
          places.push({ id: r.id, at: r.created_at });
      }
      const after = q.after ? { at: String(q.after.values[0]), id: q.after.id } : undefined;
      const ordered = places
        .filter((p) => !after || p.at > after.at || (p.at === after.at && p.id > after.id))
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
      const found: Found[] = [];
      let batch = q.limit + 1;
      for (let i = 0; i < ordered.length; i += batch, batch = Math.min(ID_CHUNK, batch * 2)) {
        const chunk = ordered.slice(i, i + batch).map((p) => p.id);
        const rows = new Map(
          ((await base().where('id', 'in', chunk).execute()) as Row[]).map((r) => [r.id, r]),
        );
        for (const id of chunk) {
          const row = rows.get(id);
          if (!row) continue;
          const values = reader.values(row);
          if (!matches(q.groups, values)) continue;
          if (found.length === q.limit) {
            const last = found[found.length - 1]!;
            return {
              records: found,
              next: placeOf(q.order, last.values, last.id),
              scanned: ids.length,
            };
          }
          found.push({ id, values });
        }
      }
      return { records: found, next: undefined, scanned: ids.length };
    }
    if (ids.length <= searchTuning.few) {
      const ranked = new Ranked(q);
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        const rows = (await base()
          .where('id', 'in', ids.slice(i, i + ID_CHUNK))
          .execute()) as Row[];
        for (const row of rows) ranked.offer(row.id, reader.values(row));
      }
      return ranked.page(ids.length);
    }
  }
  const placed = narrowing && q.byCreation ? placedValues(q, narrowing) : undefined;
  if (placed) {
    const read = async (ids: string[]) =>
      new Map(
        ((await base().where('id', 'in', ids).execute()) as Row[]).map((r) => [
          r.id,
          reader.values(r),
        ]),
      );
    return walkPlaced(q, plan, placed.key, placed.values, read, () => {
      if (Date.now() >= q.deadline) throw timedOut();
    });
  }
  const sortField =
    !q.byCreation && q.order.length === 1 ? q.indexed.get(q.order[0]!.name) : undefined;
  if (sortField && !sortField.key.startsWith('g:')) {
    return walkIndexOrder(
      q,
      reader,
      plan,
      sortField,
      (ids) => base().where('id', 'in', ids).execute() as Promise<Row[]>,
      (afterId, batch) =>
        base()
          .where('id', '>', afterId)
          .where(plan.lacks(sortField.key))
          .orderBy('id')
          .limit(batch)
          .execute() as Promise<Row[]>,
    );
  }
  const conditions = columnConditions(q);
  const walk = (from: { at: string; id: string } | undefined, batch: number) => {
    if (Date.now() >= q.deadline) throw timedOut();
    let query = base();
    if (from) {
      const { at, id } = from;
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(at, id)));
    }
    if (narrowing) query = query.where(plan.probe(narrowing));
    else if (conditions) query = query.where((eb) => columnsMatch(store, conditions, eb));
    return query.orderBy('created_at').orderBy('id').limit(batch).execute() as Promise<Row[]>;
  };
  // Rows the database checked (an index probe, a column) mostly match: a page's worth first.
  const first = narrowing || conditions ? q.limit + 1 : FIRST_BATCH;
  return q.byCreation ? walkInOrder(q, reader, walk, first) : walkAndRank(q, reader, walk);
}

/**
 * The placed rows (`PLACED_PREFIX`) that hold the records of a search's one group, in the
 * list's order: when the group's narrowing is a few values of a single-select field.
 */
function placedValues(
  q: SearchQuery,
  narrowing: readonly Narrowing[],
): { key: string; values: readonly string[] } | undefined {
  const n = narrowing.length === 1 ? narrowing[0]! : undefined;
  if (!n || !('condition' in n) || !('values' in n.condition)) return undefined;
  if (n.condition.values.length > MAX_PLACED_VALUES) return undefined;
  const placed = q.indexed.get(`${PLACED_PREFIX}${n.name}`);
  return placed && { key: placed.key, values: n.condition.values };
}

/**
 * Candidates a search reads by id and ranks itself, at most (`few`); past that, it walks the
 * table probing the index. Tests lower it to take the walks with few records.
 */
export const searchTuning = { few: 2_000 };
/** Ids a query reads by at once. */
const ID_CHUNK = 500;

/**
 * A search sorted by one field the index holds: its records in the index's order of that
 * field, read by id a batch at a time and filtered here, until the page is full; then the
 * records without a value (last in either direction), by id.
 */
async function walkIndexOrder(
  q: SearchQuery,
  reader: RowReader,
  plan: IndexPlan,
  field: IndexedField,
  fetch: (ids: string[]) => Promise<Row[]>,
  walkLacking: (afterId: string, batch: number) => Promise<Row[]>,
): Promise<SearchPage> {
  const key = q.order[0]!;
  const found: Found[] = [];
  let scanned = 0;
  const full = () => found.length > q.limit;
  const page = (): SearchPage => {
    if (!full()) return { records: found, next: undefined, scanned };
    const last = found[q.limit - 1]!;
    return {
      records: found.slice(0, q.limit),
      next: placeOf(q.order, last.values, last.id),
      scanned,
    };
  };
  const offer = (row: Row) => {
    const values = reader.values(row);
    if (matches(q.groups, values)) found.push({ id: row.id, values });
  };
  const afterValue = q.after ? (q.after.values[0] ?? null) : undefined;
  let batch = q.limit + 1;
  if (afterValue !== null) {
    let at =
      afterValue === undefined
        ? undefined
        : { value: indexTextOf(field.kind, afterValue), id: q.after!.id };
    for (;;) {
      if (Date.now() >= q.deadline) throw timedOut();
      const next = await plan.inOrder(field.key, key.descending, at, batch);
      if (next.length === 0) break;
      const rows = new Map((await fetch(next.map((n) => n.id))).map((r) => [r.id, r]));
      scanned += next.length;
      for (const n of next) {
        const row = rows.get(n.id);
        if (row) offer(row);
        if (full()) return page();
      }
      if (next.length < batch) break;
      at = next[next.length - 1]!;
      batch = Math.min(MAX_BATCH, batch * 2);
    }
  }
  // Records without a value, by id.
  let afterId = afterValue === null ? q.after!.id : '';
  batch = q.limit + 1;
  for (;;) {
    if (Date.now() >= q.deadline) throw timedOut();
    const rows = await walkLacking(afterId, batch);
    scanned += rows.length;
    for (const row of rows) {
      offer(row);
      if (full()) return page();
    }
    if (rows.length < batch) return page();
    afterId = rows[rows.length - 1]!.id;
    batch = Math.min(MAX_BATCH, batch * 2);
  }
}

type Walk = (from: { at: string; id: string } | undefined, batch: number) => Promise<Row[]>;

/** The answer of a search that ran out of time: 503, and when to try again. */
function timedOut(): HttpError {
  return new HttpError(
    'unavailable',
    '검색이 제한 시간을 넘었습니다. 조건을 좁히거나(EQ, IN, 이름 등) 잠시 후 다시 시도해 주세요.',
    { 'Retry-After': '5' },
  );
}

/** Whether `text` holds no letter that has case and no mark: `CONTAINS` of it is exact on bytes. */
function uncased(text: string): boolean {
  return !/\p{M}/u.test(text) && [...text].every((c) => c.toLowerCase() === c.toUpperCase());
}

/** A condition a row's column can be checked against: equal to one of, or containing. */
type ColumnCondition =
  | { column: string; equals: readonly string[] }
  | { column: string; contains: string };

/**
 * Per group, the conditions on columns that a matching row meets (so their OR is a
 * superset of the matches), or undefined when some group has no filter the columns can
 * check.
 */
function columnConditions(q: SearchQuery): ColumnCondition[][] | undefined {
  const columns = INDEXED_COLUMNS[q.type];
  const conditionOf = (f: CompiledFilter): ColumnCondition | undefined => {
    const column = columns[f.field.name];
    if (column === undefined) return undefined;
    if (f.equals) return { column, equals: f.equals };
    if (f.operator === 'CONTAINS' && f.needle !== undefined && uncased(f.needle))
      return { column, contains: f.needle };
    return undefined;
  };
  if (q.groups.length === 0) return undefined;
  const groups = q.groups.map((filters) =>
    filters.map(conditionOf).filter((c): c is ColumnCondition => c !== undefined),
  );
  return groups.some((conditions) => conditions.length === 0) ? undefined : groups;
}

/** The OR of the groups' ANDs of `groups`, as SQL. */
function columnsMatch(
  store: ReadSide,
  groups: ColumnCondition[][],
  // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
  eb: ExpressionBuilder<any, any>,
): Expression<SqlBool> {
  const position = store.dialect === 'sqlite' ? 'instr' : 'strpos';
  return eb.or(
    groups.map((conditions) =>
      eb.and(
        conditions.map((c) =>
          'equals' in c
            ? eb(c.column, 'in', [...c.equals])
            : eb(sql`${sql.raw(position)}(${sql.ref(c.column)}, ${c.contains})`, '>', 0),
        ),
      ),
    ),
  );
}

/** Walks the table by (created_at, id) from the cursor, and stops once the page is full. */
async function walkInOrder(
  q: SearchQuery,
  reader: RowReader,
  walk: Walk,
  firstBatch: number,
): Promise<SearchPage> {
  const found: Found[] = [];
  let scanned = 0;
  let from = q.after ? { at: String(q.after.values[0]), id: q.after.id } : undefined;
  let batch = firstBatch;
  for (;;) {
    const rows = await walk(from, batch);
    scanned += rows.length;
    for (const row of rows) {
      const values = reader.values(row);
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
async function walkAndRank(q: SearchQuery, reader: RowReader, walk: Walk): Promise<SearchPage> {
  const ranked = new Ranked(q);
  let scanned = 0;
  let from: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await walk(from, MAX_BATCH);
    scanned += rows.length;
    for (const row of rows) ranked.offer(row.id, reader.values(row));
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

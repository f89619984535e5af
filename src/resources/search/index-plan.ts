import {
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import {
  type IndexedField,
  numberKey,
  PLACED_SEPARATOR,
  pairsAnswer,
  pairsOf,
} from '../../domain/search-values.ts';
import type { ReadSide } from '../../store/database.ts';
import type { CompiledFilter, IndexCondition } from './filters.ts';
import { SEARCH_TABLES, type SearchType } from './search-tables.ts';

/**
 * Fields whose rendered value is a column of the record's table, with an index on
 * `(workspace_id, column)`: the database finds `EQ` and `IN` on them itself.
 */
export const INDEXED_COLUMNS: Record<SearchType, Readonly<Record<string, string>>> = {
  people: { id: 'id', 이름: 'name', 이메일: 'email', 전화: 'phone' },
  organization: { id: 'id', 이름: 'name' },
  deal: { id: 'id', 이름: 'name' },
  lead: { id: 'id', 이름: 'name' },
};

/** Indexed columns whose values are unique in a workspace: an `EQ`/`IN` on one names few rows. */
const UNIQUE_FIELDS: Record<SearchType, ReadonlySet<string>> = {
  people: new Set(['id', '이메일']),
  organization: new Set(['id', '이름']),
  deal: new Set(['id']),
  lead: new Set(['id']),
};

/**
 * What the indexes know of the records that pass one filter: a column equal to one of some
 * values, index rows of a field (`IndexCondition`), or the pairs of characters of a
 * `CONTAINS` needle (its first `NEEDLE_PAIRS`). Each is a superset of the passing records
 * (the filter decides).
 */
export type Narrowing =
  | { column: string; values: readonly string[]; rank: number }
  | { key: string; name: string; condition: IndexCondition; rank: number }
  | { key: string; pairs: readonly string[]; rank: number };

/**
 * Pairs of characters of a `CONTAINS` needle a search looks up at most: a few already name
 * few records, and a probe checks each pair in a subquery of its own (SQLite refuses a
 * query of thousands, PostgreSQL takes seconds), where a needle may hold 10,000 characters.
 */
const NEEDLE_PAIRS = 16;

/** What a search asks of its plan. */
interface PlanQuery {
  type: SearchType;
  groups: readonly (readonly CompiledFilter[])[];
  indexed: ReadonlyMap<string, IndexedField>;
}

/**
 * How a search uses the indexes: per group of filters, the one filter whose index names
 * the fewest records (a unique column, then values of the search index, other columns,
 * pairs of characters, ranges, presence), so that the records of any group are among the
 * union of those; and the probes that check a row against them while walking a table.
 */
export class IndexPlan {
  private readonly table: string;

  constructor(
    private readonly store: ReadSide,
    private readonly workspaceId: string,
    private readonly q: PlanQuery,
  ) {
    this.table = SEARCH_TABLES[q.type];
  }

  /**
   * One narrowing a group, or undefined when some group (or no group) has none. Of a
   * group's narrowings, the one that names the fewest records, counted up to `few + 1`
   * (a unique column's is taken without counting).
   */
  async narrowing(few: number): Promise<Narrowing[] | undefined> {
    if (this.q.groups.length === 0) return undefined;
    const chosen: Narrowing[] = [];
    for (const filters of this.q.groups) {
      const options = filters
        .map((f) => this.narrowingOf(f))
        .filter((n): n is Narrowing => n !== undefined)
        .sort((a, b) => a.rank - b.rank);
      if (options.length === 0) return undefined;
      let best = options[0]!;
      if (options.length > 1 && best.rank > 0) {
        let fewest = Number.POSITIVE_INFINITY;
        for (const option of options) {
          const n = await this.count(option, few + 1);
          this.counted.set(option, n);
          if (n < fewest) [best, fewest] = [option, n];
          if (n === 0) break;
        }
      }
      chosen.push(best);
    }
    return chosen;
  }

  /** Counts `narrowing()` took, by narrowing. */
  private readonly counted = new Map<Narrowing, number>();

  /**
   * Whether the records `narrowing` names may be at most `few`: false as soon as one group's
   * narrowing names more (counted up to `few + 1` in its index, which costs far less than
   * reading that many ids: on SQLite an id not in the index is a row read per id).
   */
  async mayBeFew(narrowing: readonly Narrowing[], few: number): Promise<boolean> {
    for (const n of narrowing) {
      if (n.rank === 0) continue;
      const count = this.counted.get(n) ?? (await this.count(n, few + 1));
      if (count > few) return false;
    }
    return true;
  }

  /** The records `n` names, counted up to `limit`. */
  private async count(n: Narrowing, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${this.idsOf(
      n,
      true,
    )} limit ${limit}) as c`.execute(this.store.reader);
    return Number(rows[0]?.n ?? 0);
  }

  private narrowingOf(f: CompiledFilter): Narrowing | undefined {
    const name = f.field.name;
    const column = INDEXED_COLUMNS[this.q.type][name];
    if (column !== undefined && f.equals)
      return { column, values: f.equals, rank: UNIQUE_FIELDS[this.q.type].has(name) ? 0 : 2 };
    const pairsKey = this.q.indexed.get(`g:${name}`);
    if (f.operator === 'CONTAINS' && f.needle !== undefined && pairsKey && pairsAnswer(f.needle))
      return { key: pairsKey.key, pairs: pairsOf(f.needle).slice(0, NEEDLE_PAIRS), rank: 3 };
    const field = this.q.indexed.get(name);
    if (!field || !f.index || column !== undefined) return undefined;
    const c = f.index;
    const rank =
      'values' in c ? 1 : 'any' in c ? 6 : c.from !== undefined && c.to !== undefined ? 4 : 5;
    return { key: field.key, name, condition: c, rank };
  }

  /** Up to `limit` distinct ids of the records some group's narrowing names. */
  async candidates(narrowing: readonly Narrowing[], limit: number): Promise<string[]> {
    const parts = narrowing.map((n) => this.idsOf(n));
    const { rows } = await sql<{ rid: string }>`select rid from (${sql.join(
      parts,
      sql` union `,
    )}) as c limit ${limit}`.execute(this.store.reader);
    return rows.map((r) => r.rid);
  }

  /** The ids `n` names, as `rid`; for a count (`counting`), the rows only (the index's alone). */
  private idsOf(n: Narrowing, counting = false): RawBuilder<unknown> {
    const ws = this.workspaceId;
    if ('column' in n)
      return sql`select ${sql.raw(counting ? '1' : 'id as rid')} from ${sql.table(this.table)} where workspace_id = ${ws} and ${sql.ref(n.column)} in (${sql.join(n.values)})`;
    const rows = this.rowsOf(n.key);
    if ('pairs' in n) {
      if (n.pairs.length === 1)
        return sql`select record_id as rid ${rows} and value = ${n.pairs[0]}`;
      return sql`select record_id as rid ${rows} and value in (${sql.join(n.pairs)}) group by record_id having count(*) = ${n.pairs.length}`;
    }
    return sql`select record_id as rid ${rows}${valueCondition(n.condition)}`;
  }

  /** The check, on a row of the walked table, that it is among the records `narrowing` names. */
  probe(narrowing: readonly Narrowing[]) {
    // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
    return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> =>
      eb.or(narrowing.map((n) => this.probeOf(n)));
  }

  private probeOf(n: Narrowing): Expression<SqlBool> {
    const id = sql.ref(`${this.table}.id`);
    if ('column' in n) return sql<SqlBool>`${sql.ref(n.column)} in (${sql.join(n.values)})`;
    const ws = this.workspaceId;
    const head = (byRecord: boolean) =>
      sql`select 1 from search_values${this.byRecord(byRecord)} where workspace_id = ${ws} and record_id = ${id} and record_type = ${this.q.type} and field = ${n.key}`;
    if ('pairs' in n)
      return sql<SqlBool>`(${sql.join(
        n.pairs.map((p) => sql`exists (${head(false)} and value = ${p})`),
        sql` and `,
      )})`;
    // A probe of a range or of presence reads the record's own rows; of values, those values.
    if (!('values' in n.condition))
      return sql<SqlBool>`exists (${head(true)}${valueCondition(n.condition)})`;
    return sql<SqlBool>`exists (${head(false)}${valueCondition(n.condition)}${this.valuesFence()})`;
  }

  /**
   * On PostgreSQL, ` offset 0` in a probe of values: it keeps the probe a check of each walked
   * row, one point of the index. Without it the planner may turn the walk into a join from
   * the index rows (the `exists` a semi-join), which reads every record of the values and
   * sorts them: it did for a select value of 8% of 200,000 people that its statistics put at
   * 106 rows (16,254: 174 ms, against 8 ms for the walk). Such a probe runs only where the
   * plan counted more records than it reads by id. Ranges keep the planner's choice: their
   * probes read a record's index rows, and a walk to the first page of a sparse range was
   * 180 times the join's time.
   */
  private valuesFence(): RawBuilder<unknown> {
    return sql.raw(this.store.dialect === 'postgres' ? ' offset 0' : '');
  }

  /**
   * `limit` records' ids in the order of `field`'s index text after `after` (`value`, `id`),
   * ascending, or descending with ties by id ascending; none left: an empty list.
   */
  async inOrder(
    key: string,
    descending: boolean,
    after: { value: string; id: string } | undefined,
    limit: number,
  ): Promise<{ value: string; id: string }[]> {
    const db = this.store.reader;
    const rows = this.rowsOf(key);
    if (!descending) {
      const from = after ? sql` and (value, record_id) > (${after.value}, ${after.id})` : sql``;
      const { rows: found } = await sql<{ value: string; id: string }>`
        select value, record_id as id ${rows}${from} order by value, record_id limit ${limit}`.execute(
        db,
      );
      return found;
    }
    // Descending, ties by id ascending: rows are read backwards (value and id descending),
    // and each value's ids turned round; a value the batch may have cut short is read
    // whole, by id, before the values below it.
    const out: { value: string; id: string }[] = [];
    let at = after;
    for (;;) {
      if (at) {
        // The rest of the value `at` holds, by id.
        const { rows: ids } = await sql<{ id: string }>`
          select record_id as id ${rows} and value = ${at.value} and record_id > ${at.id}
          order by record_id limit ${limit - out.length}`.execute(db);
        for (const { id } of ids) out.push({ value: at.value, id });
        if (out.length === limit) return out;
      }
      const below = at ? sql` and value < ${at.value}` : sql``;
      const want = limit - out.length;
      const { rows: batch } = await sql<{ value: string; id: string }>`
        select value, record_id as id ${rows}${below}
        order by value desc, record_id desc limit ${want}`.execute(db);
      if (batch.length === 0) return out;
      // The last value may go on below the batch's end (unless the batch ran out).
      const cut = batch.length === want ? batch[batch.length - 1]!.value : undefined;
      let i = 0;
      while (i < batch.length && batch[i]!.value !== cut) {
        let j = i;
        while (j < batch.length && batch[j]!.value === batch[i]!.value) j++;
        for (let k = j - 1; k >= i; k--) out.push(batch[k]!);
        i = j;
      }
      if (cut === undefined) return out;
      at = { value: cut, id: '' };
    }
  }

  /**
   * Up to `limit` placed rows of `value` (`PLACED_PREFIX`) after `after` (its row's value
   * text and record id), in the index's order: the records holding the value in the list's
   * order. Rows of another value that starts with `value` and U+0001 fall in the range too:
   * the caller skips them.
   */
  async placedAfter(
    key: string,
    value: string,
    after: { value: string; id: string } | undefined,
    limit: number,
  ): Promise<{ value: string; id: string }[]> {
    const low = `${value}${PLACED_SEPARATOR}`;
    const from = after
      ? sql` and (value, record_id) > (${after.value}, ${after.id})`
      : sql` and value > ${low}`;
    const { rows } = await sql<{ value: string; id: string }>`
      select value, record_id as id ${this.rowsOf(key)}${from} and value < ${`${value}\u0002`}
      order by value, record_id limit ${limit}`.execute(this.store.reader);
    return rows;
  }

  /** `from search_values where …` the rows of the field `key` of this search's records. */
  private rowsOf(key: string): RawBuilder<unknown> {
    return sql`from search_values where workspace_id = ${this.workspaceId} and record_type = ${this.q.type} and field = ${key}`;
  }

  /**
   * On SQLite, `indexed by` the index of a record's rows (when `use`): its planner, left to
   * itself, reads a record's rows through the index by field and value instead.
   */
  private byRecord(use: boolean): RawBuilder<unknown> {
    return sql.raw(use && this.store.dialect === 'sqlite' ? ` indexed by ${BY_RECORD_INDEX}` : '');
  }

  /** A row of the walked table has no index row of `key`: its value is not there. */
  lacks(key: string) {
    const id = sql.ref(`${this.table}.id`);
    return sql<SqlBool>`not exists (select 1 from search_values${this.byRecord(true)} where workspace_id = ${this.workspaceId} and record_id = ${id} and record_type = ${this.q.type} and field = ${key})`;
  }
}

/**
 * The index of `search_values` by workspace and record (migration 012), named in SQLite's
 * `indexed by` hints: SQLite refuses a query whose hinted index is gone, so a search test
 * checks the index is there by this name.
 */
export const BY_RECORD_INDEX = 'search_values_record';

/** ` and value …` for a condition on index text. */
function valueCondition(c: IndexCondition): RawBuilder<unknown> {
  if ('values' in c) return sql` and value in (${sql.join(c.values)})`;
  if ('any' in c) return sql``;
  const from = c.from !== undefined ? sql` and value >= ${c.from}` : sql``;
  const to = c.to !== undefined ? sql` and value < ${c.to}` : sql``;
  return sql`${from}${to}`;
}

/** The index text of a sort value of a field of `kind` (see `indexValues`). */
export function indexTextOf(kind: IndexedField['kind'], value: string | number): string {
  if (kind === 'number') return numberKey(value as number);
  return typeof value === 'number' ? String(value) : value;
}

import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Body } from '../model/tables.ts';
import type { Store } from './database.ts';
import { prepareQuery } from './prepared.ts';

/** Position after which a page starts: the last row's sort key and id. */
export interface Position {
  sortKey: string;
  id: string;
}

type ListedTable =
  | 'people'
  | 'organizations'
  | 'deals'
  | 'leads'
  | 'products'
  | 'activities'
  | 'history'
  | 'quotes'
  | 'custom_objects';

// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
export type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Narrows a list to the rows a filter keeps, with named parameters. */
export type ListFilter<P extends string> = (
  qb: AnyQuery,
  param: <T = string>(name: P) => T,
) => AnyQuery;

/** One page of a list: its records' stored JSON joined by commas, and where it ended. */
export interface Page {
  /** `record,record,…` as stored, ready to splice into `[` … `]`. */
  bodies: Body | null;
  count: number;
  /** The last record's position, when the page has any. */
  last: Position | undefined;
  /** Whether any record follows the page. */
  more: boolean;
}

/** Reads one page of a list after a position (or from the start). */
export type PageReader<P extends string = never> = (
  workspaceId: string,
  values: Record<P, unknown>,
  after: Position | undefined,
  limit: number,
) => Promise<Page>;

/** The two columns a keyset orders by: a sort key, then the id that breaks its ties. */
export type KeyColumns = readonly [sortKey: string, id: string];

/**
 * `qb` narrowed to the rows past `after` in key order (`after`: the last row's sort key and
 * id, as values or as a prepared statement's parameters; none: from the first row), as
 * `direction` reads them: oldest first (`asc`) or newest first (`desc`).
 */
export function pastKey<Q extends AnyQuery>(
  qb: Q,
  [sortKey, id]: KeyColumns,
  after: readonly [sortKey: unknown, id: unknown] | undefined,
  direction: 'asc' | 'desc' = 'asc',
): Q {
  if (!after) return qb;
  return qb.where((eb) =>
    eb(eb.refTuple(sortKey, id), direction === 'asc' ? '>' : '<', eb.tuple(after[0], after[1])),
  ) as Q;
}

/** `pastKey`, in key order: the rows a page after `after` takes its first rows from. */
export function inKeyOrder<Q extends AnyQuery>(
  qb: Q,
  columns: KeyColumns,
  after: readonly [sortKey: unknown, id: unknown] | undefined,
  direction: 'asc' | 'desc' = 'asc',
): Q {
  return pastKey(qb, columns, after, direction)
    .orderBy(columns[0], direction)
    .orderBy(columns[1], direction) as Q;
}

// Sort keys are fixed-width timestamps, so `key \n id` orders as the pair does.
const KEY_SEPARATOR = '\n';

/**
 * Keyset pages of a table's rendered rows, oldest first by `sortColumn` then `id`: page N
 * is one index range scan, as cheap as page 1. The database joins the page's stored JSON
 * itself (one value back instead of one per row), and a second index-only probe tells
 * whether more rows follow. Both queries are compiled once and run as prepared statements.
 */
export function keysetList<P extends string = never>(
  store: Store,
  table: ListedTable,
  sortColumn: 'created_at' | 'date',
  filter?: ListFilter<P>,
  /** The column of the stored JSON, when a table keeps more than one rendering. */
  bodyColumn: 'body' | 'lead_body' = 'body',
): PageReader<P> {
  type Param = P | 'ws' | 'limit' | 'key' | 'id';
  // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
  const db = store.reader as Kysely<any>;
  const keys: KeyColumns = [sortColumn, 'id'];
  const rows = (param: <T = string>(name: Param) => T, after: boolean, columns: string[]) => {
    let qb: AnyQuery = db.selectFrom(table).select(columns).where('workspace_id', '=', param('ws'));
    if (filter) qb = filter(qb, param as <T = string>(name: P) => T);
    return after ? pastKey(qb, keys, [param('key'), param('id')]) : qb;
  };
  // The aggregate reads the ordered, limited subquery in its order: SQLite does not
  // flatten a LIMIT subquery into an aggregate, and PostgreSQL keeps it too.
  const page = (after: boolean) =>
    prepareQuery<Param>((param) =>
      db
        .selectFrom(
          inKeyOrder(
            rows(param, false, [`${bodyColumn} as body`, sortColumn, 'id']),
            keys,
            after ? [param('key'), param('id')] : undefined,
          )
            .limit(param<number>('limit'))
            .as('page'),
        )
        .select([
          joinedBodies(store.dialect, sortColumn).as('bodies'),
          sql<number>`count(*)`.as('n'),
          sql<string>`max(${sql.ref(sortColumn)} || ${KEY_SEPARATOR} || id)`.as('last'),
        ]),
    );
  const firstPage = page(false);
  const nextPage = page(true);
  const follows = prepareQuery<Param>((param) =>
    db.selectNoFrom((eb) => eb.exists(rows(param, true, ['id'])).as('more')),
  );

  return async (workspaceId, values, after, limit) => {
    const all = { ...values, ws: workspaceId, limit } as Record<Param, unknown>;
    if (after) {
      all.key = after.sortKey;
      all.id = after.id;
    }
    const [row] = await store.rows((after ? nextPage : firstPage)(all));
    const count = Number(row![1]);
    if (count === 0) return { bodies: null, count, last: undefined, more: false };
    const lastKey = String(row![2]);
    const split = lastKey.indexOf(KEY_SEPARATOR);
    const last = { sortKey: lastKey.slice(0, split), id: lastKey.slice(split + 1) };
    let more = false;
    if (count === limit) {
      const [probe] = await store.rows(follows({ ...all, key: last.sortKey, id: last.id }));
      more = Boolean(Number(probe![0]));
    }
    return { bodies: row![0] as Body, count, last, more };
  };
}

/** The dialect's aggregate that joins stored bodies with commas, as bytes where it can. */
function joinedBodies(dialect: Store['dialect'], sortColumn: string) {
  return dialect === 'sqlite'
    ? sql<Body>`cast(group_concat(body, ',') as blob)`
    : sql<Body>`string_agg(body, ',' order by ${sql.ref(sortColumn)}, id)`;
}

import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Store } from './database.ts';
import {
  type AnyQuery,
  inKeyOrder,
  type KeyColumns,
  type ListFilter,
  type Page,
  type Position,
} from './keyset.ts';
import { prepareQuery } from './prepared.ts';

/** Tables listed from their rows, rendered at read time rather than stored rendered. */
export type RowListedTable =
  | 'users'
  | 'teams'
  | 'todos'
  | 'notes'
  | 'web_forms'
  | 'web_form_submissions';

/** One page of rows, oldest first, and whether any row follows it. */
export interface RowPage<R> {
  rows: R[];
  more: boolean;
}

/** Reads one page of rows after a position (or from the start). */
export type RowPageReader<R, P extends string = never> = (
  workspaceId: string,
  values: Record<P, unknown>,
  after: Position | undefined,
  limit: number,
) => Promise<RowPage<R>>;

/** A row a keyset list can page over: its sort key and id. */
export interface KeyedRow {
  id: string;
  created_at: string;
}

/**
 * Keyset pages of a table's rows, oldest first by `created_at` then `id`, as objects with
 * `columns`: like `keysetList`, one index range scan a page (reading one row past the page
 * tells whether more follow), compiled once and run as a prepared statement. For records
 * that are rendered per request: small tables, and records whose Refs name users and teams.
 */
export function keysetRows<R extends KeyedRow, P extends string = never>(
  store: Store,
  table: RowListedTable,
  columns: readonly (keyof R & string)[],
  filter?: ListFilter<P>,
): RowPageReader<R, P> {
  type Param = P | 'ws' | 'limit' | 'key' | 'id';
  // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
  const db = store.reader as Kysely<any>;
  const page = (after: boolean) =>
    prepareQuery<Param>((param) => {
      let qb: AnyQuery = db
        .selectFrom(table)
        .select(columns)
        .where('workspace_id', '=', param('ws'));
      if (filter) qb = filter(qb, param as <T = string>(name: P) => T);
      const past = after ? ([param('key'), param('id')] as const) : undefined;
      return inKeyOrder(qb, ['created_at', 'id'], past).limit(param<number>('limit'));
    });
  const firstPage = page(false);
  const nextPage = page(true);

  return async (workspaceId, values, after, limit) => {
    const all = { ...values, ws: workspaceId, limit: limit + 1 } as Record<Param, unknown>;
    if (after) {
      all.key = after.sortKey;
      all.id = after.id;
    }
    const raw = await store.rows((after ? nextPage : firstPage)(all));
    const rows = raw.slice(0, limit).map((values) => {
      const row: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        row[column] = values[i];
      });
      return row as R;
    });
    return { rows, more: raw.length > limit };
  };
}

/**
 * One page of `query`'s rows past `after` in the order of `columns` (oldest first, or newest
 * with `desc`): the query a list builds (its table, columns, joins and filters), paged as
 * every keyset list is, reading one row past `limit` to tell whether more follow. `after`
 * is the last row's sort key and id, as the cursor gave them.
 */
export async function keysetPage<R>(
  // biome-ignore lint/suspicious/noExplicitAny: any query of any table
  query: SelectQueryBuilder<any, any, R>,
  columns: KeyColumns,
  after: readonly [sortKey: unknown, id: string] | undefined,
  limit: number,
  direction: 'asc' | 'desc' = 'asc',
): Promise<RowPage<R>> {
  const rows = (await inKeyOrder(query, columns, after, direction)
    .limit(limit + 1)
    .execute()) as R[];
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * A page of rows as a list page: each row rendered to JSON, and where the page ended (by
 * `created_at` then `id`, or by `position` for a list in another order).
 */
export function renderedPage<R extends KeyedRow>(
  page: RowPage<R>,
  render: (row: R) => unknown,
): Page;
export function renderedPage<R>(
  page: RowPage<R>,
  render: (row: R) => unknown,
  position: (row: R) => Position,
): Page;
export function renderedPage<R>(
  page: RowPage<R>,
  render: (row: R) => unknown,
  position: (row: R) => Position = (row) => {
    const keyed = row as unknown as KeyedRow;
    return { sortKey: keyed.created_at, id: keyed.id };
  },
): Page {
  const last = page.rows[page.rows.length - 1];
  if (!last) return { bodies: null, count: 0, last: undefined, more: false };
  return {
    bodies: page.rows.map((row) => JSON.stringify(render(row))).join(','),
    count: page.rows.length,
    last: position(last),
    more: page.more,
  };
}

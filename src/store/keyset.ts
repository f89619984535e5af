import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Position } from '../server/cursor.ts';
import type { PageRows } from '../server/list.ts';
import type { Store } from './database.ts';
import { prepareQuery } from './prepared.ts';

type ListedTable =
  | 'people'
  | 'organizations'
  | 'deals'
  | 'leads'
  | 'products'
  | 'activities'
  | 'history'
  | 'quotes';

// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Narrows a list to the rows a filter keeps, with named parameters. */
export type ListFilter<P extends string> = (qb: AnyQuery, param: <T = string>(name: P) => T) => AnyQuery;

/**
 * Keyset pages of a table's rendered rows, oldest first by `sortColumn` then `id`: page N
 * is one index range scan, as cheap as page 1. The two queries (first page, and after a
 * position) are compiled once and run as prepared statements.
 */
export function keysetList<P extends string = never>(
  store: Store,
  table: ListedTable,
  sortColumn: 'created_at' | 'date',
  filter?: ListFilter<P>,
) {
  const base = (param: <T = string>(name: P | 'ws' | 'limit' | 'key' | 'id') => T) => {
    // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
    let qb: AnyQuery = (store.reader as Kysely<any>)
      .selectFrom(table)
      .select(['body', sortColumn, 'id'])
      .where('workspace_id', '=', param('ws'));
    if (filter) qb = filter(qb, param as <T = string>(name: P) => T);
    return qb;
  };
  const first = prepareQuery<P | 'ws' | 'limit' | 'key' | 'id'>((param) =>
    base(param)
      .orderBy(sortColumn)
      .orderBy('id')
      .limit(param<number>('limit')),
  );
  const after = prepareQuery<P | 'ws' | 'limit' | 'key' | 'id'>((param) =>
    base(param)
      .where((eb) => eb(eb.refTuple(sortColumn, 'id'), '>', eb.tuple(param('key'), param('id'))))
      .orderBy(sortColumn)
      .orderBy('id')
      .limit(param<number>('limit')),
  );
  return (
    workspaceId: string,
    values: Record<P, unknown>,
    position: Position | undefined,
    limit: number,
  ): PageRows | Promise<PageRows> => {
    const all = { ...values, ws: workspaceId, limit: limit + 1 } as Record<P | 'ws' | 'limit' | 'key' | 'id', unknown>;
    if (!position) return store.rows(first(all));
    all.key = position.sortKey;
    all.id = position.id;
    return store.rows(after(all));
  };
}

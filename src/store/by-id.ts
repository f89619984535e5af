import type { Kysely } from 'kysely';
import type { Database } from '../model/tables.ts';
import type { Executor } from './database.ts';

/** Largest id list one query binds. */
export const CHUNK = 500;

/**
 * One column of the rows of a workspace's table with the given ids, as id → value, read
 * `CHUNK` ids a query. Ids with no row are absent from the map.
 */
export async function columnById<V>(
  db: Executor | Kysely<Database>,
  table: keyof Database,
  workspaceId: string,
  ids: Iterable<string>,
  column: string,
): Promise<Map<string, V>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, V>();
  // biome-ignore lint/suspicious/noExplicitAny: the table and column are chosen by the caller
  const any = db as Kysely<any>;
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await any
      .selectFrom(table)
      .select(['id', column])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', unique.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) out.set(r.id as string, r[column] as V);
  }
  return out;
}

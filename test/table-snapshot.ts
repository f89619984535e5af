import { sql } from 'kysely';
import { WORKSPACE_TABLES } from '../src/model/tables.ts';
import type { Store } from '../src/store/database.ts';

/**
 * The search index is left out of the counts: its rows are written only by a workspace's
 * write (the refresh of the records it touched), which moves `data_version`, and it is by far
 * the largest table (a record's name alone has a row per pair of characters), so counting it
 * made each refused case of a long fuzz run slower than the request itself.
 */
const COUNTED = WORKSPACE_TABLES.filter((t) => t !== 'search_values');

/**
 * What a rejected write must leave as it was: the rows of every table of every workspace
 * (but the search index), counted, and each workspace's `data_version` (moved by every
 * committed write).
 */
export async function tableSnapshot(store: Pick<Store, 'db'>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const union = sql.join(
    COUNTED.map(
      (t) =>
        sql`select ${t} as t, workspace_id as w, count(*) as n from ${sql.table(t)} group by workspace_id`,
    ),
    sql` union all `,
  );
  const counts = await sql<{ t: string; w: string; n: number }>`${union}`.execute(store.db);
  for (const { t, w, n } of counts.rows) out[`${t} of ${w}`] = Number(n);
  const versions = await store.db.selectFrom('workspaces').select(['id', 'data_version']).execute();
  for (const v of versions) out[`data_version of ${v.id}`] = Number(v.data_version);
  return out;
}

import { sql } from 'kysely';
import { WORKSPACE_TABLES } from '../src/model/tables.ts';
import type { Store } from '../src/store/database.ts';

/**
 * What a rejected write must leave as it was: the rows of every table of every workspace,
 * counted, and each workspace's `data_version` (moved by every committed write).
 */
export async function tableSnapshot(store: Pick<Store, 'db'>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const union = sql.join(
    WORKSPACE_TABLES.map(
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

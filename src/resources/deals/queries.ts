import type { Kysely } from 'kysely';
import type { Database } from '../../model/tables.ts';
import { columnById } from '../../store/by-id.ts';
import type { Store } from '../../store/database.ts';
import { keysetList } from '../../store/keyset.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The deal filters of `GET /v2/deal`, resolved to ids. */
export type DealFilter =
  | { kind: 'all' }
  | { kind: 'pipelines'; ids: string[] }
  | { kind: 'stages'; ids: string[] };

/** Why a filter name matched nothing: each is a 400 (docs/decisions.md, Cursors). */
export type DealFilterProblem = 'unknown_pipeline' | 'unknown_stage' | 'stage_not_in_pipeline';

/**
 * Resolves `pipelineName` / `pipelineStageName` (exact, case-sensitive) to the deal
 * pipelines or stages they name.
 */
export async function resolveDealFilter(
  db: Kysely<Database>,
  workspaceId: string,
  pipelineName: string | undefined,
  stageName: string | undefined,
): Promise<DealFilter | DealFilterProblem> {
  if (pipelineName === undefined && stageName === undefined) return { kind: 'all' };
  let pipelineIds: string[] | undefined;
  if (pipelineName !== undefined) {
    const rows = await db
      .selectFrom('pipelines')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'deal')
      .where('name', '=', pipelineName)
      .execute();
    if (rows.length === 0) return 'unknown_pipeline';
    pipelineIds = rows.map((r) => r.id);
    if (stageName === undefined) return { kind: 'pipelines', ids: pipelineIds };
  }
  const stages = await db
    .selectFrom('pipeline_stages as s')
    .innerJoin('pipelines as p', (j) =>
      j.onRef('p.workspace_id', '=', 's.workspace_id').onRef('p.id', '=', 's.pipeline_id'),
    )
    .select(['s.id', 's.pipeline_id'])
    .where('s.workspace_id', '=', workspaceId)
    .where('p.kind', '=', 'deal')
    .where('s.name', '=', stageName!)
    .orderBy('s.id')
    .execute();
  if (stages.length === 0) return 'unknown_stage';
  const matching = pipelineIds ? stages.filter((s) => pipelineIds.includes(s.pipeline_id)) : stages;
  if (matching.length === 0) return 'stage_not_in_pipeline';
  return { kind: 'stages', ids: matching.map((s) => s.id) };
}

/** Keyset pages of deals under a resolved filter. */
export function dealPages(store: Store) {
  const all = keysetList(store, 'deals', 'created_at');
  const byCount = new Map<string, ReturnType<typeof keysetList<string>>>();
  return (filter: DealFilter) => {
    if (filter.kind === 'all') return all;
    const key = `${filter.kind}:${filter.ids.length}`;
    let list = byCount.get(key);
    if (!list) {
      const column = filter.kind === 'pipelines' ? 'pipeline_id' : 'stage_id';
      const names = filter.ids.map((_, i) => `f${i}`);
      list = keysetList<string>(store, 'deals', 'created_at', (qb, param) =>
        qb.where(
          column,
          'in',
          names.map((n) => param(n)),
        ),
      );
      byCount.set(key, list);
    }
    return list;
  };
}

/** Values of a filter's parameters, in the order `dealPages` names them. */
export function filterValues(filter: DealFilter): Record<string, unknown> {
  return filter.kind === 'all' ? {} : Object.fromEntries(filter.ids.map((id, i) => [`f${i}`, id]));
}

/** The single-deal row: stored JSON and what its read-time keys need. */
export function singleDealQuery(store: Store) {
  const query = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('deals')
      .select([
        'body',
        'created_at',
        'closed_at',
        'stage_entered_at',
        'follower_ids',
        'participant_ids',
      ])
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  return async (workspaceId: string, dealId: string) => {
    const rows = await store.rows(query({ ws: workspaceId, id: dealId }));
    const r = rows[0];
    if (!r) return undefined;
    return {
      body: r[0] as Buffer | string,
      created_at: r[1] as string,
      closed_at: r[2] as string | null,
      stage_entered_at: r[3] as string | null,
      follower_ids: JSON.parse(r[4] as string) as string[],
      participant_ids: JSON.parse(r[5] as string) as string[],
    };
  };
}

/** Names of users or people by id, in the order asked (unknown ones get `''`). */
export async function refsOf(
  db: Kysely<Database>,
  workspaceId: string,
  table: 'users' | 'people',
  ids: string[],
): Promise<{ id: string; name: string }[]> {
  const names = await columnById<string>(db, table, workspaceId, ids, 'name');
  return ids.map((id) => ({ id, name: names.get(id) ?? '' }));
}

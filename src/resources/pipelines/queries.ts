import type { PipelineRow, StageRow } from '../../render/pipelines.ts';
import type { Store } from '../../store/database.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The pipelines of one kind in a workspace, in their order, with their stages in order. */
export function pipelineQuery(store: Store) {
  const pipelines = prepareQuery<'ws' | 'kind'>((p) =>
    store.reader
      .selectFrom('pipelines')
      .select(['id', 'name'])
      .where('workspace_id', '=', p('ws'))
      .where('kind', '=', p('kind'))
      .orderBy('position')
      .orderBy('id'),
  );
  const stages = prepareQuery<'ws' | 'kind'>((p) =>
    store.reader
      .selectFrom('pipeline_stages as s')
      .innerJoin('pipelines as p', (j) =>
        j.onRef('p.workspace_id', '=', 's.workspace_id').onRef('p.id', '=', 's.pipeline_id'),
      )
      .select(['s.pipeline_id', 's.id', 's.name'])
      .where('s.workspace_id', '=', p('ws'))
      .where('p.kind', '=', p('kind'))
      .orderBy('s.pipeline_id')
      .orderBy('s.position')
      .orderBy('s.id'),
  );
  return async (
    workspaceId: string,
    kind: 'deal' | 'lead',
  ): Promise<{ pipelines: PipelineRow[]; stages: StageRow[] }> => {
    const values = { ws: workspaceId, kind };
    const p = await store.rows(pipelines(values));
    const s = await store.rows(stages(values));
    return {
      pipelines: p.map(([id, name]) => ({ id: String(id), name: String(name) })),
      stages: s.map(([pipelineId, id, name]) => ({
        pipeline_id: String(pipelineId),
        id: String(id),
        name: String(name),
      })),
    };
  };
}

/** Every pipeline of a workspace, deal, lead and custom object, in their order, with their stages in order. */
export function allPipelinesQuery(store: Store) {
  const pipelines = prepareQuery<'ws'>((p) =>
    store.reader
      .selectFrom('pipelines')
      .select(['id', 'name'])
      .where('workspace_id', '=', p('ws'))
      .orderBy('position')
      .orderBy('id'),
  );
  const stages = prepareQuery<'ws'>((p) =>
    store.reader
      .selectFrom('pipeline_stages')
      .select(['pipeline_id', 'id', 'name'])
      .where('workspace_id', '=', p('ws'))
      .orderBy('pipeline_id')
      .orderBy('position')
      .orderBy('id'),
  );
  return async (workspaceId: string): Promise<{ pipelines: PipelineRow[]; stages: StageRow[] }> => {
    const p = await store.rows(pipelines({ ws: workspaceId }));
    const s = await store.rows(stages({ ws: workspaceId }));
    return {
      pipelines: p.map(([id, name]) => ({ id: String(id), name: String(name) })),
      stages: s.map(([pipelineId, id, name]) => ({
        pipeline_id: String(pipelineId),
        id: String(id),
        name: String(name),
      })),
    };
  };
}

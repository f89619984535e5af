import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { insertMany } from '../../store/insert.ts';
import type { WorkspaceWrite } from '../../store/write.ts';

/** A pipeline of deals, leads or a custom object definition, with its stages in order. */
export interface NewPipeline {
  id?: string;
  kind: 'deal' | 'lead' | 'customObject';
  name: string;
  stages: { id?: string; name: string }[];
}

/**
 * Adds a pipeline and its stages; returns the ids. Every deal (or lead) of the workspace
 * shows the new stages' timing keys (null), so each is rendered again in the same write.
 */
export async function insertPipeline(
  w: WorkspaceWrite,
  pipeline: NewPipeline,
): Promise<{ id: string; stageIds: string[] }> {
  const { trx, workspaceId } = w;
  const id = pipeline.id ?? newId();
  const position = await trx
    .selectFrom('pipelines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('pipelines')
    .values({
      workspace_id: workspaceId,
      id,
      kind: pipeline.kind,
      name: pipeline.name,
      position: Number(position.n),
      created_at: now(),
    })
    .execute();
  const stages = pipeline.stages.map((s, i) => ({
    workspace_id: workspaceId,
    id: s.id ?? newId(),
    pipeline_id: id,
    name: s.name,
    position: i,
  }));
  await insertMany(trx, 'pipeline_stages', stages);
  // Deals and leads show every stage of their pipelines (the stage timing keys): the new
  // ones too. Custom objects show only their own stage.
  if (pipeline.kind === 'deal' || pipeline.kind === 'lead') {
    const kind = pipeline.kind;
    const records = await trx
      .selectFrom(kind === 'deal' ? 'deals' : 'leads')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const r of records) w.touched.mark(kind, r.id);
  }
  return { id, stageIds: stages.map((s) => s.id) };
}

import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import type { Executor } from '../../store/database.ts';
import { insertMany } from '../../store/insert.ts';

/** A pipeline of deals, leads or a custom object definition, with its stages in order. */
export interface NewPipeline {
  id?: string;
  kind: 'deal' | 'lead' | 'customObject';
  name: string;
  stages: { id?: string; name: string }[];
}

/** Adds a pipeline and its stages; returns the ids. */
export async function insertPipeline(
  trx: Executor,
  workspaceId: string,
  pipeline: NewPipeline,
): Promise<{ id: string; stageIds: string[] }> {
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
  return { id, stageIds: stages.map((s) => s.id) };
}

/** A pipeline as its list query reads it. */
export interface PipelineRow {
  id: string;
  name: string;
}

/** A stage as its list query reads it: its pipeline's stages come in stage order. */
export interface StageRow {
  pipeline_id: string;
  id: string;
  name: string;
}

/** One pipeline of `GET /v2/deal/pipeline` and `GET /v2/lead/pipeline`. */
export interface PipelineRecord {
  id: string;
  name: string;
  pipelineStageList: { id: string; name: string; index: number }[];
}

/**
 * The pipeline list: pipelines in the order given, each with its stages in stage order and
 * `index` counted from 0 (whatever the stored positions are).
 */
export function renderPipelines(
  pipelines: readonly PipelineRow[],
  stages: readonly StageRow[],
): PipelineRecord[] {
  const byPipeline = new Map<string, PipelineRecord['pipelineStageList']>();
  for (const p of pipelines) byPipeline.set(p.id, []);
  for (const s of stages) {
    const list = byPipeline.get(s.pipeline_id);
    list?.push({ id: s.id, name: s.name, index: list.length });
  }
  return pipelines.map((p) => ({
    id: p.id,
    name: p.name,
    pipelineStageList: byPipeline.get(p.id)!,
  }));
}

/**
 * One pipeline of `GET /v2/pipeline`: the live API names its ids `_id` there (docs/decisions.md,
 * Other resources).
 */
export interface AnyPipelineRecord {
  _id: string;
  name: string;
  pipelineStageList: { _id: string; name: string; index: number }[];
}

/** Every pipeline, deal and lead, in the order given, in `GET /v2/pipeline`'s keys. */
export function renderAllPipelines(
  pipelines: readonly PipelineRow[],
  stages: readonly StageRow[],
): AnyPipelineRecord[] {
  return renderPipelines(pipelines, stages).map((p) => ({
    _id: p.id,
    name: p.name,
    pipelineStageList: p.pipelineStageList.map((s) => ({
      _id: s.id,
      name: s.name,
      index: s.index,
    })),
  }));
}

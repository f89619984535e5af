/** The demo's deal and lead pipelines with their stages. */
import type { DemoContext } from './context.ts';
import { DAY } from './random.ts';
import * as words from './words.ts';

export function generatePipelines(ctx: DemoContext): void {
  const t0 = ctx.start - 80 * DAY;
  for (const [name, stages] of words.DEAL_PIPELINES) {
    const pipeline = addPipeline(ctx, 'deal', name, stages, t0);
    ctx.dealPipelines.push({ ...pipeline, stages });
  }
  for (const [name, stages] of words.LEAD_PIPELINES) {
    ctx.leadPipelines.push(addPipeline(ctx, 'lead', name, stages, t0));
  }
}

function addPipeline(
  ctx: DemoContext,
  kind: 'deal' | 'lead',
  name: string,
  stages: readonly string[],
  ms: number,
) {
  const id = ctx.ids.next(ms);
  const stageList = stages.map((s) => ({ id: ctx.ids.next(ms), name: s }));
  ctx.out.pipelines.push({ id, kind, name, stages: stageList });
  return { id, stageIds: stageList.map((s) => s.id) };
}

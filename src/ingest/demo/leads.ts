/** The demo's leads: label, pipeline and stage (for about a third), name and custom fields. */
import type { NewLead } from '../../resources/leads/writes.ts';
import { SOURCE_API, SOURCE_IMPORT } from '../../resources/owned.ts';
import { type DemoContext, fill, type RecordInfo } from './context.ts';
import { DAY, HOUR, iso, workTime } from './random.ts';
import { drawRecords, type RecordStart } from './records.ts';
import * as words from './words.ts';

/** Draws `count` leads of the chunk's people. */
export function generateLeads(ctx: DemoContext, count: number): void {
  drawRecords(ctx, 'lead', count, lead);
}

function lead(ctx: DemoContext, start: RecordStart): RecordInfo {
  const { r } = ctx;
  const { id, person, org, createdMs, ownerId } = start;
  const old = ctx.base - createdMs > 180 * DAY;
  const label = r.weighted(['New', 'Nurturing', 'MQL', 'Working', 'Archive'] as const, (l) =>
    l === 'Archive' ? (old ? 40 : 5) : l === 'New' ? (old ? 5 : 30) : 20,
  );
  const withPipeline = r.chance(0.35);
  const pipeline = r.weighted(ctx.leadPipelines, (p) => (p === ctx.leadPipelines[0] ? 7 : 3));
  const stageIndex = withPipeline ? r.int(0, pipeline.stageIds.length - 1) : 0;
  const stageEnteredMs =
    stageIndex === 0
      ? createdMs
      : workTime(r, createdMs + HOUR, Math.max(createdMs + HOUR, ctx.base));
  const name = fill(r.pick(words.LEAD_NAME_TEMPLATES), {
    org: org?.shortName ?? `${person.name}님`,
    product: r.pick(['CRM 스탠다드', 'CRM 프로', '마케팅 자동화', '고객 지원 데스크']),
  });
  const custom: Record<string, unknown> = {};
  if (r.chance(0.85)) custom[ctx.field.channel!] = r.pick(words.LEAD_CHANNELS);
  if (r.chance(0.5)) custom[ctx.field.budget!] = r.around(10, 3, 1, 300) * 1_000_000;
  const input: NewLead = {
    id,
    name,
    peopleId: person.id,
    organizationId: org?.id ?? null,
    pipelineId: withPipeline ? pipeline.id : null,
    stageId: withPipeline ? pipeline.stageIds[stageIndex]! : null,
    stageEnteredAt: withPipeline ? iso(stageEnteredMs) : null,
    amount: null,
    label: label === 'New' && r.chance(0.5) ? null : label,
    expectedCloseAt: r.chance(0.1)
      ? iso(workTime(r, createdMs + 30 * DAY, createdMs + 120 * DAY))
      : null,
    source: r.chance(0.35) ? SOURCE_IMPORT : SOURCE_API,
    ownerId,
    custom,
    createdAt: iso(createdMs),
    updatedAt: iso(withPipeline ? Math.max(createdMs, stageEnteredMs) : createdMs),
  };
  return {
    kind: 'lead',
    id,
    name,
    person,
    org,
    createdMs,
    endMs: ctx.base,
    closedMs: null,
    outcome: null,
    stageIndex,
    ownerId,
    input,
  };
}

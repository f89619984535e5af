/**
 * The demo's deals: pipeline and stage, outcome and close, name, custom fields, followers
 * and participants.
 */
import type { DealOutcome } from '../../domain/deals.ts';
import type { NewDeal } from '../../resources/deals/writes.ts';
import { SOURCE_API, SOURCE_IMPORT } from '../../resources/owned.ts';
import { type DemoContext, fill, type RecordInfo } from './context.ts';
import { DAY, HOUR, iso, workTime } from './random.ts';
import { drawRecords, type RecordStart } from './records.ts';
import * as words from './words.ts';

/** Draws `count` deals of the chunk's people. */
export function generateDeals(ctx: DemoContext, count: number): void {
  drawRecords(ctx, 'deal', count, deal);
}

function deal(ctx: DemoContext, start: RecordStart): RecordInfo {
  const { r } = ctx;
  const { id, person, org, createdMs, ownerId } = start;
  const pipelineIndex = r.weighted([0, 1, 2], (p) => [6, 2, 2][p]!);
  const pipeline = ctx.dealPipelines[pipelineIndex]!;
  const last = pipeline.stageIds.length - 1;
  const age = ctx.base - createdMs;
  const outcome: DealOutcome =
    age < 14 * DAY
      ? 'In progress'
      : r.weighted(['In progress', 'Won', 'Lost'] as const, (o) =>
          o === 'Won' ? 30 : o === 'Lost' ? 25 : 45,
        );
  const closedMs =
    outcome === 'In progress'
      ? null
      : workTime(r, createdMs + 3 * DAY, Math.min(ctx.base, createdMs + 150 * DAY));
  const endMs = closedMs ?? ctx.base;
  const stageIndex =
    outcome === 'Won'
      ? last
      : r.chance(0.05) && outcome === 'In progress'
        ? last
        : Math.floor(last * r.next() ** 1.3);
  const stageEnteredMs =
    stageIndex === 0 ? createdMs : workTime(r, createdMs + HOUR, Math.max(createdMs + HOUR, endMs));
  const plan = r.pick(['CRM 스탠다드', 'CRM 프로', 'CRM 엔터프라이즈']);
  const template = r.pick(words.DEAL_NAME_TEMPLATES[pipelineIndex]!);
  const name = org
    ? fill(template, { org: org.shortName, product: plan, n: String(r.int(3, 60)) })
    : `${person.name}님 ${plan} 도입`;
  const custom: Record<string, unknown> = {};
  if (r.chance(0.85)) {
    custom[ctx.field.contractType!] =
      pipelineIndex === 1
        ? '갱신'
        : r.weighted(['신규', '업셀', '크로스셀'], (t) => (t === '신규' ? 7 : 1.5));
  }
  if (r.chance(0.6)) custom[ctx.field.urgent!] = r.chance(0.15);
  if (r.chance(0.15)) {
    const referrer = r.pick(ctx.persons);
    if (referrer !== person) custom[ctx.field.referrer!] = referrer.id;
  }
  const label =
    outcome === 'In progress' && r.chance(0.3)
      ? 'SQL'
      : outcome === 'Won' && r.chance(0.4)
        ? 'Convert'
        : null;
  const followers = r.chance(0.3)
    ? r.sample(
        ctx.userIds.filter((u) => u !== ownerId),
        r.int(1, 2),
      )
    : [];
  const colleagues = org ? org.peopleIdx.map((i) => ctx.persons[i]!.id) : [];
  const participants =
    colleagues.length > 0 && r.chance(0.25) ? r.sample(colleagues, r.int(1, 3)) : [];
  const input: NewDeal = {
    id,
    name,
    peopleId: person.id,
    organizationId: org?.id ?? null,
    pipelineId: pipeline.id,
    stageId: pipeline.stageIds[stageIndex]!,
    stageEnteredAt: iso(stageEnteredMs),
    amount: null,
    label,
    expectedCloseAt: r.chance(0.8)
      ? iso(workTime(r, createdMs + 20 * DAY, createdMs + 150 * DAY))
      : null,
    source: r.chance(0.3) ? SOURCE_IMPORT : SOURCE_API,
    outcome,
    closedAt: closedMs === null ? null : iso(closedMs),
    followerIds: followers,
    participantIds: participants,
    ownerId,
    custom,
    createdAt: iso(createdMs),
    updatedAt: iso(Math.max(createdMs, stageEnteredMs, closedMs ?? 0)),
  };
  return {
    kind: 'deal',
    id,
    name,
    person,
    org,
    createdMs,
    endMs,
    closedMs,
    outcome,
    stageIndex,
    ownerId,
    input,
  };
}

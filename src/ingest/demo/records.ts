/**
 * What deals and leads start from: a person of the chunk (a deal prefers one of a company),
 * their organization, a creation time after the person's, a seeded id and an owner. The
 * kind's own generator draws the rest.
 */
import type { DemoContext, OrgInfo, PersonInfo, RecordInfo } from './context.ts';
import { HOUR, workTime } from './random.ts';

/** What every deal or lead starts from, drawn before what is particular to its kind. */
export interface RecordStart {
  id: string;
  person: PersonInfo;
  org: OrgInfo | null;
  createdMs: number;
  ownerId: string;
}

/** Draws what is particular to a deal or a lead, given what every record starts from. */
type DrawRecord = (ctx: DemoContext, start: RecordStart) => RecordInfo;

/** Draws `count` deals or leads, each with `make`. */
export function drawRecords(
  ctx: DemoContext,
  kind: 'deal' | 'lead',
  count: number,
  make: DrawRecord,
): void {
  const { r } = ctx;
  for (let i = 0; i < count && ctx.persons.length > 0; i++) {
    // Deals go mostly to people of a company; a person on their own draws a second time.
    let person = r.pick(ctx.persons);
    if (kind === 'deal' && !person.org) person = r.pick(ctx.persons);
    const org = person.org && r.chance(0.95) ? person.org : null;
    const createdMs = workTime(r, person.createdMs + HOUR, ctx.base - HOUR);
    const id = ctx.ids.next(createdMs);
    const ownerId = r.chance(0.6) ? person.ownerId : ctx.ownerId();
    const info = make(ctx, { id, person, org, createdMs, ownerId });
    (kind === 'deal' ? ctx.deals : ctx.leads).push(info);
    (kind === 'deal' ? ctx.out.deals : ctx.out.leads).push(info.input);
  }
}

/** The demo's sequences and the enrollments of people, deals and leads in them. */
import type { NewEnrollment } from '../../resources/sequences/writes.ts';
import type { DemoContext } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateSequences(ctx: DemoContext): void {
  const { r } = ctx;
  const count = r.int(3, 5);
  for (const name of words.SEQUENCE_NAMES.slice(0, count)) {
    const ms = workTime(r, ctx.start - 40 * DAY, ctx.start - 10 * DAY);
    const id = ctx.ids.next(ms);
    ctx.sequenceIds.push(id);
    ctx.out.sequences.push({ id, name, createdAt: iso(ms) });
  }
}

export function generateEnrollments(ctx: DemoContext): void {
  const { r } = ctx;
  const seq = ctx.sequenceIds;
  // Leads get the nurturing sequences, deals the trial and renewal ones, people any.
  const forLeads = seq.slice(0, 3);
  const forDeals = seq.length > 4 ? [seq[1]!, seq[4]!] : [seq[1]!];
  const enroll = (
    subjectType: NewEnrollment['subjectType'],
    subjectId: string,
    pool: string[],
    lo: number,
    hi: number,
  ) => {
    const times = r.chance(0.12) ? 2 : 1;
    for (const sequenceId of r.sample(pool, times)) {
      const ms = workTime(r, lo, hi);
      const recent = ms > ctx.base - 40 * DAY;
      ctx.out.enrollments.push({
        id: ctx.ids.next(ms),
        sequenceId,
        subjectType,
        subjectId,
        enrolledAt: iso(ms),
        active: recent ? r.chance(0.8) : r.chance(0.05),
      });
    }
  };
  for (const person of ctx.persons) {
    if (r.chance(0.12)) enroll('people', person.id, seq, person.createdMs, ctx.base);
  }
  for (const deal of ctx.deals) {
    if (r.chance(0.08)) enroll('deal', deal.id, forDeals, deal.createdMs, deal.endMs);
  }
  for (const lead of ctx.leads) {
    if (r.chance(0.22)) enroll('lead', lead.id, forLeads, lead.createdMs, ctx.base);
  }
}

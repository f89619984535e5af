/**
 * The demo's sequences, their steps, the enrollments of people, deals and leads in them, and
 * what happened in each enrollment (its timeline of e-mails sent, opened, clicked, answered).
 */
import type { NewEnrollment, NewSequenceStep } from '../../resources/sequences/writes.ts';
import type { DemoContext } from './context.ts';
import { DAY, HOUR, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateSequences(ctx: DemoContext): void {
  const { r } = ctx;
  const count = r.int(3, 5);
  words.SEQUENCE_NAMES.slice(0, count).forEach((name, i) => {
    const ms = workTime(r, ctx.start - 40 * DAY, ctx.start - 10 * DAY);
    const id = ctx.ids.next(ms);
    ctx.sequenceIds.push(id);
    const description = words.SEQUENCE_DESCRIPTIONS[i]!;
    ctx.out.sequences.push({ id, name, description, createdAt: iso(ms) });
  });
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

const EXECUTION_TIMES = ['0900', '0930', '1000', '1400', '1600'] as const;

/**
 * The steps of every sequence (first chunk only) and the timelines of the chunk's
 * enrollments. Drawn after every record, so that adding them left those as they were.
 */
export function generateSequenceDetails(ctx: DemoContext): void {
  const { r } = ctx;
  if (ctx.chunk === 0) {
    for (const sequence of ctx.out.sequences) {
      const created = Date.parse(sequence.createdAt);
      const count = r.int(3, 5);
      const steps: NewSequenceStep[] = [];
      for (let index = 0; index < count; index++) {
        const first = index === 0;
        steps.push({
          id: ctx.ids.next(created),
          sequenceId: sequence.id,
          index,
          // E-mails, with a todo for the owner now and then (never first).
          type: !first && r.chance(0.3) ? 'createTodo' : 'sendEmail',
          executeImmediately: first,
          businessDay: first ? 0 : r.int(2, 4),
          executionTime: first ? null : r.pick(EXECUTION_TIMES),
        });
      }
      ctx.sequenceSteps.set(sequence.id, steps);
      ctx.out.sequenceSteps.push(...steps);
    }
  }
  for (const enrollment of ctx.out.enrollments) generateTimeline(ctx, enrollment);
}

/** When a step runs: right after the step before, or `businessDay` working days later at its time. */
function stepTime(ctx: DemoContext, step: NewSequenceStep, previous: number): number {
  if (step.executeImmediately) return previous + ctx.r.int(1, 30) * 60_000;
  // Weekends skipped roughly: five working days span seven.
  const later = previous + Math.ceil((step.businessDay * 7) / 5) * DAY;
  const local = later + 9 * HOUR;
  const dayStart = local - (local % DAY) - 9 * HOUR;
  const time = step.executionTime!;
  return dayStart + Number(time.slice(0, 2)) * HOUR + Number(time.slice(2)) * 60_000;
}

function generateTimeline(ctx: DemoContext, enrollment: NewEnrollment): void {
  const { r } = ctx;
  const steps = ctx.sequenceSteps.get(enrollment.sequenceId) ?? [];
  // Some enrollments have not run a step yet (the live API's `sequenceEnrollStep` 400).
  if (steps.length === 0 || r.chance(0.08)) return;
  const reached = enrollment.active === false ? r.int(1, steps.length) : steps.length;
  let at = Date.parse(enrollment.enrolledAt!);
  for (const step of steps.slice(0, reached)) {
    at = stepTime(ctx, step, at);
    if (at > ctx.base) return;
    if (step.type !== 'sendEmail') continue;
    const emailId = ctx.ids.next(at);
    const event = (
      eventType: 'sendEmail' | 'emailOpen' | 'emailLinkClick' | 'emailReply',
      ms: number,
      link?: { url: string; name: string },
    ) => {
      if (ms > ctx.base) return;
      ctx.out.sequenceTimeline.push({
        id: ctx.ids.next(ms),
        enrollmentId: enrollment.id!,
        eventType,
        stepIndex: step.index,
        date: iso(ms),
        emailId,
        linkUrl: link?.url ?? null,
        linkName: link?.name ?? null,
      });
    };
    event('sendEmail', at);
    if (!r.chance(0.55)) continue;
    const opened = at + r.int(10, 600) * 60_000;
    event('emailOpen', opened);
    if (r.chance(0.2))
      event('emailLinkClick', opened + r.int(1, 30) * 60_000, r.pick(words.SEQUENCE_LINKS));
    if (r.chance(0.08)) event('emailReply', opened + r.int(1, 48) * HOUR);
  }
}

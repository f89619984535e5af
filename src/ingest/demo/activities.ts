/**
 * The demo's activities: those of deals and leads (their creation, e-mails, meetings,
 * texts, and what notes, todos and form submissions add), and those of people and
 * organizations outside any deal or lead.
 */
import type { NewActivity } from '../../resources/deal-activities/writes.ts';
import type { DemoContext, PersonInfo, RecordInfo } from './context.ts';
import { draftEmail } from './emails.ts';
import { DAY, HOUR, iso, workTime } from './random.ts';
import { draftRecording } from './recordings.ts';

/** An activity of a deal or lead at `ms`, with the deal's status at that time. */
export function addActivity(
  ctx: DemoContext,
  record: RecordInfo,
  type: NewActivity['type'],
  ms: number,
  related: Pick<NewActivity, 'webFormId' | 'smsId' | 'todoId' | 'memoId' | 'emailMessageId'> = {},
): void {
  const dealStatus = statusAt(record, ms);
  ctx.out.activities.push({
    id: ctx.ids.next(ms),
    subjectType: record.kind,
    subjectId: record.id,
    type,
    date: iso(ms),
    dealStatus,
    webFormId: related.webFormId ?? null,
    smsId: related.smsId ?? null,
    todoId: related.todoId ?? null,
    memoId: related.memoId ?? null,
    emailMessageId: related.emailMessageId ?? null,
  });
}

/** A deal's outcome at `ms` (null for a lead). */
function statusAt(record: RecordInfo, ms: number): string | null {
  if (record.kind === 'lead') return null;
  return record.closedMs !== null && ms >= record.closedMs ? record.outcome : 'In progress';
}

/** The activities of one deal or lead, from its creation to its end. */
export function generateRecordActivities(ctx: DemoContext, record: RecordInfo): void {
  const { r } = ctx;
  const { createdMs, endMs } = record;
  const within = () => workTime(r, createdMs, endMs);
  // The first deal and lead show every kind of activity they can have on their own, so
  // even a small demo has them all on both.
  const showcase = ctx.chunk === 0 && (record === ctx.deals[0] || record === ctx.leads[0]);
  addActivity(ctx, record, 'create', createdMs);
  const isDeal = record.kind === 'deal';
  const emails = showcase
    ? 1
    : isDeal
      ? r.weighted([0, 1, 2], (n) => [7, 9, 4][n]!)
      : r.chance(0.4)
        ? 1
        : 0;
  for (let k = emails; k > 0; k--) {
    const ms = within();
    const emailMessageId = ctx.ids.next(ms);
    addActivity(ctx, record, 'email', ms, { emailMessageId });
    draftEmail(ctx, {
      id: emailMessageId,
      ms,
      senderId: record.ownerId,
      person: record.person,
      recordName: record.name,
    });
    if (showcase || r.chance(0.5)) {
      const opened = Math.min(ctx.base, ms + r.int(60_000, 3 * DAY));
      addActivity(ctx, record, 'emailOpen', opened, { emailMessageId });
    }
  }
  const meetings = showcase
    ? 1
    : isDeal
      ? record.stageIndex >= 1
        ? r.int(0, 2)
        : r.chance(0.3)
          ? 1
          : 0
      : r.chance(0.1)
        ? 1
        : 0;
  for (let k = meetings; k > 0; k--) {
    const ms = within();
    addActivity(ctx, record, 'meeting', ms);
    if (showcase || r.chance(0.2)) {
      const at = Math.min(ctx.base, ms + HOUR);
      draftRecording(ctx, record, at, ctx.ids.next(at), statusAt(record, at));
    }
  }
  if (showcase || r.chance(isDeal ? 0.25 : 0.2)) {
    addActivity(ctx, record, 'smsSend', within(), { smsId: ctx.ids.next(createdMs) });
  }
  if (showcase || r.chance(0.15)) addActivity(ctx, record, 'kakaoAlimtalkSend', within());
  if (record.outcome === 'Won' && r.chance(0.3)) {
    // Onboarding notice after the contract.
    const ms = Math.min(ctx.base, record.closedMs! + r.int(HOUR, 3 * DAY));
    addActivity(ctx, record, 'kakaoAlimtalkSend', ms);
  }
}

/** An activity of a person or organization (their own list; no deal status). */
function subjectActivity(
  ctx: DemoContext,
  subjectType: 'people' | 'organization',
  subjectId: string,
  type: NewActivity['type'],
  ms: number,
  related: Pick<NewActivity, 'smsId' | 'emailMessageId'> = {},
): void {
  ctx.out.activities.push({
    id: ctx.ids.next(ms),
    subjectType,
    subjectId,
    type,
    date: iso(ms),
    dealStatus: null,
    webFormId: null,
    smsId: related.smsId ?? null,
    todoId: null,
    memoId: null,
    emailMessageId: related.emailMessageId ?? null,
  });
}

/**
 * Touches of people and organizations outside any deal or lead: for about one in ten, its
 * creation, and e-mails, texts and KakaoTalk notices (newsletters, event invitations).
 * The first person and organization have them all, so even a small demo lists them.
 */
export function generatePeopleAndOrganizationActivities(ctx: DemoContext): void {
  const { r } = ctx;
  const touch = (
    subjectType: 'people' | 'organization',
    id: string,
    createdMs: number,
    showcase: boolean,
    recipient: PersonInfo | null,
    senderId: string,
  ) => {
    if (!showcase && !r.chance(0.1)) return;
    subjectActivity(ctx, subjectType, id, 'create', createdMs);
    if (showcase || r.chance(0.5)) {
      const ms = workTime(r, createdMs, ctx.base);
      const emailMessageId = ctx.ids.next(ms);
      subjectActivity(ctx, subjectType, id, 'email', ms, { emailMessageId });
      draftEmail(ctx, { id: emailMessageId, ms, senderId, person: recipient, recordName: null });
      if (showcase || r.chance(0.4)) {
        const opened = Math.min(ctx.base, ms + r.int(60_000, 2 * DAY));
        subjectActivity(ctx, subjectType, id, 'emailOpen', opened, { emailMessageId });
      }
    }
    if (showcase || r.chance(0.2)) {
      const ms = workTime(r, createdMs, ctx.base);
      subjectActivity(ctx, subjectType, id, 'smsSend', ms, { smsId: ctx.ids.next(ms) });
    }
    if (showcase || r.chance(0.2)) {
      subjectActivity(ctx, subjectType, id, 'kakaoAlimtalkSend', workTime(r, createdMs, ctx.base));
    }
  };
  const first = ctx.chunk === 0;
  for (const [i, p] of ctx.persons.entries()) {
    touch('people', p.id, p.createdMs, first && i === 0, p, p.ownerId);
  }
  for (const [i, o] of ctx.orgs.entries()) {
    // An organization's newsletter goes to its first contact.
    const contact = o.peopleIdx.length > 0 ? ctx.persons[o.peopleIdx[0]!]! : null;
    touch('organization', o.id, o.createdMs, first && i === 0, contact, o.ownerId);
  }
}

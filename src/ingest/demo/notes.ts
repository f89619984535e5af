/** The demo's notes on people, organizations, deals, leads, products and quotes. */
import type { NewNote } from '../../resources/notes/writes.ts';
import { addActivity } from './activities.ts';
import { type DemoContext, fill, type PersonInfo, type RecordInfo } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateNotes(ctx: DemoContext): void {
  const { r } = ctx;
  const t = words.NOTE_TEXTS;
  for (const person of ctx.persons) {
    if (!r.chance(0.25)) continue;
    for (let k = r.int(1, 2); k > 0; k--) {
      note(
        ctx,
        'people',
        person.id,
        person.createdMs,
        ctx.base,
        r.pick(t.people),
        person,
        person.ownerId,
      );
    }
  }
  for (const org of ctx.orgs) {
    if (!r.chance(0.25)) continue;
    const contact = org.peopleIdx.length > 0 ? ctx.persons[org.peopleIdx[0]!]! : null;
    for (let k = r.int(1, 2); k > 0; k--) {
      note(
        ctx,
        'organization',
        org.id,
        org.createdMs,
        ctx.base,
        r.pick(t.organization),
        contact,
        org.ownerId,
      );
    }
  }
  for (const deal of ctx.deals) {
    if (r.chance(0.5)) {
      for (let k = r.chance(0.3) ? 2 : 1; k > 0; k--) {
        note(
          ctx,
          'deal',
          deal.id,
          deal.createdMs,
          deal.endMs,
          r.pick(t.deal),
          deal.person,
          deal.ownerId,
          deal,
        );
      }
    }
    if (deal.closedMs !== null && r.chance(0.4)) {
      const text = r.pick(deal.outcome === 'Won' ? t.dealWon : t.dealLost);
      note(
        ctx,
        'deal',
        deal.id,
        deal.closedMs,
        deal.closedMs,
        text,
        deal.person,
        deal.ownerId,
        deal,
      );
    }
  }
  for (const lead of ctx.leads) {
    if (!r.chance(0.3)) continue;
    for (let k = r.chance(0.2) ? 2 : 1; k > 0; k--) {
      note(
        ctx,
        'lead',
        lead.id,
        lead.createdMs,
        lead.endMs,
        r.pick(t.lead),
        lead.person,
        lead.ownerId,
        lead,
      );
    }
  }
  for (const product of ctx.out.products) {
    if (!r.chance(0.4)) continue;
    const texts = product.unit === '대' ? t.product : t.product.filter((s) => !s.includes('재고'));
    const created = Date.parse(product.createdAt!);
    note(ctx, 'product', product.id!, created, ctx.base, r.pick(texts), null, ctx.userIds[0]!);
  }
  for (const quote of ctx.out.quotes) {
    if (!r.chance(0.2)) continue;
    const created = Date.parse(quote.createdAt!);
    note(
      ctx,
      'quote',
      quote.id!,
      created,
      Math.min(ctx.base, created + 5 * DAY),
      r.pick(t.quote),
      null,
      quote.ownerId!,
    );
  }
}

function note(
  ctx: DemoContext,
  subjectType: NewNote['subjectType'],
  subjectId: string,
  lo: number,
  hi: number,
  template: string,
  person: PersonInfo | null,
  ownerId: string,
  record?: RecordInfo,
): void {
  const { r } = ctx;
  const ms = workTime(r, lo, hi);
  const id = ctx.ids.next(ms);
  const authorId = r.chance(0.8) ? ownerId : ctx.ownerId();
  const text = fill(template, {
    name: person?.name ?? '',
    title: person?.baseTitle ?? '담당자',
    org: person?.org?.shortName ?? '',
    product: r.pick(['CRM 스탠다드', 'CRM 프로', 'CRM 엔터프라이즈', '마케팅 자동화 애드온']),
    dept: r.pick(words.DEPARTMENTS),
    n: String(r.int(5, 80)),
    // A month ahead of the note (a start date, a budget round, a contract's end).
    month: String(new Date(ms + r.int(20, 100) * DAY).getUTCMonth() + 1),
    user: ctx.userNames.get(authorId)!,
  });
  ctx.out.notes.push({ id, subjectType, subjectId, text, authorId, createdAt: iso(ms) });
  if (record) addActivity(ctx, record, 'memoCreate', ms, { memoId: id });
}

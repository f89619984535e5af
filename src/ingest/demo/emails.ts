/**
 * The demo's e-mails: one sent e-mail behind each `email` activity (its `emailMessageId`),
 * so that every e-mail an activity names reads through `GET /v2/email/{id}`. The activities
 * note a draft as they are drawn (drawing nothing), and the texts are drawn last, so that
 * adding them left every record drawn before as it was.
 */
import type { EmailAddress } from '../../render/emails.ts';
import { type DemoContext, fill, type PersonInfo } from './context.ts';
import { DAY, iso } from './random.ts';
import * as words from './words.ts';

/** An e-mail an activity names, before its text is drawn. */
export interface EmailDraft {
  id: string;
  ms: number;
  senderId: string;
  /** Whom it went to (no one when the person has no address). */
  person: PersonInfo | null;
  /** The deal or lead it is about; newsletters are about none. */
  recordName: string | null;
}

/** Notes an e-mail to write for an `email` activity. */
export function draftEmail(ctx: DemoContext, draft: EmailDraft): void {
  ctx.emailDrafts.push(draft);
}

/** Draws the text of every e-mail drafted in this chunk. */
export function generateEmails(ctx: DemoContext): void {
  const { r } = ctx;
  for (const d of ctx.emailDrafts) {
    const kind = d.recordName === null ? 'newsletter' : 'sales';
    const template = r.pick(words.EMAIL_TEXTS[kind]);
    const sender = ctx.userNames.get(d.senderId)!;
    const person = d.person;
    const values = {
      name: person?.name ?? '고객',
      title: person?.baseTitle ?? '담당자',
      org: person?.org?.shortName ?? person?.name ?? '',
      user: sender,
      record: d.recordName ?? '',
      product: r.pick(['CRM 스탠다드', 'CRM 프로', 'CRM 엔터프라이즈', '마케팅 자동화 애드온']),
      n: String(r.int(5, 80)),
      month: String(new Date(d.ms + 10 * DAY).getUTCMonth() + 1),
    };
    const paragraphs = template.body.map((p) => fill(p, values));
    const to: EmailAddress[] =
      person?.email != null ? [{ email: person.email, name: person.name }] : [];
    ctx.out.emails.push({
      id: d.id,
      subject: fill(template.subject, values),
      from: { email: ctx.userEmails.get(d.senderId)!, name: sender },
      to,
      html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
      text: paragraphs.join('\n\n'),
      messageId: `<${d.id}@${words.SELLER.domain}>`,
      senderId: d.senderId,
      createdAt: iso(d.ms),
    });
  }
  ctx.emailDrafts = [];
}

/** `s` as HTML text: `&`, `<` and `>` escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

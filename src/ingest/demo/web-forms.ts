/** The demo's web forms and their submissions by the chunk's people. */
import { addActivity } from './activities.ts';
import type { DemoContext, PersonInfo } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateWebForms(ctx: DemoContext): void {
  const { r } = ctx;
  const count = r.int(3, 6);
  words.WEB_FORMS.slice(0, count).forEach(([name, description], i) => {
    const ms = workTime(
      r,
      ctx.start - 30 * DAY + i * 20 * DAY,
      ctx.start - 20 * DAY + i * 20 * DAY,
    );
    const id = ctx.ids.next(ms);
    ctx.webFormIds.push(id);
    ctx.out.webForms.push({
      id,
      name,
      description,
      status: i === count - 1 && count > 4 ? 'inactive' : 'active',
      viewCount: r.around(Math.max(200, ctx.peopleCount * 3), 2, 50, 10_000_000),
      createdAt: iso(ms),
    });
  });
}

export function generateSubmissions(ctx: DemoContext): void {
  const { r } = ctx;
  const inbound = ctx.webFormIds.slice(0, 4);
  for (const lead of ctx.leads) {
    if (!r.chance(0.3)) continue;
    submission(
      ctx,
      r.pick(inbound),
      lead.person,
      Math.max(ctx.start, lead.createdMs - r.int(1_000, 600_000)),
      {
        leadId: lead.id,
        organizationId: lead.org?.id ?? null,
      },
    );
    addActivity(ctx, lead, 'webFormSubmit', lead.createdMs, {
      webFormId: ctx.out.submissions.at(-1)!.webFormId,
    });
  }
  for (const deal of ctx.deals) {
    if (!r.chance(0.1)) continue;
    const ms = workTime(r, deal.createdMs, deal.endMs);
    const webFormId = r.pick(ctx.webFormIds);
    submission(ctx, webFormId, deal.person, ms, {
      dealId: deal.id,
      organizationId: deal.org?.id ?? null,
    });
    addActivity(ctx, deal, 'webFormSubmit', ms, { webFormId });
  }
  for (const person of ctx.persons) {
    if (!r.chance(0.06)) continue;
    const ms = workTime(r, person.createdMs, ctx.base);
    submission(ctx, r.pick(ctx.webFormIds), person, ms, {
      organizationId: person.org?.id ?? null,
    });
  }
}

function submission(
  ctx: DemoContext,
  webFormId: string,
  person: PersonInfo,
  ms: number,
  links: { leadId?: string; dealId?: string; organizationId: string | null },
): void {
  const { r } = ctx;
  const formIndex = ctx.webFormIds.indexOf(webFormId);
  const question = words.WEB_FORMS[formIndex]![2];
  const contents = [{ label: '이름', value: person.name }];
  if (person.org) contents.push({ label: '회사명', value: person.org.name });
  if (person.email) contents.push({ label: '이메일', value: person.email });
  if (person.phone) contents.push({ label: '연락처', value: person.phone });
  contents.push({ label: question, value: r.pick(words.FORM_ANSWERS) });
  ctx.out.submissions.push({
    id: ctx.ids.next(ms),
    webFormId,
    peopleId: person.id,
    organizationId: links.organizationId,
    dealId: links.dealId ?? null,
    leadId: links.leadId ?? null,
    contents,
    createdAt: iso(ms),
  });
}

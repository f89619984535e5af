/**
 * The demo's people: Korean names, job titles, e-mails and mobile numbers kept unique
 * across chunks, most of them at an organization.
 */
import { createHash } from 'node:crypto';
import { SOURCE_API, SOURCE_IMPORT } from '../../resources/owned.ts';
import type { NewPerson } from '../../resources/people/writes.ts';
import { type DemoContext, type OrgInfo, pad4 } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generatePeople(ctx: DemoContext): void {
  const { r, out, orgs } = ctx;
  const grades = words.FIELD_OPTIONS.customerGrade;
  for (let i = 0; i < ctx.chunkPeople; i++) {
    // Every organization gets a first contact; the rest spread unevenly, some without one.
    const org =
      i < orgs.length
        ? orgs[i]!
        : r.chance(0.87)
          ? orgs[Math.floor(orgs.length * r.next() ** 1.5)]!
          : null;
    const [from, until] = ctx.chunkWindow(ctx.base - DAY);
    const createdMs = org
      ? workTime(r, org.createdMs, Math.min(until, org.createdMs + 240 * DAY))
      : workTime(r, from, until);
    const id = ctx.ids.next(createdMs);
    const [surname, surRoman] = r.weighted(words.SURNAMES, (s) => s[2]);
    const [given, givenRoman] = r.pick(words.GIVEN_NAMES);
    const name = `${surname}${given}`;
    const [baseTitle, , executive] = r.chance(0.85)
      ? r.weighted(words.JOB_TITLES, (t) => t[1])
      : [null, 0, false];
    const title =
      baseTitle && !executive && r.chance(0.55)
        ? `${r.pick(words.DEPARTMENTS)} ${baseTitle}`
        : baseTitle;
    const email = r.chance(0.93) ? personEmail(ctx, givenRoman, surRoman, org) : null;
    const phone = r.chance(0.92) ? mobile(ctx) : null;
    const ownerId = org && r.chance(0.75) ? org.ownerId : ctx.ownerId();
    const custom: Record<string, unknown> = {};
    if (r.chance(0.8))
      custom[ctx.field.grade!] = r.weighted(grades, (g) =>
        g === 'VIP' ? 1 : g === '일반' ? 6 : 3,
      );
    if (r.chance(0.4)) {
      custom[ctx.field.birthday!] = iso(Date.UTC(r.int(1962, 1999), r.int(0, 11), r.int(1, 28)));
    }
    if (r.chance(0.5)) {
      const options = words.FIELD_OPTIONS.interests;
      const chosen = new Set(r.sample(options, r.int(1, 3)));
      custom[ctx.field.interests!] = options.filter((o) => chosen.has(o));
    }
    const unsubscribed = r.chance(0.04);
    const input: NewPerson = {
      id,
      name,
      organizationId: org?.id ?? null,
      email,
      phone,
      jobTitle: title,
      profileImage:
        email && r.chance(0.35)
          ? `https://www.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?d=identicon`
          : null,
      linkedin: r.chance(0.3)
        ? `https://www.linkedin.com/in/${givenRoman.replace('-', '')}-${surRoman}-${(r.uint32() & 0xffffff).toString(16)}`
        : null,
      unsubscribed,
      unsubscribeReason: unsubscribed && r.chance(0.7) ? r.pick(words.UNSUBSCRIBE_REASONS) : null,
      source: r.chance(0.45) ? SOURCE_IMPORT : SOURCE_API,
      ownerId,
      custom,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };
    if (org) org.peopleIdx.push(i);
    ctx.persons.push({
      id,
      name,
      givenRoman,
      surRoman,
      title,
      baseTitle,
      org,
      email,
      phone,
      createdMs,
      ownerId,
      input,
    });
    out.people.push(input);
  }
}

function personEmail(
  ctx: DemoContext,
  givenRoman: string,
  surRoman: string,
  org: OrgInfo | null,
): string {
  const { r } = ctx;
  const given = givenRoman.replace('-', '');
  const initials = givenRoman
    .split('-')
    .map((s) => s[0])
    .join('');
  let local: string;
  let domain: string;
  if (org && r.chance(0.9)) {
    domain = org.domain;
    local = r.pick([
      `${given}.${surRoman}`,
      `${surRoman}.${given}`,
      `${initials}${surRoman}`,
      `${surRoman}${given}`,
    ]);
  } else {
    domain = r.weighted(words.MAIL_SERVICES, (m) => m[1])[0];
    local = r.chance(0.5)
      ? `${given}${surRoman}${r.int(70, 99)}`
      : `${surRoman}.${given}${r.int(1, 999)}`;
  }
  let email = `${local}@${domain}`;
  for (let k = 2; ctx.usedEmails.has(email); k++) email = `${local}${k}@${domain}`;
  ctx.usedEmails.add(email);
  return email;
}

function mobile(ctx: DemoContext): string {
  for (;;) {
    const phone = `010-${ctx.r.int(2000, 9999)}-${pad4(ctx.r.int(0, 9999))}`;
    if (!ctx.usedPhones.has(phone)) {
      ctx.usedPhones.add(phone);
      return phone;
    }
  }
}

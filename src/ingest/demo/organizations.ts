/**
 * The demo's organizations: unique Korean company names with their domains, landlines and
 * custom fields.
 */
import { SOURCE_API, SOURCE_IMPORT } from '../../resources/owned.ts';
import { type DemoContext, type OrgInfo, pad4 } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateOrganizations(ctx: DemoContext): void {
  const { r, out } = ctx;
  const count = ctx.chunkPeople === 0 ? 0 : Math.max(1, Math.round(ctx.chunkPeople / 4));
  for (let i = 0; i < count; i++) {
    const company = companyName(ctx, ctx.orgsBefore + i);
    const createdMs = workTime(r, ...ctx.chunkWindow(ctx.base - 3 * DAY));
    const id = ctx.ids.next(createdMs);
    const ownerId = ctx.ownerId();
    const org: OrgInfo = { id, ...company, createdMs, ownerId, peopleIdx: [] };
    ctx.orgs.push(org);
    const custom: Record<string, unknown> = {};
    if (r.chance(0.85)) {
      custom[ctx.field.industry!] = r.chance(0.95)
        ? company.industry
        : r.pick(words.FIELD_OPTIONS.industries);
    }
    if (r.chance(0.75)) custom[ctx.field.employees!] = r.around(80, 6, 3, 30_000);
    const slug = company.domain.split('.')[0]!;
    out.organizations.push({
      id,
      name: company.name,
      email: r.chance(0.8)
        ? `${r.pick(['contact', 'info', 'sales', 'biz', 'help'])}@${company.domain}`
        : null,
      phone: r.chance(0.9) ? landline(ctx) : null,
      profileImage: r.chance(0.35) ? `https://logo.clearbit.com/${company.domain}` : null,
      linkedin: r.chance(0.25) ? `https://www.linkedin.com/company/${slug}` : null,
      source: r.chance(0.4) ? SOURCE_IMPORT : SOURCE_API,
      ownerId,
      custom,
      createdAt: iso(createdMs),
      updatedAt: iso(r.chance(0.3) ? workTime(r, createdMs, ctx.base) : createdMs),
    });
  }
}

function companyName(
  ctx: DemoContext,
  i: number,
): {
  name: string;
  shortName: string;
  domain: string;
  industry: string;
} {
  const { r } = ctx;
  const tld = r.weighted(['co.kr', 'com', 'kr'] as const, (t) =>
    t === 'co.kr' ? 6 : t === 'com' ? 3 : 1,
  );
  const featured = words.FEATURED_COMPANIES[i];
  if (featured) {
    const [prefix, core, legal] = featured;
    const p = words.COMPANY_PREFIXES.find(([h]) => h === prefix)!;
    const c = words.COMPANY_CORES.find(([h]) => h === core)!;
    return claimCompany(ctx, p, c, ['', '', 0], words.LEGAL_FORMS[legal]!, tld)!;
  }
  const legal = r.weighted(words.LEGAL_FORMS, (l) => l[2]);
  for (let attempt = 0; attempt < 40; attempt++) {
    const claimed = claimCompany(
      ctx,
      r.pick(words.COMPANY_PREFIXES),
      r.pick(words.COMPANY_CORES),
      r.weighted(words.COMPANY_MODIFIERS, (m) => m[2]),
      legal,
      tld,
    );
    if (claimed) return claimed;
  }
  // Names ran out: a branch office of a company that exists.
  for (let k = 1; ; k++) {
    const [ph, pr] = r.pick(words.COMPANY_PREFIXES);
    const [ch, cr, industry] = r.pick(words.COMPANY_CORES);
    const region = r.pick(words.REGIONS);
    const shortName = `${ph}${ch} ${region}${k > 20 ? k : ''}지사`;
    if (ctx.usedCompanyNames.has(shortName)) continue;
    ctx.usedCompanyNames.add(shortName);
    return {
      name: `${legal[0]}${shortName}${legal[1]}`,
      shortName,
      domain: `${pr}${cr}.${tld}`,
      industry,
    };
  }
}

function claimCompany(
  ctx: DemoContext,
  prefix: readonly [string, string],
  core: readonly [string, string, string],
  modifier: readonly [string, string, number],
  legal: readonly [string, string, number],
  tld: string,
) {
  const shortName = `${prefix[0]}${core[0]}${modifier[0]}`;
  if (ctx.usedCompanyNames.has(shortName)) return undefined;
  ctx.usedCompanyNames.add(shortName);
  return {
    name: `${legal[0]}${shortName}${legal[1]}`,
    shortName,
    domain: `${prefix[1]}${core[1]}${modifier[1]}.${tld}`,
    industry: core[2],
  };
}

function landline(ctx: DemoContext): string {
  const { r } = ctx;
  const code = r.weighted(words.AREA_CODES, (a) => a[1])[0];
  if (code === '1588') return `1588-${r.int(1000, 9999)}`;
  if (code === '02' || code === '070')
    return `${code}-${r.int(2000, 9999)}-${pad4(r.int(0, 9999))}`;
  return `${code}-${r.int(200, 999)}-${pad4(r.int(0, 9999))}`;
}

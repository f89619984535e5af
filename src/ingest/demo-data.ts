import { createHash } from 'node:crypto';
import type { DealOutcome } from '../domain/deals.ts';
import type { ProductKind } from '../domain/quotes.ts';
import type { NewCustomField } from '../resources/custom-fields/writes.ts';
import type { NewActivity } from '../resources/deal-activities/writes.ts';
import type { NewDeal } from '../resources/deals/writes.ts';
import type { NewLead } from '../resources/leads/writes.ts';
import type { NewNote } from '../resources/notes/writes.ts';
import type { NewOrganization } from '../resources/organizations/writes.ts';
import { SOURCE_API, SOURCE_IMPORT } from '../resources/owned.ts';
import type { NewPerson } from '../resources/people/writes.ts';
import type { PeopleChange } from '../resources/people-history/writes.ts';
import type { NewPipeline } from '../resources/pipelines/writes.ts';
import type { NewProduct } from '../resources/products/writes.ts';
import type { NewQuote, NewQuoteLine } from '../resources/quotes/writes.ts';
import type { RecordChange } from '../resources/record-history/writes.ts';
import type { NewEnrollment } from '../resources/sequences/writes.ts';
import type { NewTodo } from '../resources/todos/writes.ts';
import type { NewSubmission, NewWebForm } from '../resources/web-forms/writes.ts';
import type { NewTeam, NewUser } from '../resources/workspaces/writes.ts';
import { DAY, DemoIds, HOUR, iso, mix32, Random, workTime } from './demo/random.ts';
import * as words from './demo/words.ts';

/** A sequence row (sequences take no id through `insertSequences`, so the demo writes them). */
export interface DemoSequence {
  id: string;
  name: string;
  createdAt: string;
}

/** Everything a demo workspace holds, ids included, ready for the insert functions. */
export interface DemoData {
  workspaceName: string;
  adminUserId: string;
  users: NewUser[];
  teams: NewTeam[];
  pipelines: NewPipeline[];
  customFields: NewCustomField[];
  products: NewProduct[];
  organizations: NewOrganization[];
  people: NewPerson[];
  deals: NewDeal[];
  leads: NewLead[];
  quotes: NewQuote[];
  notes: NewNote[];
  todos: NewTodo[];
  webForms: NewWebForm[];
  submissions: NewSubmission[];
  sequences: DemoSequence[];
  enrollments: NewEnrollment[];
  activities: NewActivity[];
  history: PeopleChange[];
  /** History rows of deals, leads and organizations. */
  recordHistory: RecordChange[];
}

/** Days of history the demo spans, ending at its base date. */
const SPAN_DAYS = 730;

/**
 * The demo's "now": a date in 2025 picked by the seed, 18:00 in Korea. Fixed, so that the
 * same seed gives the same data on any day.
 */
export function demoBaseTime(seed: number): number {
  return Date.UTC(2025, 0, 1, 9) + (mix32(seed) % 365) * DAY;
}

interface OrgInfo {
  id: string;
  name: string;
  shortName: string;
  domain: string;
  industry: string;
  createdMs: number;
  ownerId: string;
  peopleIdx: number[];
}

interface PersonInfo {
  id: string;
  name: string;
  givenRoman: string;
  surRoman: string;
  title: string | null;
  baseTitle: string | null;
  org: OrgInfo | null;
  email: string | null;
  phone: string | null;
  createdMs: number;
  ownerId: string;
  input: NewPerson;
}

interface RecordInfo {
  kind: 'deal' | 'lead';
  id: string;
  name: string;
  person: PersonInfo;
  org: OrgInfo | null;
  createdMs: number;
  /** When the record stopped changing: its close, or the base date. */
  endMs: number;
  closedMs: number | null;
  outcome: DealOutcome | null;
  stageIndex: number;
  ownerId: string;
  input: NewDeal | NewLead;
}

interface ProductInfo {
  id: string;
  kind: ProductKind;
  name: string;
  code: string;
  price: number;
  unit: string;
  category: string;
}

/** People per chunk by default: a chunk's data takes about 280 MB while it is written. */
export const DEMO_CHUNK_PEOPLE = 20_000;

/** Generates the whole demo workspace in memory. Same seed and size, same data. */
export function generateDemoData(
  seed: number,
  peopleCount: number,
  chunkPeople = DEMO_CHUNK_PEOPLE,
): DemoData {
  const chunks = [...generateDemoChunks(seed, peopleCount, chunkPeople)];
  const all = chunks[0]!;
  for (const chunk of chunks.slice(1)) {
    for (const key of Object.keys(all) as (keyof DemoData)[]) {
      const list = all[key];
      if (Array.isArray(list)) list.push(...(chunk[key] as never[]));
    }
  }
  return all;
}

/**
 * Generates the demo chunk by chunk, `chunkPeople` people at a time with their
 * organizations, deals, leads, quotes, notes, todos, submissions, enrollments, activities
 * and history; each chunk's records refer only to the workspace structure and to records
 * of the same chunk. The first chunk also holds the structure (users, teams, pipelines,
 * custom fields, products, web forms, sequences). A demo no larger than one chunk is
 * exactly what a single pass gave; memory stays flat in the size, except for the e-mails,
 * phones and company names kept unique across chunks. Same seed, size and chunk, same data.
 */
export function* generateDemoChunks(
  seed: number,
  peopleCount: number,
  chunkPeople = DEMO_CHUNK_PEOPLE,
): Generator<DemoData> {
  if (!Number.isInteger(chunkPeople) || chunkPeople < 1) {
    throw new RangeError(`demo chunk must be a positive integer: ${chunkPeople}`);
  }
  yield* new DemoGenerator(seed, peopleCount).build(chunkPeople);
}

/** Chunks a demo of `peopleCount` people is generated in. */
export function demoChunkCount(peopleCount: number, chunkPeople = DEMO_CHUNK_PEOPLE): number {
  return Math.max(1, Math.ceil(peopleCount / chunkPeople));
}

function emptyDemoData(): DemoData {
  return {
    workspaceName: words.SELLER.workspaceName,
    adminUserId: '',
    users: [],
    teams: [],
    pipelines: [],
    customFields: [],
    products: [],
    organizations: [],
    people: [],
    deals: [],
    leads: [],
    quotes: [],
    notes: [],
    todos: [],
    webForms: [],
    submissions: [],
    sequences: [],
    enrollments: [],
    activities: [],
    history: [],
    recordHistory: [],
  };
}

class DemoGenerator {
  private readonly r: Random;
  private readonly ids: DemoIds;
  private readonly base: number;
  private readonly start: number;
  private out: DemoData;
  /** The chunk being generated; the first one holds the structure and the showcases. */
  private chunk = 0;
  /** People in the chunk being generated. */
  private chunkPeople = 0;
  /** Organizations generated in earlier chunks. */
  private orgsBefore = 0;
  /** Chunks in all: each takes its slice of the timeline for its organizations and people. */
  private chunks = 1;

  private userIds: string[] = [];
  private readonly userNames = new Map<string, string>();
  private dealPipelines: { id: string; stageIds: string[]; stages: readonly string[] }[] = [];
  private leadPipelines: { id: string; stageIds: string[] }[] = [];
  private readonly field: Record<string, string> = {};
  private products: ProductInfo[] = [];
  private readonly productById = new Map<string, ProductInfo>();
  private catalog: { plans: ProductInfo[]; addOns: ProductInfo[]; services: ProductInfo[] } = {
    plans: [],
    addOns: [],
    services: [],
  };
  private orgs: OrgInfo[] = [];
  private persons: PersonInfo[] = [];
  private deals: RecordInfo[] = [];
  private leads: RecordInfo[] = [];
  private webFormIds: string[] = [];
  private sequenceIds: string[] = [];

  private readonly usedCompanyNames = new Set<string>();
  private readonly usedEmails = new Set<string>();
  private readonly usedPhones = new Set<string>();

  constructor(
    seed: number,
    private readonly peopleCount: number,
  ) {
    this.r = new Random(seed);
    this.ids = new DemoIds(seed);
    this.base = demoBaseTime(seed);
    this.start = this.base - SPAN_DAYS * DAY;
    this.out = emptyDemoData();
  }

  *build(chunkPeople: number): Generator<DemoData> {
    this.chunks = demoChunkCount(this.peopleCount, chunkPeople);
    for (let done = 0; this.chunk === 0 || done < this.peopleCount; this.chunk++) {
      this.chunkPeople = Math.min(chunkPeople, this.peopleCount - done);
      done += this.chunkPeople;
      if (this.chunk > 0) {
        const { workspaceName, adminUserId } = this.out;
        this.out = { ...emptyDemoData(), workspaceName, adminUserId };
        this.orgsBefore += this.orgs.length;
        this.orgs = [];
        this.persons = [];
        this.deals = [];
        this.leads = [];
      }
      yield this.buildChunk();
    }
  }

  private buildChunk(): DemoData {
    const first = this.chunk === 0;
    if (first) {
      this.usersAndTeams();
      this.pipelines();
      this.customFields();
      this.productCatalog();
    }
    this.organizations();
    this.people();
    this.pipelineRecords('deal', Math.round(this.chunkPeople / 2));
    this.pipelineRecords('lead', Math.round(this.chunkPeople / 3));
    if (first) {
      this.webForms();
      this.sequences();
    }
    for (const deal of this.deals) this.quotesOf(deal);
    for (const lead of this.leads) this.quotesOf(lead);
    this.notes();
    this.todos();
    this.submissions();
    this.enrollments();
    for (const deal of this.deals) this.recordActivities(deal);
    for (const lead of this.leads) this.recordActivities(lead);
    this.history();
    // Drawn last, so that adding them left every record drawn before as it was.
    this.peopleAndOrganizationActivities();
    this.recordHistory();
    this.sortByTime();
    return this.out;
  }

  /**
   * Puts every list in time order. Ids start with their record's creation time, so rows
   * then go into the primary-key and time-ordered indexes at the end, which makes a large
   * demo several times faster to insert than random order.
   */
  private sortByTime(): void {
    const o = this.out;
    const by = sortByTime;
    by(o.organizations, (x) => x.createdAt!);
    by(o.people, (x) => x.createdAt!);
    by(o.deals, (x) => x.createdAt!);
    by(o.leads, (x) => x.createdAt!);
    by(o.quotes, (x) => x.createdAt!);
    by(o.notes, (x) => x.createdAt!);
    by(o.todos, (x) => x.createdAt!);
    by(o.submissions, (x) => x.createdAt!);
    by(o.enrollments, (x) => x.enrolledAt!);
    by(o.activities, (x) => x.date!);
    by(o.history, (x) => x.createdAt!);
    by(o.recordHistory, (x) => x.createdAt!);
  }

  // ---- workspace structure ----

  private usersAndTeams(): void {
    const { r, out } = this;
    const userCount = r.int(6, 10);
    const t0 = this.start - 90 * DAY;
    out.users = words.USER_NAMES.slice(0, userCount).map(([name, local], i) => {
      const ms = t0 + i * 7 * DAY + r.int(0, 8 * HOUR);
      return {
        id: this.ids.next(ms),
        name,
        email: `${local}@${words.SELLER.domain}`,
        role: i === 0 ? ('admin' as const) : ('member' as const),
        createdAt: iso(ms),
      };
    });
    this.userIds = out.users.map((u) => u.id!);
    for (const u of out.users) this.userNames.set(u.id!, u.name);
    out.adminUserId = this.userIds[0]!;
    const teamCount = r.int(2, 3);
    const members: string[][] = Array.from({ length: teamCount }, () => []);
    members[0]!.push(this.userIds[0]!);
    for (let i = 1; i < this.userIds.length; i++)
      members[(i - 1) % teamCount]!.push(this.userIds[i]!);
    out.teams = words.TEAM_NAMES.slice(0, teamCount).map(([name, description], i) => ({
      id: this.ids.next(t0 + i * HOUR),
      name,
      description,
      memberIds: members[i]!,
    }));
  }

  private pipelines(): void {
    const t0 = this.start - 80 * DAY;
    for (const [name, stages] of words.DEAL_PIPELINES) {
      const pipeline = this.pipeline('deal', name, stages, t0);
      this.dealPipelines.push({ ...pipeline, stages });
    }
    for (const [name, stages] of words.LEAD_PIPELINES) {
      this.leadPipelines.push(this.pipeline('lead', name, stages, t0));
    }
  }

  private pipeline(kind: 'deal' | 'lead', name: string, stages: readonly string[], ms: number) {
    const id = this.ids.next(ms);
    const stageList = stages.map((s) => ({ id: this.ids.next(ms), name: s }));
    this.out.pipelines.push({ id, kind, name, stages: stageList });
    return { id, stageIds: stageList.map((s) => s.id) };
  }

  private customFields(): void {
    const o = words.FIELD_OPTIONS;
    const defs: [key: string, field: Omit<NewCustomField, 'id'>][] = [
      [
        'grade',
        {
          recordType: 'people',
          name: '고객 등급',
          type: 'singleSelect',
          options: [...o.customerGrade],
        },
      ],
      ['birthday', { recordType: 'people', name: '생일', type: 'date' }],
      [
        'interests',
        { recordType: 'people', name: '관심 제품', type: 'multiSelect', options: [...o.interests] },
      ],
      [
        'industry',
        {
          recordType: 'organization',
          name: '업종',
          type: 'singleSelect',
          options: [...o.industries],
        },
      ],
      ['employees', { recordType: 'organization', name: '직원 수', type: 'number' }],
      [
        'contractType',
        {
          recordType: 'deal',
          name: '계약 유형',
          type: 'singleSelect',
          options: [...o.contractTypes],
        },
      ],
      ['urgent', { recordType: 'deal', name: '긴급', type: 'boolean' }],
      ['referrer', { recordType: 'deal', name: '추천인', type: 'people' }],
      ['channel', { recordType: 'lead', name: '유입 경로', type: 'string' }],
      ['budget', { recordType: 'lead', name: '예상 예산', type: 'number' }],
      [
        'category',
        {
          recordType: 'product',
          name: '카테고리',
          type: 'singleSelect',
          options: [...o.productCategories],
        },
      ],
      ['stock', { recordType: 'product', name: '재고 관리', type: 'boolean' }],
      ['validDays', { recordType: 'quote', name: '유효 기간(일)', type: 'number' }],
      ['discountReason', { recordType: 'quote', name: '할인 사유', type: 'string' }],
      ['discountRate', { recordType: 'quoteProduct', name: '할인율', type: 'number' }],
      ['remark', { recordType: 'quoteProduct', name: '비고', type: 'string' }],
      [
        'priority',
        {
          recordType: 'todo',
          name: '우선순위',
          type: 'singleSelect',
          options: [...o.todoPriorities],
        },
      ],
      ['minutes', { recordType: 'todo', name: '예상 소요 시간(분)', type: 'number' }],
    ];
    const ms = this.start - 70 * DAY;
    for (const [key, def] of defs) {
      const id = this.ids.next(ms);
      this.field[key] = id;
      this.out.customFields.push({ id, ...def });
    }
  }

  private productCatalog(): void {
    const { r } = this;
    for (const [kind, name, code, price, unit, category] of words.PRODUCTS) {
      const ms = workTime(r, this.start - 60 * DAY, this.start + 30 * DAY);
      const id = this.ids.next(ms);
      const info: ProductInfo = { id, kind, name, code, price, unit, category };
      this.products.push(info);
      this.productById.set(id, info);
      this.out.products.push({
        id,
        name,
        code,
        kind,
        price,
        unit,
        ownerId: this.userIds[0]!,
        createdAt: iso(ms),
        updatedAt: iso(r.chance(0.3) ? workTime(r, ms, this.base) : ms),
        custom: { [this.field.category!]: category, [this.field.stock!]: category === '하드웨어' },
      });
    }
    this.catalog = {
      plans: this.products.filter((p) => p.code.startsWith('CRM-')),
      addOns: this.products.filter((p) => p.code.startsWith('ADD-') || p.code.startsWith('SUP-')),
      services: this.products.filter((p) => p.kind === '일반'),
    };
  }

  // ---- customers ----

  private ownerId(): string {
    // The admin owns fewer records than the sales reps.
    return this.r.weighted(this.userIds, (id) => (id === this.userIds[0] ? 1 : 4));
  }

  private organizations(): void {
    const { r, out } = this;
    const count = this.chunkPeople === 0 ? 0 : Math.max(1, Math.round(this.chunkPeople / 4));
    for (let i = 0; i < count; i++) {
      const company = this.companyName(this.orgsBefore + i);
      const createdMs = workTime(r, ...this.chunkWindow(this.base - 3 * DAY));
      const id = this.ids.next(createdMs);
      const ownerId = this.ownerId();
      const org: OrgInfo = { id, ...company, createdMs, ownerId, peopleIdx: [] };
      this.orgs.push(org);
      const custom: Record<string, unknown> = {};
      if (r.chance(0.85)) {
        custom[this.field.industry!] = r.chance(0.95)
          ? company.industry
          : r.pick(words.FIELD_OPTIONS.industries);
      }
      if (r.chance(0.75)) custom[this.field.employees!] = r.around(80, 6, 3, 30_000);
      const slug = company.domain.split('.')[0]!;
      out.organizations.push({
        id,
        name: company.name,
        email: r.chance(0.8)
          ? `${r.pick(['contact', 'info', 'sales', 'biz', 'help'])}@${company.domain}`
          : null,
        phone: r.chance(0.9) ? this.landline() : null,
        profileImage: r.chance(0.35) ? `https://logo.clearbit.com/${company.domain}` : null,
        linkedin: r.chance(0.25) ? `https://www.linkedin.com/company/${slug}` : null,
        source: r.chance(0.4) ? SOURCE_IMPORT : SOURCE_API,
        ownerId,
        custom,
        createdAt: iso(createdMs),
        updatedAt: iso(r.chance(0.3) ? workTime(r, createdMs, this.base) : createdMs),
      });
    }
  }

  /**
   * The chunk's slice of `[start, end]`: chunk k of n creates its organizations and people
   * in the k-th n-th of the timeline, so a large demo is written in time order across chunks
   * (as a workspace filled over the years would be), and a page of people in list order lies
   * on a few neighbouring database pages. One chunk takes the whole span.
   */
  private chunkWindow(end: number): [number, number] {
    const width = (end - this.start) / this.chunks;
    const from = this.start + this.chunk * width;
    return [from, this.chunk === this.chunks - 1 ? end : from + width];
  }

  private companyName(i: number): {
    name: string;
    shortName: string;
    domain: string;
    industry: string;
  } {
    const { r } = this;
    const tld = r.weighted(['co.kr', 'com', 'kr'] as const, (t) =>
      t === 'co.kr' ? 6 : t === 'com' ? 3 : 1,
    );
    const featured = words.FEATURED_COMPANIES[i];
    if (featured) {
      const [prefix, core, legal] = featured;
      const p = words.COMPANY_PREFIXES.find(([h]) => h === prefix)!;
      const c = words.COMPANY_CORES.find(([h]) => h === core)!;
      return this.claimCompany(p, c, ['', '', 0], words.LEGAL_FORMS[legal]!, tld)!;
    }
    const legal = r.weighted(words.LEGAL_FORMS, (l) => l[2]);
    for (let attempt = 0; attempt < 40; attempt++) {
      const claimed = this.claimCompany(
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
      if (this.usedCompanyNames.has(shortName)) continue;
      this.usedCompanyNames.add(shortName);
      return {
        name: `${legal[0]}${shortName}${legal[1]}`,
        shortName,
        domain: `${pr}${cr}.${tld}`,
        industry,
      };
    }
  }

  private claimCompany(
    prefix: readonly [string, string],
    core: readonly [string, string, string],
    modifier: readonly [string, string, number],
    legal: readonly [string, string, number],
    tld: string,
  ) {
    const shortName = `${prefix[0]}${core[0]}${modifier[0]}`;
    if (this.usedCompanyNames.has(shortName)) return undefined;
    this.usedCompanyNames.add(shortName);
    return {
      name: `${legal[0]}${shortName}${legal[1]}`,
      shortName,
      domain: `${prefix[1]}${core[1]}${modifier[1]}.${tld}`,
      industry: core[2],
    };
  }

  private landline(): string {
    const { r } = this;
    const code = r.weighted(words.AREA_CODES, (a) => a[1])[0];
    if (code === '1588') return `1588-${r.int(1000, 9999)}`;
    if (code === '02' || code === '070')
      return `${code}-${r.int(2000, 9999)}-${pad4(r.int(0, 9999))}`;
    return `${code}-${r.int(200, 999)}-${pad4(r.int(0, 9999))}`;
  }

  private mobile(): string {
    for (;;) {
      const phone = `010-${this.r.int(2000, 9999)}-${pad4(this.r.int(0, 9999))}`;
      if (!this.usedPhones.has(phone)) {
        this.usedPhones.add(phone);
        return phone;
      }
    }
  }

  private people(): void {
    const { r, out, orgs } = this;
    const grades = words.FIELD_OPTIONS.customerGrade;
    for (let i = 0; i < this.chunkPeople; i++) {
      // Every organization gets a first contact; the rest spread unevenly, some without one.
      const org =
        i < orgs.length
          ? orgs[i]!
          : r.chance(0.87)
            ? orgs[Math.floor(orgs.length * r.next() ** 1.5)]!
            : null;
      const [from, until] = this.chunkWindow(this.base - DAY);
      const createdMs = org
        ? workTime(r, org.createdMs, Math.min(until, org.createdMs + 240 * DAY))
        : workTime(r, from, until);
      const id = this.ids.next(createdMs);
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
      const email = r.chance(0.93) ? this.personEmail(givenRoman, surRoman, org) : null;
      const phone = r.chance(0.92) ? this.mobile() : null;
      const ownerId = org && r.chance(0.75) ? org.ownerId : this.ownerId();
      const custom: Record<string, unknown> = {};
      if (r.chance(0.8))
        custom[this.field.grade!] = r.weighted(grades, (g) =>
          g === 'VIP' ? 1 : g === '일반' ? 6 : 3,
        );
      if (r.chance(0.4)) {
        custom[this.field.birthday!] = iso(Date.UTC(r.int(1962, 1999), r.int(0, 11), r.int(1, 28)));
      }
      if (r.chance(0.5)) {
        const options = words.FIELD_OPTIONS.interests;
        const chosen = new Set(r.sample(options, r.int(1, 3)));
        custom[this.field.interests!] = options.filter((o) => chosen.has(o));
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
      this.persons.push({
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

  private personEmail(givenRoman: string, surRoman: string, org: OrgInfo | null): string {
    const { r } = this;
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
    for (let k = 2; this.usedEmails.has(email); k++) email = `${local}${k}@${domain}`;
    this.usedEmails.add(email);
    return email;
  }

  // ---- deals and leads ----

  private pipelineRecords(kind: 'deal' | 'lead', count: number): void {
    const { r } = this;
    for (let i = 0; i < count && this.persons.length > 0; i++) {
      // Deals go mostly to people of a company; a person on their own draws a second time.
      let person = r.pick(this.persons);
      if (kind === 'deal' && !person.org) person = r.pick(this.persons);
      const org = person.org && r.chance(0.95) ? person.org : null;
      const createdMs = workTime(r, person.createdMs + HOUR, this.base - HOUR);
      const id = this.ids.next(createdMs);
      const ownerId = r.chance(0.6) ? person.ownerId : this.ownerId();
      const info =
        kind === 'deal'
          ? this.deal(id, person, org, createdMs, ownerId)
          : this.lead(id, person, org, createdMs, ownerId);
      (kind === 'deal' ? this.deals : this.leads).push(info);
      (kind === 'deal' ? this.out.deals : this.out.leads).push(info.input);
    }
  }

  private deal(
    id: string,
    person: PersonInfo,
    org: OrgInfo | null,
    createdMs: number,
    ownerId: string,
  ): RecordInfo {
    const { r } = this;
    const pipelineIndex = r.weighted([0, 1, 2], (p) => [6, 2, 2][p]!);
    const pipeline = this.dealPipelines[pipelineIndex]!;
    const last = pipeline.stageIds.length - 1;
    const age = this.base - createdMs;
    const outcome: DealOutcome =
      age < 14 * DAY
        ? 'In progress'
        : r.weighted(['In progress', 'Won', 'Lost'] as const, (o) =>
            o === 'Won' ? 30 : o === 'Lost' ? 25 : 45,
          );
    const closedMs =
      outcome === 'In progress'
        ? null
        : workTime(r, createdMs + 3 * DAY, Math.min(this.base, createdMs + 150 * DAY));
    const endMs = closedMs ?? this.base;
    const stageIndex =
      outcome === 'Won'
        ? last
        : r.chance(0.05) && outcome === 'In progress'
          ? last
          : Math.floor(last * r.next() ** 1.3);
    const stageEnteredMs =
      stageIndex === 0
        ? createdMs
        : workTime(r, createdMs + HOUR, Math.max(createdMs + HOUR, endMs));
    const plan = r.pick(['CRM 스탠다드', 'CRM 프로', 'CRM 엔터프라이즈']);
    const template = r.pick(words.DEAL_NAME_TEMPLATES[pipelineIndex]!);
    const name = org
      ? fill(template, { org: org.shortName, product: plan, n: String(r.int(3, 60)) })
      : `${person.name}님 ${plan} 도입`;
    const custom: Record<string, unknown> = {};
    if (r.chance(0.85)) {
      custom[this.field.contractType!] =
        pipelineIndex === 1
          ? '갱신'
          : r.weighted(['신규', '업셀', '크로스셀'], (t) => (t === '신규' ? 7 : 1.5));
    }
    if (r.chance(0.6)) custom[this.field.urgent!] = r.chance(0.15);
    if (r.chance(0.15)) {
      const referrer = r.pick(this.persons);
      if (referrer !== person) custom[this.field.referrer!] = referrer.id;
    }
    const label =
      outcome === 'In progress' && r.chance(0.3)
        ? 'SQL'
        : outcome === 'Won' && r.chance(0.4)
          ? 'Convert'
          : null;
    const followers = r.chance(0.3)
      ? r.sample(
          this.userIds.filter((u) => u !== ownerId),
          r.int(1, 2),
        )
      : [];
    const colleagues = org ? org.peopleIdx.map((i) => this.persons[i]!.id) : [];
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

  private lead(
    id: string,
    person: PersonInfo,
    org: OrgInfo | null,
    createdMs: number,
    ownerId: string,
  ): RecordInfo {
    const { r } = this;
    const old = this.base - createdMs > 180 * DAY;
    const label = r.weighted(['New', 'Nurturing', 'MQL', 'Working', 'Archive'] as const, (l) =>
      l === 'Archive' ? (old ? 40 : 5) : l === 'New' ? (old ? 5 : 30) : 20,
    );
    const withPipeline = r.chance(0.35);
    const pipeline = r.weighted(this.leadPipelines, (p) => (p === this.leadPipelines[0] ? 7 : 3));
    const stageIndex = withPipeline ? r.int(0, pipeline.stageIds.length - 1) : 0;
    const stageEnteredMs =
      stageIndex === 0
        ? createdMs
        : workTime(r, createdMs + HOUR, Math.max(createdMs + HOUR, this.base));
    const name = fill(r.pick(words.LEAD_NAME_TEMPLATES), {
      org: org?.shortName ?? `${person.name}님`,
      product: r.pick(['CRM 스탠다드', 'CRM 프로', '마케팅 자동화', '고객 지원 데스크']),
    });
    const custom: Record<string, unknown> = {};
    if (r.chance(0.85)) custom[this.field.channel!] = r.pick(words.LEAD_CHANNELS);
    if (r.chance(0.5)) custom[this.field.budget!] = r.around(10, 3, 1, 300) * 1_000_000;
    const input: NewLead = {
      id,
      name,
      peopleId: person.id,
      organizationId: org?.id ?? null,
      pipelineId: withPipeline ? pipeline.id : null,
      stageId: withPipeline ? pipeline.stageIds[stageIndex]! : null,
      stageEnteredAt: withPipeline ? iso(stageEnteredMs) : null,
      amount: null,
      label: label === 'New' && r.chance(0.5) ? null : label,
      expectedCloseAt: r.chance(0.1)
        ? iso(workTime(r, createdMs + 30 * DAY, createdMs + 120 * DAY))
        : null,
      source: r.chance(0.35) ? SOURCE_IMPORT : SOURCE_API,
      ownerId,
      custom,
      createdAt: iso(createdMs),
      updatedAt: iso(withPipeline ? Math.max(createdMs, stageEnteredMs) : createdMs),
    };
    return {
      kind: 'lead',
      id,
      name,
      person,
      org,
      createdMs,
      endMs: this.base,
      closedMs: null,
      outcome: null,
      stageIndex,
      ownerId,
      input,
    };
  }

  // ---- quotes ----

  private quotesOf(record: RecordInfo): void {
    const { r } = this;
    const p =
      record.kind === 'lead'
        ? 0.18
        : record.outcome === 'Won'
          ? 0.95
          : record.stageIndex >= 2
            ? 0.7
            : 0.2;
    if (!r.chance(p)) {
      this.setDealAmount(record, null);
      return;
    }
    const count = r.weighted([1, 2, 3], (n) => [6, 3, 1][n - 1]!);
    const times = Array.from({ length: count }, () =>
      workTime(r, record.createdMs, record.endMs),
    ).sort((a, b) => a - b);
    const hasMain = record.outcome === 'Won' || r.chance(record.kind === 'lead' ? 0.7 : 0.85);
    let mainTotal: number | null = null;
    times.forEach((ms, j) => {
      const id = this.ids.next(ms);
      const isMain = hasMain && j === count - 1;
      const lines = this.quoteLines(ms);
      // The quote's `금액` (DECISIONS 5): `금액 × 수량 × 결제 횟수` summed over its lines.
      let total = 0;
      for (const line of lines) total += line.price * line.quantity * (line.paymentCount ?? 1);
      if (isMain) mainTotal = total;
      const custom: Record<string, unknown> = {};
      if (r.chance(0.9)) custom[this.field.validDays!] = r.pick([14, 30, 30, 60]);
      if (r.chance(0.3)) custom[this.field.discountReason!] = r.pick(words.DISCOUNT_REASONS);
      const suffix = j === 0 ? '' : j === count - 1 && isMain ? ' (최종)' : ` (수정 ${j})`;
      this.out.quotes.push({
        id,
        name: `${record.name} 견적서${suffix}`,
        dealId: record.kind === 'deal' ? record.id : null,
        leadId: record.kind === 'lead' ? record.id : null,
        isMain,
        shareLink: null,
        lines,
        ownerId: record.ownerId,
        custom,
        createdAt: iso(ms),
        updatedAt: iso(ms),
      });
    });
    this.setDealAmount(record, mainTotal);
  }

  /** A deal's `금액`: its main quote's total, else an estimate (or none, early on). */
  private setDealAmount(record: RecordInfo, mainTotal: number | null): void {
    if (record.kind !== 'deal') return;
    const estimate = this.r.chance(0.85) ? this.r.around(800, 3, 50, 30_000) * 10_000 : null;
    (record.input as NewDeal).amount = mainTotal ?? estimate;
  }

  private quoteLines(quoteMs: number): NewQuoteLine[] {
    const { r } = this;
    const seats = r.around(15, 3, 2, 400);
    const { plans, addOns, services } = this.catalog;
    const chosen: ProductInfo[] = [r.pick(plans)];
    for (const addOn of r.sample(
      addOns,
      r.weighted([0, 1, 2], (n) => [5, 3, 2][n]!),
    ))
      chosen.push(addOn);
    if (r.chance(0.45)) chosen.push(r.pick(services));
    const nextMonth = new Date(quoteMs);
    const startAt = iso(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth() + 1, 1));
    return chosen.map((product) => {
      const custom: Record<string, unknown> = {};
      let price = product.price;
      if (r.chance(0.6)) {
        const rate = r.pick([0, 5, 10, 10, 15, 20]);
        custom[this.field.discountRate!] = rate;
        price = Math.round((product.price * (100 - rate)) / 100);
      }
      if (r.chance(0.25)) custom[this.field.remark!] = r.pick(words.LINE_REMARKS);
      const quantity =
        product.unit === '사용자'
          ? seats
          : product.unit === '대'
            ? Math.max(1, Math.round(seats / 4))
            : r.int(1, 2);
      const line: NewQuoteLine = {
        id: this.ids.next(quoteMs),
        productId: product.id,
        price,
        quantity: product.unit === '워크스페이스' ? 1 : quantity,
        custom,
      };
      if (product.kind === '구독 (월간)') {
        line.paymentCount = 12;
        line.paymentStartAt = startAt;
      } else if (product.kind === '구독 (연간)') {
        line.paymentCount = r.weighted([1, 2, 3], (n) => [7, 2, 1][n - 1]!);
        line.paymentStartAt = startAt;
      }
      return line;
    });
  }

  // ---- notes, todos, web forms, sequences ----

  private notes(): void {
    const { r } = this;
    const t = words.NOTE_TEXTS;
    for (const person of this.persons) {
      if (!r.chance(0.25)) continue;
      for (let k = r.int(1, 2); k > 0; k--) {
        this.note(
          'people',
          person.id,
          person.createdMs,
          this.base,
          r.pick(t.people),
          person,
          person.ownerId,
        );
      }
    }
    for (const org of this.orgs) {
      if (!r.chance(0.25)) continue;
      const contact = org.peopleIdx.length > 0 ? this.persons[org.peopleIdx[0]!]! : null;
      for (let k = r.int(1, 2); k > 0; k--) {
        this.note(
          'organization',
          org.id,
          org.createdMs,
          this.base,
          r.pick(t.organization),
          contact,
          org.ownerId,
        );
      }
    }
    for (const deal of this.deals) {
      if (r.chance(0.5)) {
        for (let k = r.chance(0.3) ? 2 : 1; k > 0; k--) {
          this.note(
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
        this.note(
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
    for (const lead of this.leads) {
      if (!r.chance(0.3)) continue;
      for (let k = r.chance(0.2) ? 2 : 1; k > 0; k--) {
        this.note(
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
    for (const product of this.out.products) {
      if (!r.chance(0.4)) continue;
      const texts =
        product.unit === '대' ? t.product : t.product.filter((s) => !s.includes('재고'));
      const created = Date.parse(product.createdAt!);
      this.note('product', product.id!, created, this.base, r.pick(texts), null, this.userIds[0]!);
    }
    for (const quote of this.out.quotes) {
      if (!r.chance(0.2)) continue;
      const created = Date.parse(quote.createdAt!);
      this.note(
        'quote',
        quote.id!,
        created,
        Math.min(this.base, created + 5 * DAY),
        r.pick(t.quote),
        null,
        quote.ownerId!,
      );
    }
  }

  private note(
    subjectType: NewNote['subjectType'],
    subjectId: string,
    lo: number,
    hi: number,
    template: string,
    person: PersonInfo | null,
    ownerId: string,
    record?: RecordInfo,
  ): void {
    const { r } = this;
    const ms = workTime(r, lo, hi);
    const id = this.ids.next(ms);
    const authorId = r.chance(0.8) ? ownerId : this.ownerId();
    const text = fill(template, {
      name: person?.name ?? '',
      title: person?.baseTitle ?? '담당자',
      org: person?.org?.shortName ?? '',
      product: r.pick(['CRM 스탠다드', 'CRM 프로', 'CRM 엔터프라이즈', '마케팅 자동화 애드온']),
      dept: r.pick(words.DEPARTMENTS),
      n: String(r.int(5, 80)),
      // A month ahead of the note (a start date, a budget round, a contract's end).
      month: String(new Date(ms + r.int(20, 100) * DAY).getUTCMonth() + 1),
      user: this.userNames.get(authorId)!,
    });
    this.out.notes.push({ id, subjectType, subjectId, text, authorId, createdAt: iso(ms) });
    if (record) this.activity(record, 'memoCreate', ms, { memoId: id });
  }

  private todos(): void {
    const { r } = this;
    for (const deal of this.deals) {
      const p = deal.closedMs === null ? 0.4 : 0.2;
      if (r.chance(p))
        for (let k = r.int(1, 2); k > 0; k--)
          this.todo('deal', deal.id, deal.createdMs, deal.endMs, deal.ownerId, deal);
    }
    for (const lead of this.leads) {
      if (r.chance(0.3))
        for (let k = r.int(1, 2); k > 0; k--)
          this.todo('lead', lead.id, lead.createdMs, lead.endMs, lead.ownerId, lead);
    }
    for (const person of this.persons) {
      if (r.chance(0.15))
        this.todo('people', person.id, person.createdMs, this.base, person.ownerId);
    }
    for (const org of this.orgs) {
      if (r.chance(0.15)) this.todo('organization', org.id, org.createdMs, this.base, org.ownerId);
    }
  }

  private todo(
    subjectType: NewTodo['subjectType'],
    subjectId: string,
    lo: number,
    hi: number,
    ownerId: string,
    record?: RecordInfo,
  ): void {
    const { r } = this;
    const createdMs = workTime(r, lo, hi);
    const id = this.ids.next(createdMs);
    const [title, kind] = r.pick(words.TODO_TEXTS[subjectType]);
    const dueMs = workTime(r, createdMs + DAY, createdMs + 14 * DAY);
    const closed = record?.closedMs != null;
    const done = dueMs < this.base - 2 * DAY ? r.chance(closed ? 0.95 : 0.8) : r.chance(0.15);
    const doneMs = done ? workTime(r, createdMs, Math.min(this.base, dueMs + 2 * DAY)) : null;
    const meeting = kind === '미팅' || kind === '점심';
    const custom: Record<string, unknown> = {};
    if (r.chance(0.8)) {
      custom[this.field.priority!] = r.weighted(words.FIELD_OPTIONS.todoPriorities, (p) =>
        p === '보통' ? 3 : 1,
      );
    }
    if (meeting || r.chance(0.3)) custom[this.field.minutes!] = r.pick([15, 30, 30, 60, 90]);
    this.out.todos.push({
      id,
      subjectType,
      subjectId,
      title,
      kind,
      startAt: meeting ? iso(dueMs - HOUR) : null,
      dueAt: iso(dueMs),
      done,
      doneAt: doneMs === null ? null : iso(doneMs),
      ownerId,
      custom,
      createdAt: iso(createdMs),
    });
    if (record) this.activity(record, 'todoCreate', createdMs, { todoId: id });
  }

  private webForms(): void {
    const { r } = this;
    const count = r.int(3, 6);
    words.WEB_FORMS.slice(0, count).forEach(([name, description], i) => {
      const ms = workTime(
        r,
        this.start - 30 * DAY + i * 20 * DAY,
        this.start - 20 * DAY + i * 20 * DAY,
      );
      const id = this.ids.next(ms);
      this.webFormIds.push(id);
      this.out.webForms.push({
        id,
        name,
        description,
        status: i === count - 1 && count > 4 ? 'inactive' : 'active',
        viewCount: r.around(Math.max(200, this.peopleCount * 3), 2, 50, 10_000_000),
        createdAt: iso(ms),
      });
    });
  }

  private sequences(): void {
    const { r } = this;
    const count = r.int(3, 5);
    for (const name of words.SEQUENCE_NAMES.slice(0, count)) {
      const ms = workTime(r, this.start - 40 * DAY, this.start - 10 * DAY);
      const id = this.ids.next(ms);
      this.sequenceIds.push(id);
      this.out.sequences.push({ id, name, createdAt: iso(ms) });
    }
  }

  private submissions(): void {
    const { r } = this;
    const inbound = this.webFormIds.slice(0, 4);
    for (const lead of this.leads) {
      if (!r.chance(0.3)) continue;
      this.submission(
        r.pick(inbound),
        lead.person,
        Math.max(this.start, lead.createdMs - r.int(1_000, 600_000)),
        {
          leadId: lead.id,
          organizationId: lead.org?.id ?? null,
        },
      );
      this.activity(lead, 'webFormSubmit', lead.createdMs, {
        webFormId: this.out.submissions.at(-1)!.webFormId,
      });
    }
    for (const deal of this.deals) {
      if (!r.chance(0.1)) continue;
      const ms = workTime(r, deal.createdMs, deal.endMs);
      const webFormId = r.pick(this.webFormIds);
      this.submission(webFormId, deal.person, ms, {
        dealId: deal.id,
        organizationId: deal.org?.id ?? null,
      });
      this.activity(deal, 'webFormSubmit', ms, { webFormId });
    }
    for (const person of this.persons) {
      if (!r.chance(0.06)) continue;
      const ms = workTime(r, person.createdMs, this.base);
      this.submission(r.pick(this.webFormIds), person, ms, {
        organizationId: person.org?.id ?? null,
      });
    }
  }

  private submission(
    webFormId: string,
    person: PersonInfo,
    ms: number,
    links: { leadId?: string; dealId?: string; organizationId: string | null },
  ): void {
    const { r } = this;
    const formIndex = this.webFormIds.indexOf(webFormId);
    const question = words.WEB_FORMS[formIndex]![2];
    const contents = [{ label: '이름', value: person.name }];
    if (person.org) contents.push({ label: '회사명', value: person.org.name });
    if (person.email) contents.push({ label: '이메일', value: person.email });
    if (person.phone) contents.push({ label: '연락처', value: person.phone });
    contents.push({ label: question, value: r.pick(words.FORM_ANSWERS) });
    this.out.submissions.push({
      id: this.ids.next(ms),
      webFormId,
      peopleId: person.id,
      organizationId: links.organizationId,
      dealId: links.dealId ?? null,
      leadId: links.leadId ?? null,
      contents,
      createdAt: iso(ms),
    });
  }

  private enrollments(): void {
    const { r } = this;
    const seq = this.sequenceIds;
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
        const recent = ms > this.base - 40 * DAY;
        this.out.enrollments.push({
          id: this.ids.next(ms),
          sequenceId,
          subjectType,
          subjectId,
          enrolledAt: iso(ms),
          active: recent ? r.chance(0.8) : r.chance(0.05),
        });
      }
    };
    for (const person of this.persons) {
      if (r.chance(0.12)) enroll('people', person.id, seq, person.createdMs, this.base);
    }
    for (const deal of this.deals) {
      if (r.chance(0.08)) enroll('deal', deal.id, forDeals, deal.createdMs, deal.endMs);
    }
    for (const lead of this.leads) {
      if (r.chance(0.22)) enroll('lead', lead.id, forLeads, lead.createdMs, this.base);
    }
  }

  // ---- activities and history ----

  private activity(
    record: RecordInfo,
    type: NewActivity['type'],
    ms: number,
    related: Pick<NewActivity, 'webFormId' | 'smsId' | 'todoId' | 'memoId' | 'emailMessageId'> = {},
  ): void {
    const dealStatus =
      record.kind === 'lead'
        ? null
        : record.closedMs !== null && ms >= record.closedMs
          ? record.outcome
          : 'In progress';
    this.out.activities.push({
      id: this.ids.next(ms),
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

  private recordActivities(record: RecordInfo): void {
    const { r } = this;
    const { createdMs, endMs } = record;
    const within = () => workTime(r, createdMs, endMs);
    // The first deal and lead show every kind of activity they can have on their own, so
    // even a small demo has them all on both.
    const showcase = this.chunk === 0 && (record === this.deals[0] || record === this.leads[0]);
    this.activity(record, 'create', createdMs);
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
      const emailMessageId = this.ids.next(ms);
      this.activity(record, 'email', ms, { emailMessageId });
      if (showcase || r.chance(0.5)) {
        const opened = Math.min(this.base, ms + r.int(60_000, 3 * DAY));
        this.activity(record, 'emailOpen', opened, { emailMessageId });
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
      this.activity(record, 'meeting', ms);
      if (showcase || r.chance(0.2)) {
        this.activity(record, 'recordingCreate', Math.min(this.base, ms + HOUR));
      }
    }
    if (showcase || r.chance(isDeal ? 0.25 : 0.2)) {
      this.activity(record, 'smsSend', within(), { smsId: this.ids.next(createdMs) });
    }
    if (showcase || r.chance(0.15)) this.activity(record, 'kakaoAlimtalkSend', within());
    if (record.outcome === 'Won' && r.chance(0.3)) {
      // Onboarding notice after the contract.
      const ms = Math.min(this.base, record.closedMs! + r.int(HOUR, 3 * DAY));
      this.activity(record, 'kakaoAlimtalkSend', ms);
    }
  }

  private history(): void {
    const { r } = this;
    const gradeField = this.field.grade!;
    for (const person of this.persons) {
      const changes: PeopleChange[] = [];
      const change = (c: Omit<PeopleChange, 'id' | 'peopleId' | 'ownerId' | 'createdAt'>) => {
        const ms = workTime(r, person.createdMs + HOUR, this.base);
        changes.push({
          ...c,
          id: this.ids.next(ms),
          peopleId: person.id,
          ownerId: r.chance(0.7) ? person.ownerId : this.ownerId(),
          createdAt: iso(ms),
        });
      };
      if (person.org && r.chance(0.15)) {
        change({
          type: 'editOrganizationConnect',
          organizationId: person.org.id,
          fieldName: 'organizationId',
          fieldValue: person.org.id,
        });
      }
      if (
        person.title &&
        person.baseTitle &&
        words.PREVIOUS_TITLE[person.baseTitle] &&
        r.chance(0.12)
      ) {
        change({ type: 'editField', fieldName: '포지션', fieldValue: person.title });
      }
      if (person.phone && r.chance(0.08))
        change({ type: 'editField', fieldName: '전화', fieldValue: person.phone });
      if (person.email && r.chance(0.05))
        change({ type: 'editField', fieldName: '이메일', fieldValue: person.email });
      const grade = person.input.custom?.[gradeField];
      if (typeof grade === 'string' && r.chance(0.1)) {
        change({ type: 'editField', fieldName: '고객 등급', fieldValue: grade });
      }
      if (changes.length === 0) continue;
      this.out.history.push(...changes);
      // `수정 날짜` is the last change of the person's own fields.
      let last = person.input.updatedAt!;
      for (const c of changes) if (c.createdAt! > last) last = c.createdAt!;
      person.input.updatedAt = last;
    }
  }

  /** An activity of a person or organization (their own list; no deal status). */
  private subjectActivity(
    subjectType: 'people' | 'organization',
    subjectId: string,
    type: NewActivity['type'],
    ms: number,
    related: Pick<NewActivity, 'smsId' | 'emailMessageId'> = {},
  ): void {
    this.out.activities.push({
      id: this.ids.next(ms),
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
  private peopleAndOrganizationActivities(): void {
    const { r } = this;
    const touch = (
      subjectType: 'people' | 'organization',
      id: string,
      createdMs: number,
      showcase: boolean,
    ) => {
      if (!showcase && !r.chance(0.1)) return;
      this.subjectActivity(subjectType, id, 'create', createdMs);
      if (showcase || r.chance(0.5)) {
        const ms = workTime(r, createdMs, this.base);
        const emailMessageId = this.ids.next(ms);
        this.subjectActivity(subjectType, id, 'email', ms, { emailMessageId });
        if (showcase || r.chance(0.4)) {
          const opened = Math.min(this.base, ms + r.int(60_000, 2 * DAY));
          this.subjectActivity(subjectType, id, 'emailOpen', opened, { emailMessageId });
        }
      }
      if (showcase || r.chance(0.2)) {
        const ms = workTime(r, createdMs, this.base);
        this.subjectActivity(subjectType, id, 'smsSend', ms, { smsId: this.ids.next(ms) });
      }
      if (showcase || r.chance(0.2)) {
        this.subjectActivity(
          subjectType,
          id,
          'kakaoAlimtalkSend',
          workTime(r, createdMs, this.base),
        );
      }
    };
    const first = this.chunk === 0;
    for (const [i, p] of this.persons.entries()) {
      touch('people', p.id, p.createdMs, first && i === 0);
    }
    for (const [i, o] of this.orgs.entries()) {
      touch('organization', o.id, o.createdMs, first && i === 0);
    }
  }

  /**
   * Changes of deals, leads and organizations after their creation: a deal's amount or
   * contact, a lead's name, an organization's phone or e-mail. `수정 날짜` follows the last.
   */
  private recordHistory(): void {
    const { r } = this;
    const orgInputs = new Map(this.out.organizations.map((o) => [o.id!, o]));
    const push = (
      change: Omit<RecordChange, 'id' | 'ownerId' | 'createdAt'>,
      lo: number,
      hi: number,
      ownerId: string,
    ): string => {
      const ms = workTime(r, lo + HOUR, Math.max(lo + HOUR, hi));
      const createdAt = iso(ms);
      this.out.recordHistory.push({
        ...change,
        id: this.ids.next(ms),
        ownerId: r.chance(0.7) ? ownerId : this.ownerId(),
        createdAt,
      });
      return createdAt;
    };
    const bump = (input: { updatedAt?: string }, at: string) => {
      if (!input.updatedAt || at > input.updatedAt) input.updatedAt = at;
    };
    for (const [i, record] of [...this.deals, ...this.leads].entries()) {
      const showcase = this.chunk === 0 && (i === 0 || record === this.leads[0]);
      if (!showcase && !r.chance(0.1)) continue;
      const refs = {
        subjectType: record.kind,
        subjectId: record.id,
        peopleId: record.person.id,
        organizationId: record.org?.id ?? null,
      };
      const { amount } = record.input as NewDeal;
      const edits: Omit<RecordChange, 'id' | 'ownerId' | 'createdAt'>[] = [];
      if (record.kind === 'deal' && amount != null) {
        edits.push({ ...refs, type: 'editField', fieldName: '금액', fieldValue: String(amount) });
      } else {
        edits.push({ ...refs, type: 'editField', fieldName: '이름', fieldValue: record.name });
      }
      if (showcase || r.chance(0.3)) {
        edits.push({
          ...refs,
          type: 'editPeopleConnection',
          fieldName: 'peopleId',
          fieldValue: record.person.id,
        });
      }
      for (const edit of edits) {
        bump(record.input, push(edit, record.createdMs, record.endMs, record.ownerId));
      }
    }
    this.orgs.forEach((org, i) => {
      if (!(this.chunk === 0 && i === 0) && !r.chance(0.08)) return;
      const input = orgInputs.get(org.id)!;
      const field = input.phone || !input.email ? '전화' : '이메일';
      const at = push(
        {
          subjectType: 'organization',
          subjectId: org.id,
          type: 'editField',
          fieldName: field,
          fieldValue: (field === '전화' ? input.phone : input.email) ?? null,
        },
        org.createdMs,
        this.base,
        org.ownerId,
      );
      bump(input, at);
    });
  }
}

/**
 * Sorts `list` by the timestamp `key` of each item, oldest first, equal times in list order.
 * A stable bucket sort: linear in the list's length, which at a million activities is
 * several times faster than a comparison sort.
 */
function sortByTime<T>(list: T[], key: (item: T) => string): void {
  const n = list.length;
  if (n < 2) return;
  const times = new Float64Array(n);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = Date.parse(key(list[i]!));
    times[i] = t;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const width = (max - min + 1) / n;
  const bucketOf = (t: number) => Math.min(n - 1, Math.floor((t - min) / width));
  const starts = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) starts[bucketOf(times[i]!) + 1]!++;
  for (let b = 0; b < n; b++) starts[b + 1]! += starts[b]!;
  const order = new Uint32Array(n);
  const next = starts.slice(0, n);
  for (let i = 0; i < n; i++) order[next[bucketOf(times[i]!)]!++] = i;
  // Buckets hold a few items each: insertion sort keeps equal times in list order.
  for (let b = 0; b < n; b++) {
    for (let j = starts[b]! + 1; j < starts[b + 1]!; j++) {
      const item = order[j]!;
      let k = j - 1;
      while (k >= starts[b]! && times[order[k]!]! > times[item]!) {
        order[k + 1] = order[k]!;
        k--;
      }
      order[k + 1] = item;
    }
  }
  const sorted = Array.from(order, (i) => list[i]!);
  for (let i = 0; i < n; i++) list[i] = sorted[i]!;
}

function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

/** Replaces `{key}` placeholders. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * Generates the demo workspace's data, chunk by chunk: runs the generators of each record
 * type in a fixed order over one `DemoContext`, so the same seed, size and chunk give the
 * same data, ids included.
 */
import type { NewDeal } from '../resources/deals/writes.ts';
import type { NewNote } from '../resources/notes/writes.ts';
import type { PeopleChange } from '../resources/people-history/writes.ts';
import type { RecordChange } from '../resources/record-history/writes.ts';
import type { NewEnrollment } from '../resources/sequences/writes.ts';
import type { NewTodo } from '../resources/todos/writes.ts';
import {
  addActivity,
  generatePeopleAndOrganizationActivities,
  generateRecordActivities,
} from './demo/activities.ts';
import {
  DemoContext,
  type DemoData,
  emptyDemoData,
  fill,
  type PersonInfo,
  type RecordInfo,
} from './demo/context.ts';
import { generateCustomFields } from './demo/custom-fields.ts';
import { generateDeals } from './demo/deals.ts';
import { generateLeads } from './demo/leads.ts';
import { generateOrganizations } from './demo/organizations.ts';
import { generatePeople } from './demo/people.ts';
import { generatePipelines } from './demo/pipelines.ts';
import { generateProducts } from './demo/products.ts';
import { generateQuotes } from './demo/quotes.ts';
import { DAY, HOUR, iso, workTime } from './demo/random.ts';
import { generateUsersAndTeams } from './demo/users-teams.ts';
import * as words from './demo/words.ts';

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
  const ctx = new DemoContext(seed, peopleCount);
  ctx.chunks = demoChunkCount(peopleCount, chunkPeople);
  for (let done = 0; ctx.chunk === 0 || done < peopleCount; ctx.chunk++) {
    ctx.chunkPeople = Math.min(chunkPeople, peopleCount - done);
    done += ctx.chunkPeople;
    if (ctx.chunk > 0) {
      const { workspaceName, adminUserId } = ctx.out;
      ctx.out = { ...emptyDemoData(), workspaceName, adminUserId };
      ctx.orgsBefore += ctx.orgs.length;
      ctx.orgs = [];
      ctx.persons = [];
      ctx.deals = [];
      ctx.leads = [];
    }
    yield generateChunk(ctx);
  }
}

/** Chunks a demo of `peopleCount` people is generated in. */
export function demoChunkCount(peopleCount: number, chunkPeople = DEMO_CHUNK_PEOPLE): number {
  return Math.max(1, Math.ceil(peopleCount / chunkPeople));
}

function generateChunk(ctx: DemoContext): DemoData {
  const first = ctx.chunk === 0;
  if (first) {
    generateUsersAndTeams(ctx);
    generatePipelines(ctx);
    generateCustomFields(ctx);
    generateProducts(ctx);
  }
  generateOrganizations(ctx);
  generatePeople(ctx);
  generateDeals(ctx, Math.round(ctx.chunkPeople / 2));
  generateLeads(ctx, Math.round(ctx.chunkPeople / 3));
  if (first) {
    generateWebForms(ctx);
    generateSequences(ctx);
  }
  for (const deal of ctx.deals) generateQuotes(ctx, deal);
  for (const lead of ctx.leads) generateQuotes(ctx, lead);
  generateNotes(ctx);
  generateTodos(ctx);
  generateSubmissions(ctx);
  generateEnrollments(ctx);
  for (const deal of ctx.deals) generateRecordActivities(ctx, deal);
  for (const lead of ctx.leads) generateRecordActivities(ctx, lead);
  generatePeopleHistory(ctx);
  // Drawn last, so that adding them left every record drawn before as it was.
  generatePeopleAndOrganizationActivities(ctx);
  generateRecordHistory(ctx);
  sortChunkByTime(ctx.out);
  return ctx.out;
}

/**
 * Puts every list in time order. Ids start with their record's creation time, so rows
 * then go into the primary-key and time-ordered indexes at the end, which makes a large
 * demo several times faster to insert than random order.
 */
function sortChunkByTime(o: DemoData): void {
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

function generateNotes(ctx: DemoContext): void {
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

function generateTodos(ctx: DemoContext): void {
  const { r } = ctx;
  for (const deal of ctx.deals) {
    const p = deal.closedMs === null ? 0.4 : 0.2;
    if (r.chance(p))
      for (let k = r.int(1, 2); k > 0; k--)
        todo(ctx, 'deal', deal.id, deal.createdMs, deal.endMs, deal.ownerId, deal);
  }
  for (const lead of ctx.leads) {
    if (r.chance(0.3))
      for (let k = r.int(1, 2); k > 0; k--)
        todo(ctx, 'lead', lead.id, lead.createdMs, lead.endMs, lead.ownerId, lead);
  }
  for (const person of ctx.persons) {
    if (r.chance(0.15)) todo(ctx, 'people', person.id, person.createdMs, ctx.base, person.ownerId);
  }
  for (const org of ctx.orgs) {
    if (r.chance(0.15)) todo(ctx, 'organization', org.id, org.createdMs, ctx.base, org.ownerId);
  }
}

function todo(
  ctx: DemoContext,
  subjectType: NewTodo['subjectType'],
  subjectId: string,
  lo: number,
  hi: number,
  ownerId: string,
  record?: RecordInfo,
): void {
  const { r } = ctx;
  const createdMs = workTime(r, lo, hi);
  const id = ctx.ids.next(createdMs);
  const [title, kind] = r.pick(words.TODO_TEXTS[subjectType]);
  const dueMs = workTime(r, createdMs + DAY, createdMs + 14 * DAY);
  const closed = record?.closedMs != null;
  const done = dueMs < ctx.base - 2 * DAY ? r.chance(closed ? 0.95 : 0.8) : r.chance(0.15);
  const doneMs = done ? workTime(r, createdMs, Math.min(ctx.base, dueMs + 2 * DAY)) : null;
  const meeting = kind === '미팅' || kind === '점심';
  const custom: Record<string, unknown> = {};
  if (r.chance(0.8)) {
    custom[ctx.field.priority!] = r.weighted(words.FIELD_OPTIONS.todoPriorities, (p) =>
      p === '보통' ? 3 : 1,
    );
  }
  if (meeting || r.chance(0.3)) custom[ctx.field.minutes!] = r.pick([15, 30, 30, 60, 90]);
  ctx.out.todos.push({
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
  if (record) addActivity(ctx, record, 'todoCreate', createdMs, { todoId: id });
}

function generateWebForms(ctx: DemoContext): void {
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

function generateSubmissions(ctx: DemoContext): void {
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

function generateSequences(ctx: DemoContext): void {
  const { r } = ctx;
  const count = r.int(3, 5);
  for (const name of words.SEQUENCE_NAMES.slice(0, count)) {
    const ms = workTime(r, ctx.start - 40 * DAY, ctx.start - 10 * DAY);
    const id = ctx.ids.next(ms);
    ctx.sequenceIds.push(id);
    ctx.out.sequences.push({ id, name, createdAt: iso(ms) });
  }
}

function generateEnrollments(ctx: DemoContext): void {
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

function generatePeopleHistory(ctx: DemoContext): void {
  const { r } = ctx;
  const gradeField = ctx.field.grade!;
  for (const person of ctx.persons) {
    const changes: PeopleChange[] = [];
    const change = (c: Omit<PeopleChange, 'id' | 'peopleId' | 'ownerId' | 'createdAt'>) => {
      const ms = workTime(r, person.createdMs + HOUR, ctx.base);
      changes.push({
        ...c,
        id: ctx.ids.next(ms),
        peopleId: person.id,
        ownerId: r.chance(0.7) ? person.ownerId : ctx.ownerId(),
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
    ctx.out.history.push(...changes);
    // `수정 날짜` is the last change of the person's own fields.
    let last = person.input.updatedAt!;
    for (const c of changes) if (c.createdAt! > last) last = c.createdAt!;
    person.input.updatedAt = last;
  }
}

/**
 * Changes of deals, leads and organizations after their creation: a deal's amount or
 * contact, a lead's name, an organization's phone or e-mail. `수정 날짜` follows the last.
 */
function generateRecordHistory(ctx: DemoContext): void {
  const { r } = ctx;
  const orgInputs = new Map(ctx.out.organizations.map((o) => [o.id!, o]));
  const push = (
    change: Omit<RecordChange, 'id' | 'ownerId' | 'createdAt'>,
    lo: number,
    hi: number,
    ownerId: string,
  ): string => {
    const ms = workTime(r, lo + HOUR, Math.max(lo + HOUR, hi));
    const createdAt = iso(ms);
    ctx.out.recordHistory.push({
      ...change,
      id: ctx.ids.next(ms),
      ownerId: r.chance(0.7) ? ownerId : ctx.ownerId(),
      createdAt,
    });
    return createdAt;
  };
  const bump = (input: { updatedAt?: string }, at: string) => {
    if (!input.updatedAt || at > input.updatedAt) input.updatedAt = at;
  };
  for (const [i, record] of [...ctx.deals, ...ctx.leads].entries()) {
    const showcase = ctx.chunk === 0 && (i === 0 || record === ctx.leads[0]);
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
  ctx.orgs.forEach((org, i) => {
    if (!(ctx.chunk === 0 && i === 0) && !r.chance(0.08)) return;
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
      ctx.base,
      org.ownerId,
    );
    bump(input, at);
  });
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

/**
 * Generates the demo workspace's data, chunk by chunk: runs the generators of each record
 * type in a fixed order over one `DemoContext`, so the same seed, size and chunk give the
 * same data, ids included.
 */
import type { NewDeal } from '../resources/deals/writes.ts';
import type { PeopleChange } from '../resources/people-history/writes.ts';
import type { RecordChange } from '../resources/record-history/writes.ts';
import {
  generatePeopleAndOrganizationActivities,
  generateRecordActivities,
} from './demo/activities.ts';
import { DemoContext, type DemoData, emptyDemoData } from './demo/context.ts';
import { generateCustomFields } from './demo/custom-fields.ts';
import { generateDeals } from './demo/deals.ts';
import { generateLeads } from './demo/leads.ts';
import { generateNotes } from './demo/notes.ts';
import { generateOrganizations } from './demo/organizations.ts';
import { generatePeople } from './demo/people.ts';
import { generatePipelines } from './demo/pipelines.ts';
import { generateProducts } from './demo/products.ts';
import { generateQuotes } from './demo/quotes.ts';
import { HOUR, iso, workTime } from './demo/random.ts';
import { generateEnrollments, generateSequences } from './demo/sequences.ts';
import { generateTodos } from './demo/todos.ts';
import { generateUsersAndTeams } from './demo/users-teams.ts';
import { generateSubmissions, generateWebForms } from './demo/web-forms.ts';
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

/**
 * Generates the demo workspace's data, chunk by chunk: runs the generators of each record
 * type in a fixed order over one `DemoContext`, so the same seed, size and chunk give the
 * same data, ids included.
 */
import { generatePeopleAndOrganizationActivities, generateRecordActivities } from './activities.ts';
import { DemoContext, type DemoData, emptyDemoData } from './context.ts';
import { generateCustomFields } from './custom-fields.ts';
import { generateCustomObjects } from './custom-objects.ts';
import { generateDeals } from './deals.ts';
import { generateEmails } from './emails.ts';
import { generateLeads } from './leads.ts';
import { generateNoteThreads } from './note-threads.ts';
import { generateNotes } from './notes.ts';
import { generateOrganizations } from './organizations.ts';
import { generatePeople } from './people.ts';
import { generatePeopleHistory } from './people-history.ts';
import { generatePipelines } from './pipelines.ts';
import { generateProducts } from './products.ts';
import { generateQuotes } from './quotes.ts';
import { generateRecordHistory } from './record-history.ts';
import { generateEnrollments, generateSequenceDetails, generateSequences } from './sequences.ts';
import { sortByTime } from './sort-by-time.ts';
import { generateTodos } from './todos.ts';
import { generateUsersAndTeams } from './users-teams.ts';
import { generateSubmissions, generateWebForms } from './web-forms.ts';

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
  generateSequenceDetails(ctx);
  generateCustomObjects(ctx);
  generateEmails(ctx);
  generateNoteThreads(ctx);
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
  by(o.sequenceTimeline, (x) => x.date);
  by(o.activities, (x) => x.date!);
  by(o.emails, (x) => x.createdAt);
  by(o.history, (x) => x.createdAt!);
  by(o.recordHistory, (x) => x.createdAt!);
  by(o.customObjects, (x) => x.createdAt!);
}

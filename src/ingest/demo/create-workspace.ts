import { sql } from 'kysely';
import { SYSTEM_ACTOR } from '../../domain/events.ts';
import { now } from '../../domain/time.ts';
import { WORKSPACE_TABLES } from '../../model/tables.ts';
import { defineCustomField } from '../../resources/custom-fields/writes.ts';
import { insertCustomObjects, insertDefinition } from '../../resources/custom-objects/writes.ts';
import { insertActivities } from '../../resources/deal-activities/writes.ts';
import { insertDeals } from '../../resources/deals/writes.ts';
import { insertSentEmails } from '../../resources/emails/writes.ts';
import { insertLeads } from '../../resources/leads/writes.ts';
import { insertNotes } from '../../resources/notes/writes.ts';
import { insertOrganizations } from '../../resources/organizations/writes.ts';
import { insertPeople } from '../../resources/people/writes.ts';
import { recordPeopleHistory } from '../../resources/people-history/writes.ts';
import { insertPipeline } from '../../resources/pipelines/writes.ts';
import { insertProducts } from '../../resources/products/writes.ts';
import { insertQuotes } from '../../resources/quotes/writes.ts';
import { recordHistory } from '../../resources/record-history/writes.ts';
import {
  insertEnrollments,
  insertSequenceSteps,
  insertTimelineEvents,
} from '../../resources/sequences/writes.ts';
import { insertTodos } from '../../resources/todos/writes.ts';
import { insertSubmissions, insertWebForms } from '../../resources/web-forms/writes.ts';
import {
  createToken,
  createWorkspace,
  insertTeams,
  insertUsers,
} from '../../resources/workspaces/writes.ts';
import { deferIndexesOfALoneWorkspace } from '../../store/bulk-load.ts';
import { bumpCatalogVersion } from '../../store/catalog.ts';
import type { Store } from '../../store/database.ts';
import { insertMany } from '../../store/insert.ts';
import { EventLog } from '../../store/outbox/event-log.ts';
import { type RenderedType, TABLE_OF } from '../../store/read-model/rendered-types.ts';
import { Touched } from '../../store/read-model/touched.ts';
import { bumpDataVersion, type WorkspaceWrite, writeWorkspace } from '../../store/write.ts';
import type { DemoData } from './context.ts';
import { DEMO_CHUNK_PEOPLE, demoChunkCount, generateDemoChunks } from './generate.ts';
import { insertDemoRecordings } from './recordings.ts';

/** What demo to build. */
export interface DemoOptions {
  /** Same seed and size, same data (ids included). Default 1. */
  seed?: number;
  /** Number of people; organizations, deals and leads scale with it. Default 200. */
  people?: number;
  /**
   * People generated and written at a time, with their records (default 20,000): memory
   * follows the chunk, not the size. A demo no larger than one chunk does not depend on it.
   */
  chunkPeople?: number;
  /** Workspace name; defaults to the demo seller's. */
  name?: string;
  /** Called as the work goes: stage name, items done, items in the stage. */
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** The demo workspace built, with a token of its admin. */
export interface DemoResult {
  workspaceId: string;
  token: string;
  tokenId: string;
  /** Records written, by kind. */
  counts: Record<string, number>;
}

/** Rows per insert call, so progress moves while a large demo is written. */
const BATCH = 20_000;

/** Builds a new workspace full of realistic Korean demo data; same seed and size, same data. */
export async function createDemoWorkspace(
  store: Store,
  options: DemoOptions = {},
): Promise<DemoResult> {
  const seed = options.seed ?? 1;
  const people = options.people ?? 200;
  if (!Number.isInteger(seed)) throw new RangeError(`demo seed must be an integer: ${seed}`);
  if (!Number.isInteger(people) || people < 0) {
    throw new RangeError(`demo people must be a non-negative integer: ${people}`);
  }
  const progress = options.onProgress ?? (() => {});
  const chunkPeople = options.chunkPeople ?? DEMO_CHUNK_PEOPLE;
  const chunks = generateDemoChunks(seed, people, chunkPeople);
  const chunkCount = demoChunkCount(people, chunkPeople);

  progress('generate', 0, chunkCount);
  let data = chunks.next().value as DemoData;
  progress('generate', 1, chunkCount);
  const counts = countsOf(data);
  const adminUserId = data.adminUserId;
  const workspaceId = await createWorkspace(store, options.name ?? data.workspaceName);
  const restoreCache = await widenWriterCache(store);
  try {
    // Two transactions. The first writes every row, chunk by chunk as they are generated
    // (a chunk is let go once written); the second renders every record once, with all
    // its facts, reading the records in pages. In one transaction the rendering would read
    // back the pages the inserts spilled to the write-ahead log, which makes it half as
    // slow again (100,000 people: 37 s instead of 25 s). Between the two the workspace has
    // no token, so no client sees its records unrendered; if either fails, the workspace
    // is removed.
    await store.transaction(async (trx) => {
      const at = now();
      const events = new EventLog(SYSTEM_ACTOR, at);
      const w: WorkspaceWrite = {
        store,
        trx,
        workspaceId,
        touched: new Touched(),
        now: at,
        events,
      };
      const deferred = await deferIndexesOfALoneWorkspace(store, trx);
      await insertDemoData(w, data, progress);
      for (let done = 1; done < chunkCount; done++) {
        data = chunks.next().value as DemoData;
        progress('generate', done + 1, chunkCount);
        addCounts(counts, countsOf(data));
        await insertDemoData(w, data, progress);
      }
      progress('indexes', 0, 1);
      for (const statement of deferred.takeAll()) await sql.raw(statement).execute(trx);
      progress('indexes', 1, 1);
      await bumpDataVersion(trx, workspaceId);
      await bumpCatalogVersion(trx, workspaceId);
    });
    progress('render', 0, 1);
    // A new workspace starts with no events: its feed begins with the first change after it.
    await writeWorkspace(
      store,
      workspaceId,
      async (w) => {
        for (const type of Object.keys(TABLE_OF) as RenderedType[]) w.touched.markAll(type);
      },
      { events: false },
    );
    progress('render', 1, 1);
  } catch (error) {
    await discardWorkspace(store, workspaceId);
    throw error;
  } finally {
    await restoreCache();
  }
  const { id: tokenId, token } = await createToken(store, workspaceId, adminUserId, 'demo');
  return { workspaceId, token, tokenId, counts };
}

/** SQLite page cache of the write connection while a demo is built, in KiB. */
const DEMO_CACHE_KIB = 1024 * 1024;

/**
 * Gives the SQLite write connection a 1 GiB page cache for the build, and returns what
 * puts the old size back. Each chunk's rows go all over the indexes (every chunk spans the
 * whole two years), so with the usual 64 MiB the indexes of a large demo no longer fit:
 * every chunk spilled them to the write-ahead log and read them back.
 */
async function widenWriterCache(store: Store): Promise<() => Promise<void>> {
  if (store.dialect !== 'sqlite') return async () => {};
  const before = (await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db)).rows[0]
    ?.cache_size;
  await sql.raw(`pragma cache_size = -${DEMO_CACHE_KIB}`).execute(store.db);
  return async () => {
    if (before !== undefined) await sql.raw(`pragma cache_size = ${before}`).execute(store.db);
  };
}

/** Removes a workspace that could not be completed, with whatever rows it got. */
async function discardWorkspace(store: Store, workspaceId: string): Promise<void> {
  await store.transaction(async (trx) => {
    for (const table of WORKSPACE_TABLES) {
      await trx.deleteFrom(table).where('workspace_id', '=', workspaceId).execute();
    }
    await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
  });
}

async function insertDemoData(
  w: WorkspaceWrite,
  data: DemoData,
  progress: (stage: string, done: number, total: number) => void,
): Promise<void> {
  const ws = w.workspaceId;
  // The workspace structure comes with the first chunk only.
  if (data.users.length > 0) {
    progress('workspace', 0, 1);
    await insertUsers(w.trx, ws, data.users);
    await insertTeams(w.trx, ws, data.teams);
    for (const pipeline of data.pipelines) await insertPipeline(w, pipeline);
    for (const field of data.customFields) await defineCustomField(w, field);
    for (const d of data.customObjectDefinitions) {
      if (d.pipeline) await insertPipeline(w, d.pipeline);
      await insertDefinition(w, { ...d, pipelineId: d.pipeline?.id ?? null });
      for (const field of d.fields) await defineCustomField(w, field);
    }
    progress('workspace', 1, 1);
  }

  const stage = async <T>(name: string, items: T[], insert: (batch: T[]) => Promise<unknown>) => {
    progress(name, 0, items.length);
    for (let i = 0; i < items.length; i += BATCH) {
      await insert(items.slice(i, i + BATCH));
      progress(name, Math.min(items.length, i + BATCH), items.length);
    }
    // Let the collector have the written rows: rendering a large demo, which runs next in
    // the same transaction, slows down by a third with a gigabyte of them still alive.
    items.length = 0;
  };
  await stage('products', data.products, (b) => insertProducts(w, b));
  await stage('organizations', data.organizations, (b) => insertOrganizations(w, b));
  await stage('people', data.people, (b) => insertPeople(w, b));
  await stage('deals', data.deals, (b) => insertDeals(w, b));
  await stage('leads', data.leads, (b) => insertLeads(w, b));
  await stage('quotes', data.quotes, (b) => insertQuotes(w, b));
  await stage('notes', data.notes, (b) => insertNotes(w, b));
  await stage('todos', data.todos, (b) => insertTodos(w, b));
  if (data.webForms.length > 0) await insertWebForms(w, data.webForms);
  await stage('submissions', data.submissions, (b) => insertSubmissions(w, b));
  // `insertSequences` takes names only and makes random ids; the demo's ids are seeded.
  if (data.sequences.length > 0)
    await insertMany(
      w.trx,
      'sequences',
      data.sequences.map((s) => ({
        workspace_id: ws,
        id: s.id,
        name: s.name,
        description: s.description,
        created_at: s.createdAt,
      })),
    );
  await stage('enrollments', data.enrollments, (b) => insertEnrollments(w, b));
  if (data.sequenceSteps.length > 0) await insertSequenceSteps(w, data.sequenceSteps);
  await stage('sequence timeline', data.sequenceTimeline, (b) => insertTimelineEvents(w, b));
  await stage('activities', data.activities, (b) => insertActivities(w, b));
  await stage('recordings', data.recordings, (b) => insertDemoRecordings(w, b));
  await stage('emails', data.emails, (b) => insertSentEmails(w, b));
  await stage('history', data.history, (b) => recordPeopleHistory(w, b));
  await stage('record history', data.recordHistory, (b) => recordHistory(w, b));
  await stage('custom objects', data.customObjects, (b) =>
    insertCustomObjects(w, b as Parameters<typeof insertCustomObjects>[1]),
  );
}

function addCounts(into: Record<string, number>, more: Record<string, number>): void {
  for (const [key, n] of Object.entries(more)) into[key] = (into[key] ?? 0) + n;
}

function countsOf(data: DemoData): Record<string, number> {
  return {
    users: data.users.length,
    teams: data.teams.length,
    pipelines: data.pipelines.length,
    pipelineStages: data.pipelines.reduce((n, p) => n + p.stages.length, 0),
    customFields: data.customFields.length,
    products: data.products.length,
    organizations: data.organizations.length,
    people: data.people.length,
    deals: data.deals.length,
    leads: data.leads.length,
    quotes: data.quotes.length,
    quoteProducts: data.quotes.reduce((n, q) => n + q.lines.length, 0),
    notes: data.notes.length,
    todos: data.todos.length,
    webForms: data.webForms.length,
    webFormSubmissions: data.submissions.length,
    sequences: data.sequences.length,
    sequenceEnrollments: data.enrollments.length,
    sequenceSteps: data.sequenceSteps.length,
    sequenceTimeline: data.sequenceTimeline.length,
    // A recording's `recordingCreate` activity is written with it.
    activities: data.activities.length + data.recordings.length,
    recordings: data.recordings.length,
    emails: data.emails.length,
    peopleHistory: data.history.length,
    recordHistory: data.recordHistory.length,
    customObjectDefinitions: data.customObjectDefinitions.length,
    customObjects: data.customObjects.length,
  };
}

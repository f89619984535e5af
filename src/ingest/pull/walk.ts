/**
 * What a pull reads of its source, in order, and the walk that reads it into the spool:
 * each list page by page, and the reads made once per record (a deal's quotes, a form's
 * submissions, an enrollment's timeline) id by id, every step recorded so that a stopped
 * walk goes on where it stopped.
 */
import { FIELD_TYPE_OF_PATH } from '../../domain/field-catalogue.ts';
import { CONTENT_READS } from './content-reads.ts';
import { CrmApiError, type Source } from './source.ts';
import type { ReadProgress, Spool } from './spool.ts';

/**
 * The `{type}` of each `GET /v2/field/{type}` the walk reads here (`FIELD_TYPE_OF_PATH`); the
 * custom objects' fields are read with them (`content-reads.ts`).
 */
export const FIELD_TYPES = (
  Object.keys(FIELD_TYPE_OF_PATH) as (keyof typeof FIELD_TYPE_OF_PATH)[]
).filter((t): t is Exclude<typeof t, 'custom-object'> => t !== 'custom-object');

/** One read of the walk. */
export type Read =
  /** A list, page by page (`paged: false`: one answer, no cursor). */
  | { name: string; kind: 'list'; path: string; key: string; paged: boolean }
  /** A read per id of the records of `of`: each line `[id, record]`. */
  | {
      name: string;
      kind: 'each';
      of: (spool: Spool) => string[];
      path: (id: string) => string;
      key: string;
      paged: boolean;
      /** The query of each id's read (a list filtered by the record). */
      query?: (id: string) => Record<string, string>;
      /**
       * Reads one id itself (a file's bytes, streamed to the state folder) instead of a GET
       * of `path`'s JSON: the records it answers.
       */
      fetch?: (source: Source, id: string, spool: Spool) => Promise<Record<string, unknown>[]>;
      /**
       * A `404` or `405` of the first id is the source not serving this read at all (named
       * in the summary, as a refused list is), not a record gone since its list was read.
       */
      notServed404?: boolean;
    };

const list = (name: string, path: string, key: string, paged = true): Read => ({
  name,
  kind: 'list',
  path,
  key,
  paged,
});

const idsOf =
  (name: string, key = 'id') =>
  (spool: Spool): string[] =>
    [...spool.values(name)].map((r) => String(r[key]));

/** Every read of a pull, in the order it runs them. */
export const READS: readonly Read[] = [
  list('users', '/v2/user', 'userList'),
  list('teams', '/v2/team', 'teamList'),
  list('pipelines', '/v2/pipeline', 'pipelineList', false),
  list('dealPipelines', '/v2/deal/pipeline', 'pipelineList', false),
  list('leadPipelines', '/v2/lead/pipeline', 'pipelineList', false),
  ...FIELD_TYPES.map((t) => list(`fields-${t}`, `/v2/field/${t}`, 'fieldList', false)),
  list(
    'customObjectDefinitions',
    '/v2/custom-object-definitions',
    'customObjectDefinitionList',
    false,
  ),
  list('products', '/v2/product', 'productList'),
  list('organizations', '/v2/organization', 'organizationList'),
  list('people', '/v2/people', 'peopleList'),
  list('deals', '/v2/deal', 'dealList'),
  list('leads', '/v2/lead', 'leadList'),
  {
    name: 'dealDetails',
    kind: 'each',
    of: idsOf('deals'),
    path: (id) => `/v2/deal/${id}`,
    key: 'deal',
    paged: false,
  },
  {
    name: 'dealQuotes',
    kind: 'each',
    of: idsOf('deals'),
    path: (id) => `/v2/deal/${id}/quote`,
    key: 'quoteList',
    paged: false,
  },
  {
    name: 'leadQuotes',
    kind: 'each',
    of: idsOf('leads'),
    path: (id) => `/v2/lead/${id}/quote`,
    key: 'quoteList',
    paged: false,
  },
  list('memos', '/v2/memo', 'memoList'),
  list('todos', '/v2/todo', 'todoList'),
  list('webForms', '/v2/webForm', 'webFormList'),
  {
    name: 'submissions',
    kind: 'each',
    of: idsOf('webForms'),
    path: (id) => `/v2/webForm/${id}/submit`,
    key: 'webFormSubmitList',
    paged: true,
  },
  list('sequences', '/v2/sequence', 'sequenceList'),
  {
    name: 'sequenceSteps',
    kind: 'each',
    of: idsOf('sequences', '_id'),
    path: (id) => `/v2/sequence/${id}/step`,
    key: 'stepList',
    paged: true,
  },
  {
    name: 'enrollments',
    kind: 'each',
    of: idsOf('sequences', '_id'),
    path: (id) => `/v2/sequence/${id}/enrollment`,
    key: 'sequenceEnrollmentList',
    paged: true,
  },
  {
    name: 'timelines',
    kind: 'each',
    of: (spool) =>
      [...spool.values<[string, { _id: string }]>('enrollments')].map(([, e]) => e._id),
    path: (id) => `/v2/sequence/enrollment/${id}/timeline`,
    key: 'timelineList',
    paged: true,
  },
  list('dealActivities', '/v2/deal/activity', 'dealActivityList'),
  list('peopleActivities', '/v2/people/activity', 'peopleActivityList'),
  list('organizationActivities', '/v2/organization/activity', 'organizationActivityList'),
  list('peopleHistory', '/v2/people/history', 'peopleHistoryList'),
  list('organizationHistory', '/v2/organization/history', 'organizationHistoryList'),
  list('dealHistory', '/v2/deal/history', 'dealHistoryList'),
  list('leadHistory', '/v2/lead/history', 'leadHistoryList'),
  ...CONTENT_READS,
];

/**
 * What the walk reports as it goes: the read, and the steps done and in all (a list is one
 * step; a read per record, one a record, once its records are known), for a progress bar.
 */
export type WalkProgress = (read: string, stepsDone: number, stepsTotal: number) => void;

/** Whether an error is the source refusing a read (a 4xx), not a failure to reach it. */
function refusal(error: unknown): string | undefined {
  if (
    error instanceof CrmApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  )
    return `${error.status} ${error.message}`;
  return undefined;
}

/** Runs every read not done yet, from where each stopped. */
export async function walk(source: Source, spool: Spool, onProgress?: WalkProgress): Promise<void> {
  /** The records of each read per record, once known. */
  const sizes = new Map<string, number>();
  const report = (name: string) => {
    if (!onProgress) return;
    let done = 0;
    let total = 0;
    for (const r of READS) {
      const p = spool.progress(r.name);
      const size = r.kind === 'list' ? 1 : (sizes.get(r.name) ?? 1);
      total += size;
      done += p.done ? size : r.kind === 'list' ? 0 : Math.min(p.index, size);
    }
    onProgress(name, done, total);
  };
  for (const read of READS) {
    const p = spool.progress(read.name);
    if (p.done) continue;
    report(read.name);
    if (read.kind === 'list') await walkList(source, spool, read, p);
    else {
      await walkEach(source, spool, read, p, (n) => {
        sizes.set(read.name, n);
        report(read.name);
      });
    }
    report(read.name);
  }
}

async function walkList(
  source: Source,
  spool: Spool,
  read: Extract<Read, { kind: 'list' }>,
  p: ReadProgress,
): Promise<void> {
  for (;;) {
    let page: Awaited<ReturnType<Source['page']>>;
    try {
      page = read.paged
        ? await source.page(read.path, read.key, p.cursor)
        : { items: listOf(await source.get(read.path), read.path, read.key), next: null };
    } catch (error) {
      const why = refusal(error);
      if (why === undefined) throw error;
      spool.mark(read.name, (q) => {
        q.done = true;
        q.refused = `${read.path}: ${why}`;
      });
      return;
    }
    spool.append(read.name, page.items, (q) => {
      q.cursor = page.next;
      if (page.next === null) q.done = true;
    });
    if (page.next === null) return;
  }
}

async function walkEach(
  source: Source,
  spool: Spool,
  read: Extract<Read, { kind: 'each' }>,
  p: ReadProgress,
  tick: (records: number) => void,
): Promise<void> {
  const ids = read.of(spool);
  tick(ids.length);
  while (p.index < ids.length) {
    const id = ids[p.index]!;
    let page: Awaited<ReturnType<Source['page']>>;
    try {
      const query = read.query?.(id);
      page = read.fetch
        ? { items: await read.fetch(source, id, spool), next: null }
        : read.paged
          ? await source.page(read.path(id), read.key, p.cursor, query)
          : {
              items: listOf(await source.get(read.path(id), query), read.path(id), read.key),
              next: null,
            };
    } catch (error) {
      // A record gone since its list was read (404), or one the read has nothing of (an
      // enrollment that has run no step answers 400, as the live API does), gives nothing;
      // another refusal of a read per record refuses them all, as does a 404 or 405 of the
      // first record of a read the source may not serve.
      const notServed =
        read.notServed404 &&
        p.index === 0 &&
        p.records === 0 &&
        error instanceof CrmApiError &&
        (error.status === 404 || error.status === 405);
      if (
        !notServed &&
        error instanceof CrmApiError &&
        (error.status === 404 || error.status === 400)
      )
        page = { items: [], next: null };
      else {
        const why = refusal(error);
        if (why === undefined) throw error;
        spool.mark(read.name, (q) => {
          q.done = true;
          q.refused = `${read.path('{id}')}: ${why}`;
        });
        return;
      }
    }
    spool.append(
      read.name,
      page.items.map((item) => [id, item]),
      (q) => {
        q.cursor = page.next;
        if (page.next === null) q.index++;
      },
    );
    if ((p.index & 15) === 0) tick(ids.length);
  }
  spool.mark(read.name, (q) => {
    q.done = true;
  });
}

/** The records under `key` of an answer (an object, as the single reads answer, is one). */
function listOf(data: unknown, path: string, key: string): Record<string, unknown>[] {
  const value = (data as Record<string, unknown> | null)?.[key];
  if (Array.isArray(value)) return value as Record<string, unknown>[];
  if (value !== null && typeof value === 'object') return [value as Record<string, unknown>];
  if (value === null) return [];
  throw new CrmApiError({ status: 400, message: `${path}: the answer has no '${key}'` });
}

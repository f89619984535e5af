/**
 * One change of the source applied to the copy (`pull --follow`, docs/pull.md "Keeping it in
 * step"). The record an event names is read again from the source with what hangs off it that
 * its events stand for (a deal's followers and participants, a deal's or lead's quotes and
 * their lines), taken back to its rows as a whole pull takes it (`to-lines.ts`), and written
 * over the copy's in one write: the read model renders it and what derives from it (its
 * person's and organization's deal counters, the Ref values naming it), and the copy's own
 * event feed gets the change (`생성`, or a `수정` per key that changed). A record the source
 * no longer has is deleted from the copy; a merge is the copy's own merge, then the kept
 * record is written as the source has it.
 */
import type { EventActor } from '../../domain/events.ts';
import { markReferrers } from '../../resources/commands.ts';
import { deletePipelineRecord } from '../../resources/deals/commands.ts';
import { mergeDeal } from '../../resources/merges/deals.ts';
import { mergeLead } from '../../resources/merges/leads.ts';
import { mergeOrganization } from '../../resources/merges/organizations.ts';
import { mergePeople } from '../../resources/merges/people.ts';
import { SOURCE_IMPORT } from '../../resources/owned.ts';
import type { Store } from '../../store/database.ts';
import { insertMany } from '../../store/insert.ts';
import { TABLE_OF } from '../../store/read-model/rendered-types.ts';
import { insertRecords, type WorkspaceWrite, writeWorkspace } from '../../store/write.ts';
import { renderHistoryLines } from '../import-history.ts';
import { activityRowOf, rowColumns, rowValues } from '../import-rows.ts';
import { FORMAT_OF } from '../transfer-format.ts';
import type { Line, Rec } from './refs.ts';
import { CrmApiError, type Source } from './source.ts';
import type { ReadProgress } from './spool.ts';
import { pulledLines } from './to-lines.ts';
import { READS } from './walk.ts';

/** The record types whose changes are applied one by one (custom objects are not pulled). */
export type ChangedKind = 'people' | 'organization' | 'deal' | 'lead';

/** The kind of each event `objectType`. */
const KIND_OF_OBJECT_TYPE: ReadonlyMap<string, ChangedKind> = new Map([
  ['고객', 'people'],
  ['회사', 'organization'],
  ['딜', 'deal'],
  ['리드', 'lead'],
]);

/**
 * The kind of an event's `objectType`, or undefined for any other value (a delivery's body is
 * whatever was POSTed: `constructor` or `__proto__` name no kind).
 */
export function kindOfObjectType(objectType: unknown): ChangedKind | undefined {
  return typeof objectType === 'string' ? KIND_OF_OBJECT_TYPE.get(objectType) : undefined;
}

/** The walk's read of each kind's list (the name `to-lines.ts` reads the records under). */
const LIST_READ: Record<ChangedKind, string> = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
};

/** The line type of each kind's record. */
const LINE_TYPE: Record<ChangedKind, string> = {
  people: 'person',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
};

/** The reads of the walk a record's lines need besides the record: pipelines and fields. */
const CATALOG_READS = READS.filter(
  (r) => r.kind === 'list' && (r.name.startsWith('fields-') || r.name.endsWith('ipelines')),
);

/**
 * The source's pipelines and custom fields, read once and kept (a record's custom values and
 * stage times are read through them); `forget` makes the next change read them again.
 */
export class SourceCatalog {
  private reads?: Map<string, unknown[]>;

  constructor(private readonly source: Source) {}

  forget(): void {
    this.reads = undefined;
  }

  async get(): Promise<Map<string, unknown[]>> {
    if (this.reads) return this.reads;
    const reads = new Map<string, unknown[]>();
    for (const read of CATALOG_READS) {
      if (read.kind !== 'list') continue;
      const data = await this.source.get<Record<string, unknown>>(read.path);
      const list = data?.[read.key];
      reads.set(read.name, Array.isArray(list) ? list : []);
    }
    this.reads = reads;
    return reads;
  }
}

/** A few reads held in memory, read by `pulledLines` as it reads a walk's spool. */
class HeldReads {
  /** A change brings no file's bytes: nothing is read from a folder. */
  readonly dir = '';

  constructor(private readonly reads: Map<string, unknown[]>) {}

  *values<T = Rec>(name: string): Generator<T> {
    yield* (this.reads.get(name) ?? []) as T[];
  }

  progress(name: string): ReadProgress {
    const records = this.reads.get(name)?.length ?? 0;
    return { done: true, index: 0, cursor: null, bytes: 0, records };
  }
}

/**
 * The reads of what hangs off a record, by the record's id filter: the walk's read each goes
 * into, the path and the list's key. A lead's activities are in the deals' activity list, as
 * the walk reads them.
 */
const OWN_READS: Record<ChangedKind, [read: string, path: string, key: string, filter: string][]> =
  {
    people: [
      ['memos', '/v2/memo', 'memoList', 'peopleId'],
      ['peopleActivities', '/v2/people/activity', 'peopleActivityList', 'peopleId'],
      ['peopleHistory', '/v2/people/history', 'peopleHistoryList', 'peopleId'],
    ],
    organization: [
      ['memos', '/v2/memo', 'memoList', 'organizationId'],
      [
        'organizationActivities',
        '/v2/organization/activity',
        'organizationActivityList',
        'organizationId',
      ],
      [
        'organizationHistory',
        '/v2/organization/history',
        'organizationHistoryList',
        'organizationId',
      ],
    ],
    deal: [
      ['memos', '/v2/memo', 'memoList', 'dealId'],
      ['dealActivities', '/v2/deal/activity', 'dealActivityList', 'dealId'],
      ['dealHistory', '/v2/deal/history', 'dealHistoryList', 'dealId'],
    ],
    lead: [
      ['memos', '/v2/memo', 'memoList', 'leadId'],
      ['dealActivities', '/v2/deal/activity', 'dealActivityList', 'dealId'],
      ['leadHistory', '/v2/lead/history', 'leadHistoryList', 'leadId'],
    ],
  };

/** The line types of what hangs off a record that a change writes again: its own rows. */
const OWN_LINES = ['note', 'activity', 'history'] as const;

/**
 * A record as the source has it now, as lines: itself, its quotes and their lines, and its
 * notes, activities and history.
 */
export interface RecordLines {
  kind: ChangedKind;
  id: string;
  record: Line;
  quotes: Line[];
  quoteLines: Line[];
  own: Record<(typeof OWN_LINES)[number], Line[]>;
}

/** Reads one record of the source, with what hangs off it; undefined when the source has it no more. */
export async function readRecord(
  source: Source,
  catalog: SourceCatalog,
  store: Store,
  workspaceId: string,
  kind: ChangedKind,
  id: string,
): Promise<RecordLines | undefined> {
  let record: Rec | undefined;
  try {
    // An array of one record (a deal: the record itself).
    const answer = (await source.get<Record<string, unknown>>(`/v2/${kind}/${id}`))?.[kind];
    record = (Array.isArray(answer) ? answer[0] : answer) as Rec | undefined;
  } catch (error) {
    if (error instanceof CrmApiError && error.status === 404) return undefined;
    throw error;
  }
  if (!record || record.id !== id) return undefined;
  const reads = new Map(await catalog.get());
  reads.set(LIST_READ[kind], [record]);
  if (kind === 'deal' || kind === 'lead') {
    const quotes = (await source.get<{ quoteList?: Rec[] }>(`/v2/${kind}/${id}/quote`))?.quoteList;
    reads.set(
      kind === 'deal' ? 'dealQuotes' : 'leadQuotes',
      (quotes ?? []).map((q) => [id, q]),
    );
    // The single deal is the read that shows followers and participants.
    if (kind === 'deal') reads.set('dealDetails', [[id, record]]);
    // A quote line's payment keys are kept by the kind of its product, which the copy has.
    const products = await store.db
      .selectFrom('products')
      .select(['id', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    reads.set(
      'products',
      products.map((p) => ({ id: p.id, 유형: p.kind })),
    );
  }
  for (const [read, path, key, filter] of OWN_READS[kind]) {
    const items: Rec[] = [];
    let cursor: string | null = null;
    do {
      const page = await source.page(path, key, cursor, { [filter]: id });
      items.push(...page.items);
      cursor = page.next;
    } while (cursor !== null);
    reads.set(read, items);
  }
  const lines: RecordLines = {
    kind,
    id,
    record: { type: '' },
    quotes: [],
    quoteLines: [],
    own: { note: [], activity: [], history: [] },
  };
  pulledLines(new HeldReads(reads), (line) => {
    if (line.type === LINE_TYPE[kind] && line.id === id) lines.record = line;
    else if (line.type === 'quote') lines.quotes.push(line);
    else if (line.type === 'quoteLine') lines.quoteLines.push(line);
    else if (
      (OWN_LINES as readonly string[]).includes(line.type) &&
      line.subject_type === kind &&
      line.subject_id === id
    )
      lines.own[line.type as (typeof OWN_LINES)[number]].push(line);
  });
  return lines.record.type === '' ? undefined : lines;
}

/** A line as its table's row, by column. */
function rowOf(line: Line, workspaceId: string): Record<string, unknown> & { id: string } {
  const format = FORMAT_OF.get(line.type)!;
  const columns = rowColumns(format, false);
  const values = rowValues(format, line, workspaceId, SOURCE_IMPORT);
  const row: Record<string, unknown> = {};
  columns.forEach((c, i) => {
    row[c] = values[i];
  });
  return row as Record<string, unknown> & { id: string };
}

/** The copy's row of a record, if it has one. */
async function heldRow(
  w: WorkspaceWrite,
  kind: ChangedKind,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  return (await w.trx
    .selectFrom(TABLE_OF[kind] as 'deals')
    .selectAll()
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
}

/** Writes a record as the source has it over the copy's, in the caller's write. */
async function writeRecord(w: WorkspaceWrite, lines: RecordLines): Promise<void> {
  const { kind, id } = lines;
  const row = rowOf(lines.record, w.workspaceId);
  const before = await heldRow(w, kind, id);
  if (before) {
    const { workspace_id: _, id: __, ...set } = row;
    // A labelled deal shows no outcome: the copy keeps the one it has (a walk works it out).
    if (kind === 'deal' && lines.record.label !== null && set.closed_at !== null)
      set.outcome = before.outcome;
    await w.trx
      .updateTable(TABLE_OF[kind] as 'deals')
      .set(set)
      .where('workspace_id', '=', w.workspaceId)
      .where('id', '=', id)
      .execute();
    w.touched.mark(kind, id);
  } else {
    await insertRecords(w, kind, [row]);
  }
  if (kind === 'deal' || kind === 'lead') {
    // Its person's and organization's counters, before and after.
    w.touched
      .markCounts('people', before?.people_id as string | null)
      .markCounts('organization', before?.organization_id as string | null)
      .markCounts('people', row.people_id as string | null)
      .markCounts('organization', row.organization_id as string | null);
    await writeQuotes(w, lines);
  }
  await writeOwnRows(w, lines);
  if (kind === 'people') {
    w.touched
      .mark('organization', before?.organization_id as string | null)
      .mark('organization', row.organization_id as string | null);
  }
  if (kind !== 'lead') await markReferrers(w, kind, id);
}

/** The tables of what hangs off a record that a change writes again. */
const OWN_TABLES = { note: 'notes', activity: 'activities', history: 'history' } as const;

/** Puts a record's notes, activities and history as the source has them in place of the copy's. */
async function writeOwnRows(w: WorkspaceWrite, lines: RecordLines): Promise<void> {
  for (const type of OWN_LINES) {
    await w.trx
      .deleteFrom(OWN_TABLES[type])
      .where('workspace_id', '=', w.workspaceId)
      .where('subject_type', '=', lines.kind)
      .where('subject_id', '=', lines.id)
      .execute();
  }
  const { note, activity, history } = lines.own;
  await insertMany(
    w.trx,
    'notes',
    note.map((l) => rowOf(l, w.workspaceId)),
  );
  await insertMany(
    w.trx,
    'activities',
    activity.map((l) => activityRowOf(w, l)),
  );
  const rows: Record<string, unknown>[] = [];
  await renderHistoryLines(
    w,
    w,
    {
      people: new Map(),
      organization: new Map(),
      deal: new Map(),
      product: new Map(),
    },
    history,
    (row) => rows.push(row),
  );
  await insertMany(w.trx, 'history', rows);
}

/** Puts a deal's or lead's quotes and their lines in place of the copy's. */
async function writeQuotes(w: WorkspaceWrite, lines: RecordLines): Promise<void> {
  const ws = w.workspaceId;
  const column = lines.kind === 'deal' ? 'deal_id' : 'lead_id';
  const held = (
    await w.trx
      .selectFrom('quotes')
      .select('id')
      .where('workspace_id', '=', ws)
      .where(column, '=', lines.id)
      .execute()
  ).map((q) => q.id);
  const ids = [...new Set([...held, ...lines.quotes.map((q) => q.id as string)])];
  if (ids.length > 0) {
    await w.trx
      .deleteFrom('quote_products')
      .where('workspace_id', '=', ws)
      .where('quote_id', 'in', ids)
      .execute();
    await w.trx
      .deleteFrom('quotes')
      .where('workspace_id', '=', ws)
      .where('id', 'in', ids)
      .execute();
  }
  if (lines.quotes.length > 0) {
    await insertRecords(
      w,
      'quote',
      lines.quotes.map((q) => rowOf(q, ws)),
    );
  }
  if (lines.quoteLines.length > 0) {
    await insertMany(
      w.trx,
      'quote_products',
      lines.quoteLines.map((l) => rowOf(l, ws)),
    );
  }
  w.touched.mark(lines.kind, lines.id);
}

/** What one write of the copy applies: a record written, a record gone, or a merge. */
export type Change =
  | { kind: ChangedKind; id: string; is: 'written'; lines: RecordLines }
  | { kind: ChangedKind; id: string; is: 'gone' }
  | { kind: ChangedKind; id: string; is: 'merged'; mergedId: string; lines?: RecordLines };

/**
 * Applies one change to the copy in one write, whose events (the copy's feed) carry `actor`.
 * Answers false when the copy cannot take it as a change (a person or organization gone
 * without a merge, which no write of this API does): a walk brings the copy level then.
 */
export async function applyChange(
  store: Store,
  workspaceId: string,
  change: Change,
  actor: EventActor,
  actorId: string,
): Promise<boolean> {
  return writeWorkspace(
    store,
    workspaceId,
    async (w) => {
      const { kind, id } = change;
      if (change.is === 'written') {
        await writeRecord(w, change.lines);
        return true;
      }
      if (change.is === 'merged') {
        const [kept, merged] = [
          await heldRow(w, kind, id),
          await heldRow(w, kind, change.mergedId),
        ];
        if (kept && merged) {
          const body = { mergedId: change.mergedId };
          if (kind === 'people') await mergePeople(w, actorId, id, body);
          else if (kind === 'organization') await mergeOrganization(w, actorId, id, body);
          else if (kind === 'deal') await mergeDeal(w, actorId, id, body);
          else await mergeLead(w, actorId, id, body);
        }
        if (change.lines) await writeRecord(w, change.lines);
        return kept !== undefined || merged === undefined;
      }
      if (!(await heldRow(w, kind, id))) return true;
      if (kind === 'deal' || kind === 'lead') {
        await deletePipelineRecord(w, kind, id);
        return true;
      }
      return false;
    },
    { actor },
  );
}

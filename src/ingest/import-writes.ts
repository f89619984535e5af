/**
 * Writing an import's accepted lines: rows as they come, and the records the store keeps
 * rendered once, rendered, after the last line.
 */
import {
  ATTACHMENT_TYPE,
  type CustomFieldDefinition,
  collectRefIds,
  type NamedTarget,
  refTargetOf,
} from '../domain/custom-fields.ts';
import { newId } from '../domain/ids.ts';
import { now } from '../domain/time.ts';
import { SOURCE_IMPORT } from '../resources/owned.ts';
import { DeferredIndexes } from '../store/bulk-load.ts';
import { CHUNK } from '../store/by-id.ts';
import type { Executor, Store } from '../store/database.ts';
import { EventLog } from '../store/outbox/event-log.ts';
import {
  EVENT_COLUMNS,
  eventValues,
  fanOut,
  numberEvents,
  writeEvents,
} from '../store/outbox/write-events.ts';
import { renderRecordJson } from '../store/read-model/record-json.ts';
import { refreshTouched } from '../store/read-model/refresh.ts';
import { type RenderedType, TABLE_OF } from '../store/read-model/rendered-types.ts';
import { indexRendered } from '../store/read-model/search-index.ts';
import { Touched } from '../store/read-model/touched.ts';
import { bumpDataVersion, type RowContext, type WorkspaceWrite } from '../store/write.ts';
import { type Counted, ImportFacts } from './import-facts.ts';
import { renderHistoryLines } from './import-history.ts';
import { lineCustomsOf, recordFactsOf } from './import-record-facts.ts';
import { activityRowOf, rowColumns, rowValues, withStoredStrings } from './import-rows.ts';
import { type ImportSink, type TableSink, TransactionSink } from './import-sink.ts';
import { LineSpill } from './line-spill.ts';
import type { LineType } from './transfer-columns.ts';
import { FORMAT_OF, LINE_FORMATS, type LineFormat } from './transfer-format.ts';

/** Rows kept before they are written (PostgreSQL; SQLite writes each row at once). */
const FLUSH_ROWS = 5_000;
/** File bytes kept before they are written: a few chunks, never whole files. */
const FLUSH_BYTES = 1024 * 1024;

/** Line types whose records the store keeps rendered, with their rendered type. */
const RENDERED: Partial<Record<LineType, RenderedType>> = {
  person: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
};

/**
 * The writing of one import into a workspace, inside its write transaction: the writers of
 * the rows, in file order, and the facts the rendered records show.
 *
 * Records the store keeps rendered (people, organizations, deals, leads, products, quotes)
 * are written once, rendered, after the last line: their JSON shows facts that later lines
 * bring (a person's deals, a deal's newest e-mail open, ...). Until then their checked lines
 * wait in a temporary file and what they show is gathered in `ImportFacts`. Other rows are
 * written as they come. With `renderAtInsert: false` (an import that mixes in CSV files,
 * whose rows may refer to the file's records as they are read), every record is written as
 * it comes and the workspace is rendered again at the end instead.
 */
export class ImportWriter {
  private readonly writers = new Map<string, TableSink>();
  private readonly sink: ImportSink;
  /** Rows are built with their rendered JSON as text: the sink stores it. */
  private readonly rows: RowContext;
  /** History lines, written at `flush` (they show names some of which are read). */
  private history: Record<string, unknown>[] = [];
  private readonly facts = new ImportFacts();
  private readonly spill = new LineSpill();
  /** Ids of the rendered records the workspace held before: rendered again at the end. */
  private readonly before = new Map<RenderedType, string[]>();
  readonly renderAtInsert: boolean;
  /** Indexes dropped for the import (`useDeferredIndexes`), created as their tables fill. */
  private indexes = new DeferredIndexes();
  /** The line type of the last line, and the types whose lines ended since the last flush. */
  private lastType: LineType | undefined;
  private ended: LineFormat[] = [];
  /** File bytes handed to the writers since the last flush. */
  private pendingBytes = 0;
  /**
   * Custom objects, rendered from the database at the end (after their notes and todos):
   * the file's, written as they come, and the workspace's own, to which it may add notes.
   */
  private readonly customObjects: string[] = [];

  constructor(
    private readonly w: WorkspaceWrite,
    private readonly sourceDefault: string = SOURCE_IMPORT,
    options: { renderAtInsert?: boolean; sink?: ImportSink } = {},
  ) {
    this.renderAtInsert = options.renderAtInsert ?? true;
    this.sink = options.sink ?? new TransactionSink(w.store, w.trx, w.workspaceId);
    this.rows = { workspaceId: w.workspaceId, now: w.now, store: { encodeBody: (json) => json } };
  }

  /** True when the workspace held no records the store keeps rendered (seen by `prepare`). */
  get workspaceWasEmpty(): boolean {
    return this.before.size === 0;
  }

  /**
   * Takes the indexes the caller dropped for this import (`deferIndexesOfALoneWorkspace`):
   * the indexes of a table whose rows are written as they come are created as soon as the
   * file moves past its line type (on a writer thread, while this one reads on); the rest
   * after the rendered records are written. All before the commit.
   */
  useDeferredIndexes(indexes: DeferredIndexes): void {
    this.indexes = indexes;
  }

  /**
   * Takes the ids of a table the workspace held (seen by `ImportChecks.prepare`): its records,
   * if the store keeps them rendered, are rendered again at the end.
   */
  heldBefore(type: LineType, rows: { id: string }[]): void {
    if (type === 'customObject') for (const r of rows) this.customObjects.push(r.id);
    const rendered = RENDERED[type];
    if (rendered && rows.length > 0) {
      this.before.set(
        rendered,
        rows.map((r) => r.id),
      );
    }
  }

  /** Notes the line type of a line read: the type before it has ended when it changes. */
  nextLine(format: LineFormat): void {
    if (format.type !== this.lastType) {
      if (this.lastType !== undefined) this.ended.push(FORMAT_OF.get(this.lastType)!);
      this.lastType = format.type;
    }
  }

  /** True when enough rows are buffered that the caller should `flush()` them. */
  get full(): boolean {
    if (this.sink.busy || this.ended.length > 0 || this.pendingBytes >= FLUSH_BYTES) return true;
    let pending = this.history.length;
    for (const writer of this.writers.values()) pending += writer.pending;
    return pending >= FLUSH_ROWS;
  }

  /** Writes (or keeps) the row of an accepted line; `text`: the line as read. */
  write(f: LineFormat, r: Record<string, unknown>, text: string): void {
    const line = withStoredStrings(text, r, this.w.store.dialect);
    this.facts.add(f.type, r);
    const rendered = RENDERED[f.type];
    if (rendered && this.renderAtInsert) {
      this.spill.append(line);
      return;
    }
    if (f.type === 'activity') {
      const row = activityRowOf(this.rows, r);
      this.writerOf('activities', row).add(Object.values(row));
      return;
    }
    if (f.type === 'history') {
      this.history.push(r);
      return;
    }
    if (f.type === 'customObject') this.customObjects.push(r.id as string);
    const values = rowValues(f, r, this.w.workspaceId, this.sourceDefault);
    if (f.type === 'fileChunk') this.pendingBytes += (values[3] as Buffer).length;
    if (rendered) values.push(null);
    this.writerOf(f.table, undefined, f, rendered !== undefined).add(values);
  }

  /** The writer of a table: its columns from `row`'s keys, or from the line format `f`. */
  private writerOf(
    table: string,
    row?: Record<string, unknown>,
    f?: LineFormat,
    body = false,
  ): TableSink {
    let writer = this.writers.get(table);
    if (!writer) {
      const columns = row ? Object.keys(row) : rowColumns(f!, body);
      writer = this.sink.writer(
        table,
        columns,
        columns.filter((c) => c === 'body' || c === 'lead_body'),
      );
      this.writers.set(table, writer);
    }
    return writer;
  }

  /** Writes the rows kept (history lines, and every row on PostgreSQL), in line type order. */
  async flush(): Promise<void> {
    await this.writeHistory();
    for (const f of LINE_FORMATS) await this.writers.get(f.table)?.flush();
    this.pendingBytes = 0;
    // Tables whose line type ended are complete (unless a later file brings more: their rows
    // then go into the index as any insert does): their indexes are made now, each one sort.
    // Records rendered at the end are not written yet.
    for (const f of this.ended) {
      if (RENDERED[f.type] && this.renderAtInsert) continue;
      for (const statement of this.indexes.take(f.table)) await this.sink.exec(statement);
    }
    this.ended = [];
    await this.sink.drain();
  }

  /** Renders and writes the history lines kept (`renderHistoryLines`). */
  private async writeHistory(): Promise<void> {
    const lines = this.history;
    if (lines.length === 0) return;
    this.history = [];
    await renderHistoryLines(this.w, this.rows, this.facts.names, lines, (row) =>
      this.writerOf('history', row).add(Object.values(row)),
    );
  }

  /**
   * Takes a record out again (a custom Ref value of it names no record): its row is removed,
   * and what it gave the facts goes with it.
   */
  async remove(type: LineType, id: string, counted?: Counted): Promise<void> {
    // A record rendered at the end is not written yet: it is left out then.
    if (!(RENDERED[type] && this.renderAtInsert)) {
      await this.sink.delete(FORMAT_OF.get(type)!.table, id);
    }
    if (type === 'file') await this.sink.delete('file_chunks', id, 'file_id');
    this.facts.remove(type, id, counted);
  }

  /**
   * Renders the records of the import and bumps the workspace's data version: the records
   * of the file, each from the facts its lines gave, written once; then the records the
   * workspace held before, again, from the database (the file may have added to their facts).
   * Without `renderAtInsert`, renders every record of the workspace again instead. `kindOf`
   * gives the kind of each product (the workspace's and the file's).
   */
  async render(kindOf: (productId: string) => string | undefined): Promise<void> {
    if (!this.renderAtInsert) {
      for (const statement of this.indexes.takeAll()) await this.sink.exec(statement);
      this.spill.close();
      await renderImported(this.w);
      return;
    }
    const eventRows = this.sink.writer('events', EVENT_COLUMNS, []);
    await this.flush();
    const l = await this.sink.lookups();
    for (const target of ['people', 'organization', 'deal', 'product'] as const) {
      l.addNames(target, this.facts.names[target]);
    }
    const withRefs = new Map<string, CustomFieldDefinition[] | undefined>();
    const refFields = (recordType: RenderedType | 'quoteProduct') => {
      if (!withRefs.has(recordType)) {
        const defs = l.definitions(recordType);
        withRefs.set(
          recordType,
          defs.some((d) => refTargetOf(d.type) || d.type === ATTACHMENT_TYPE) ? defs : undefined,
        );
      }
      return withRefs.get(recordType);
    };
    try {
      for (const batch of this.spill.batches(CHUNK)) {
        const records: [LineFormat, RenderedType, Record<string, unknown>][] = [];
        /** The batch's rendered records by type, for the search index. */
        const stored = new Map<RenderedType, [id: string, json: string, before: null][]>();
        const targets = new Map<NamedTarget, Set<string>>();
        for (const text of batch) {
          const r = JSON.parse(text) as Record<string, unknown>;
          const f = FORMAT_OF.get(r.type as string)!;
          if (this.facts.isRemoved(f.type, r.id as string)) continue;
          const type = RENDERED[f.type]!;
          const defs = refFields(type);
          if (defs) collectRefIds(defs, r.custom as never, targets);
          const lineDefs = type === 'quote' ? refFields('quoteProduct') : undefined;
          if (lineDefs) {
            for (const custom of lineCustomsOf(this.facts, r.id as string)) {
              collectRefIds(lineDefs, JSON.parse(custom), targets);
            }
          }
          records.push([f, type, r]);
        }
        // Names of the workspace's own records that Ref values name (the file's are known).
        if (targets.size > 0) await l.ensure(targets);
        for (const [f, type, r] of records) {
          const values = rowValues(f, r, this.w.workspaceId, this.sourceDefault);
          const row: Record<string, unknown> = {};
          row.workspace_id = values[0];
          for (let i = 0; i < f.columns.length; i++) row[f.columns[i]!.name] = values[i + 1];
          const json = renderRecordJson(
            type,
            row,
            recordFactsOf(this.facts, type, row as { id: string }, l, kindOf),
            l,
          );
          values.push(json);
          this.writerOf(f.table, undefined, f, true).add(values);
          this.w.events.created(
            type,
            row.id as string,
            type === 'customObject' ? String(row.definition_id) : undefined,
          );
          const ofType = stored.get(type);
          if (ofType) ofType.push([row.id as string, json, null]);
          else stored.set(type, [[row.id as string, json, null]]);
        }
        for (const f of LINE_FORMATS) await this.writers.get(f.table)?.flush();
        // The records' rows of the search index, after the records (as `storeRendered` does).
        for (const [type, entries] of stored) {
          await indexRendered(
            this.w.store,
            this.w.trx,
            this.w.workspaceId,
            type,
            l.definitions(type),
            entries,
          );
        }
        await this.writeEvents(eventRows);
        await this.sink.drain();
      }
    } finally {
      this.spill.close();
    }
    for (const statement of this.indexes.takeAll()) await this.sink.exec(statement);
    if (this.before.size > 0) await this.sink.refresh([...this.before], this.w.events);
    const customObjects = this.customObjects.filter(
      (id) => !this.facts.isRemoved('customObject', id),
    );
    if (customObjects.length > 0) {
      await this.sink.refresh([['customObject', customObjects]], this.w.events);
    }
    await this.writeEvents(eventRows);
    await this.sink.bumpDataVersion();
  }

  /**
   * Writes the events gathered since the last batch: numbered in one step, their rows
   * handed to the sink with the records', and a delivery for each webhook that wants one.
   */
  private async writeEvents(rows: TableSink): Promise<void> {
    const events = this.w.events.drain();
    if (events.length === 0) return;
    const first = await numberEvents(this.w.trx, this.w.workspaceId, events.length);
    for (let i = 0; i < events.length; i++) {
      rows.add(eventValues(this.w.workspaceId, first + i, events[i]!));
    }
    await rows.flush();
    await fanOut(this.w.trx, this.w.workspaceId, events, first);
  }

  /** Gives up the temporary file (an import that is not committed). */
  close(): void {
    this.spill.close();
  }
}

/** Renders every record of the workspace once and bumps its data version. */
export async function renderImported(w: WorkspaceWrite): Promise<void> {
  const touched = new Touched();
  for (const type of Object.keys(TABLE_OF) as RenderedType[]) touched.markAll(type);
  await refreshTouched({
    store: w.store,
    trx: w.trx,
    workspaceId: w.workspaceId,
    touched,
    events: w.events,
  });
  await writeEvents(w.trx, w.workspaceId, w.events.drain());
  await bumpDataVersion(w.trx, w.workspaceId);
}

/** A WorkspaceWrite for an import's transaction. */
export function importWrite(store: Store, trx: Executor, workspaceId: string): WorkspaceWrite {
  const at = now();
  // The import's id names it as the source of its events.
  const actor = { source: '데이터 가져오기', sourceId: newId() } as const;
  return {
    store,
    trx,
    workspaceId,
    touched: new Touched(),
    now: at,
    events: new EventLog(actor, at),
  };
}

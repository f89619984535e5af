import type { ActivityType } from '../domain/activities.ts';
import {
  type CustomFieldDefinition,
  collectRefIds,
  type RefTarget,
  refTargetOf,
} from '../domain/custom-fields.ts';
import { uniqueKey } from '../domain/field-values.ts';
import { now } from '../domain/time.ts';
import type { RecordHistoryType } from '../render/record-history.ts';
import { activityRow } from '../resources/deal-activities/writes.ts';
import { SOURCE_IMPORT } from '../resources/owned.ts';
import { type PeopleChange, peopleHistoryRow } from '../resources/people-history/writes.ts';
import { type RecordChange, recordHistoryRow } from '../resources/record-history/writes.ts';
import { DeferredIndexes } from '../store/bulk-load.ts';
import { CHUNK, columnById } from '../store/by-id.ts';
import type { Executor, Store } from '../store/database.ts';
import {
  type RenderedType,
  refreshTouched,
  renderRecordJson,
  TABLE_OF,
} from '../store/read-model/refresh.ts';
import { bumpDataVersion, type RowContext, Touched, type WorkspaceWrite } from '../store/write.ts';
import { ImportChecks } from './import-checks.ts';
import { ImportFacts } from './import-facts.ts';
import { lineCustomsOf, recordFactsOf } from './import-record-facts.ts';
import { type ImportSink, type TableSink, TransactionSink } from './import-sink.ts';
import { LineSpill } from './line-spill.ts';
import type { LineType } from './transfer-columns.ts';
import { checkHeader, FORMAT_OF, LINE_FORMATS, type LineFormat } from './transfer-format.ts';

/** One refused line. */
export interface Reject {
  file: string;
  line: number;
  reason: string;
  /** The line as read, for the rejects file. */
  text?: string;
}

/** Rows kept before they are written (PostgreSQL; SQLite writes each row at once). */
const FLUSH_ROWS = 5_000;

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
 * The unique key the rows of a line type carry (its column, and the value it is made of):
 * the API's writes look duplicates up by it, so imported records are found as any other.
 */
const UNIQUE_KEY: Partial<Record<LineType, { column: 'email_key' | 'name_key'; of: string }>> = {
  person: { column: 'email_key', of: 'email' },
  organization: { column: 'name_key', of: 'name' },
};

/**
 * The state of one import into a workspace, inside one write transaction: what its lines are
 * checked against (`ImportChecks`: the ids each line type knows, the unique keys taken, the
 * custom field definitions), and the writers of the rows, in file order.
 *
 * Records the store keeps rendered (people, organizations, deals, leads, products, quotes)
 * are written once, rendered, after the last line: their JSON shows facts that later lines
 * bring (a person's deals, a deal's newest e-mail open, ...). Until then their checked lines
 * wait in a temporary file and what they show is gathered in `ImportFacts`. Other rows are
 * written as they come. With `renderAtInsert: false` (an import that mixes in CSV files,
 * whose rows may refer to the file's records as they are read), every record is written as
 * it comes and the workspace is rendered again at the end instead.
 */
export class NdjsonImporter {
  /** The ids, keys and definitions the lines are checked against. */
  private readonly checks = new ImportChecks();
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
  readonly counts: Record<string, number> = {};
  records = 0;
  private headerSeen = false;
  readonly renderAtInsert: boolean;
  /** Indexes dropped for the import (`useDeferredIndexes`), created as their tables fill. */
  private indexes = new DeferredIndexes();
  /** The line type of the last line, and the types whose lines ended since the last flush. */
  private lastType: LineType | undefined;
  private ended: LineFormat[] = [];

  constructor(
    readonly w: WorkspaceWrite,
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

  /** Loads what the workspace already holds: ids, unique keys, definitions. */
  async prepare(): Promise<void> {
    await this.checks.prepare(this.w, (type, rows) => {
      const rendered = RENDERED[type];
      if (rendered && rows.length > 0) {
        this.before.set(
          rendered,
          rows.map((r) => r.id),
        );
      }
    });
  }

  /** True when enough rows are buffered that the caller should `flush()` them. */
  get full(): boolean {
    if (this.sink.busy || this.ended.length > 0) return true;
    let pending = this.history.length;
    for (const writer of this.writers.values()) pending += writer.pending;
    return pending >= FLUSH_ROWS;
  }

  /**
   * Checks one NDJSON line and writes (or keeps) its row; returns the reason it is refused, or
   * undefined. Nothing of a refused line is kept. Synchronous, so a reader loop pays no
   * promise per line: it calls `flush()` when `full`.
   */
  line(file: string, lineNo: number, text: string): string | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return `not JSON: ${(error as Error).message}`;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'not a JSON object';
    const record = value as Record<string, unknown>;
    if (record.type === 'header') {
      if (!checkHeader.Check(record)) {
        const e = checkHeader.Errors(record).First();
        return `header: ${e ? `${e.path || '/'} ${e.message}` : 'invalid'}`;
      }
      if (this.headerSeen) return 'a second header line';
      this.headerSeen = true;
      return undefined;
    }
    const format = typeof record.type === 'string' ? FORMAT_OF.get(record.type) : undefined;
    if (!format) return `unknown line type ${JSON.stringify(record.type)}`;
    if (format.type !== this.lastType) {
      if (this.lastType !== undefined) this.ended.push(FORMAT_OF.get(this.lastType)!);
      this.lastType = format.type;
    }
    if (!format.check.Check(record)) {
      const e = format.check.Errors(record).First();
      return `${format.type}: ${e ? `${e.path || '/'}: ${e.message}` : 'invalid'}`;
    }
    const reason = this.checks.check(format, record, file, lineNo);
    if (reason) return `${format.type}${record.id ? ` '${record.id}'` : ''}: ${reason}`;
    this.accept(format, record, text);
    return undefined;
  }

  private accept(f: LineFormat, r: Record<string, unknown>, text: string): void {
    this.checks.accept(f, r);
    this.counts[f.type] = (this.counts[f.type] ?? 0) + 1;
    this.records++;
    let line = text;
    if (line.indexOf('\\u') >= 0 && SURROGATE_ESCAPE.test(line)) {
      if (readBackStrings(r, this.w.store.dialect)) line = JSON.stringify(r);
    }
    this.facts.add(f.type, r);
    const rendered = RENDERED[f.type];
    if (rendered && this.renderAtInsert) {
      this.spill.append(line);
      return;
    }
    if (f.type === 'activity') {
      const row = activityRow(
        this.rows,
        {
          id: r.id as string,
          subjectType: r.subject_type as 'deal',
          subjectId: r.subject_id as string,
          type: r.kind as ActivityType,
          date: r.date as string,
          dealStatus: r.deal_status as string | null,
          webFormId: r.web_form_id as string | null,
          smsId: r.sms_id as string | null,
          todoId: r.todo_id as string | null,
          memoId: r.memo_id as string | null,
          emailMessageId: r.email_message_id as string | null,
        },
        undefined,
      );
      this.writerOf('activities', row).add(Object.values(row));
      return;
    }
    if (f.type === 'history') {
      this.history.push(r);
      return;
    }
    const values = this.valuesOf(f, r);
    if (rendered) values.push(null);
    this.writerOf(f.table, undefined, f, rendered !== undefined).add(values);
  }

  /**
   * The row of a line as the table stores it: workspace, the columns in format order, then
   * its unique key if its type has one (`UNIQUE_KEY`).
   */
  private valuesOf(f: LineFormat, r: Record<string, unknown>): unknown[] {
    const columns = f.columns;
    const key = UNIQUE_KEY[f.type];
    const values: unknown[] = new Array(columns.length + (key ? 2 : 1));
    values[0] = this.w.workspaceId;
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      const v = r[c.key];
      values[i + 1] =
        v === null
          ? null
          : c.type.kind === 'bool'
            ? v
              ? 1
              : 0
            : c.type.kind === 'json'
              ? JSON.stringify(v)
              : v === undefined && c.name === 'source'
                ? this.sourceDefault
                : v;
    }
    if (key) {
      const of = r[key.of];
      values[columns.length + 1] = typeof of === 'string' ? uniqueKey(of) : null;
    }
    return values;
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
      const key = f && UNIQUE_KEY[f.type];
      const columns = row
        ? Object.keys(row)
        : [
            'workspace_id',
            ...f!.columns.map((c) => c.name),
            ...(key ? [key.column] : []),
            ...(body ? ['body'] : []),
          ];
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

  /**
   * Renders and writes the history lines kept: their JSON names the person and organization
   * of the change, from the file or, for the workspace's own, from the database.
   */
  private async writeHistory(): Promise<void> {
    const lines = this.history;
    if (lines.length === 0) return;
    this.history = [];
    const { people, organization } = this.facts.names;
    const missingPeople = new Set<string>();
    const missingOrgs = new Set<string>();
    for (const r of lines) {
      const linked = r.subject_type !== 'organization';
      const person = r.people_id as string | null;
      const org = r.organization_id as string | null;
      if (linked && person !== null && r.subject_type !== 'people' && !people.has(person)) {
        missingPeople.add(person);
      }
      if (linked && org !== null && !organization.has(org)) missingOrgs.add(org);
    }
    const { trx, workspaceId } = this.w;
    const peopleNames = await columnById<string>(trx, 'people', workspaceId, missingPeople, 'name');
    const orgNames = await columnById<string>(
      trx,
      'organizations',
      workspaceId,
      missingOrgs,
      'name',
    );
    const nameOf = (names: Map<string, string>, read: Map<string, string>, id: unknown) =>
      id === null ? '' : (names.get(id as string) ?? read.get(id as string) ?? '');
    for (const r of lines) {
      const change = {
        id: r.id as string,
        fieldName: r.field_name as string,
        fieldValue: r.field_value as string | null,
        ownerId: r.owner_id as string | null,
        createdAt: r.created_at as string,
        organizationId: r.organization_id as string | null,
      };
      const row =
        r.subject_type === 'people'
          ? peopleHistoryRow(
              this.rows,
              { ...change, peopleId: r.subject_id as string, type: r.kind as PeopleChange['type'] },
              nameOf(organization, orgNames, r.organization_id),
            )
          : recordHistoryRow(
              this.rows,
              {
                ...change,
                subjectType: r.subject_type as RecordChange['subjectType'],
                subjectId: r.subject_id as string,
                type: r.kind as RecordHistoryType,
                peopleId: r.people_id as string | null,
              },
              nameOf(people, peopleNames, r.people_id),
              nameOf(organization, orgNames, r.organization_id),
            );
      this.writerOf('history', row).add(Object.values(row));
    }
  }

  /**
   * Writes what is left and checks the custom Ref values that named records not seen yet;
   * returns those still unknown. With `removeRejected`, their records are removed again.
   */
  async finish(removeRejected: boolean): Promise<Reject[]> {
    await this.flush();
    const rejects: Reject[] = [];
    for (const d of this.checks.unresolved()) {
      rejects.push({
        file: d.file,
        line: d.line,
        reason: `${d.type} '${d.id}': '${d.field}' 필드: no ${d.to} '${d.ref}'`,
      });
      if (removeRejected) {
        // A record rendered at the end is not written yet: it is left out then.
        if (!(RENDERED[d.type] && this.renderAtInsert)) {
          await this.sink.delete(FORMAT_OF.get(d.type)!.table, d.id);
        }
        this.facts.remove(d.type, d.id, d.counted);
        this.counts[d.type]!--;
        this.records--;
      }
    }
    return rejects;
  }

  /**
   * Renders the records of the import and bumps the workspace's data version: the records
   * of the file, each from the facts its lines gave, written once; then the records the
   * workspace held before, again, from the database (the file may have added to their facts).
   * Without `renderAtInsert`, renders every record of the workspace again instead.
   */
  async render(): Promise<void> {
    if (!this.renderAtInsert) {
      for (const statement of this.indexes.takeAll()) await this.sink.exec(statement);
      this.spill.close();
      await renderImported(this.w);
      return;
    }
    await this.flush();
    const l = await this.sink.lookups();
    for (const target of ['people', 'organization', 'deal', 'product'] as const) {
      l.addNames(target, this.facts.names[target]);
    }
    const withRefs = new Map<string, CustomFieldDefinition[] | undefined>();
    const refFields = (recordType: RenderedType | 'quoteProduct') => {
      if (!withRefs.has(recordType)) {
        const defs = l.definitions(recordType);
        withRefs.set(recordType, defs.some((d) => refTargetOf(d.type)) ? defs : undefined);
      }
      return withRefs.get(recordType);
    };
    const kindOf = (productId: string) => this.checks.productKindOf(productId);
    try {
      for (const batch of this.spill.batches(CHUNK)) {
        const records: [LineFormat, RenderedType, Record<string, unknown>][] = [];
        const targets = new Map<RefTarget, Set<string>>();
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
          const values = this.valuesOf(f, r);
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
        }
        for (const f of LINE_FORMATS) await this.writers.get(f.table)?.flush();
        await this.sink.drain();
      }
    } finally {
      this.spill.close();
    }
    for (const statement of this.indexes.takeAll()) await this.sink.exec(statement);
    if (this.before.size > 0) await this.sink.refresh([...this.before]);
    await this.sink.bumpDataVersion();
  }

  /** Gives up the temporary file (an import that is not committed). */
  close(): void {
    this.spill.close();
  }
}

/** A `\u` escape of a UTF-16 surrogate, which JSON may leave unpaired. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Puts in the text columns of `r` what the store gives back for an unpaired UTF-16 surrogate
 * (SQLite: three U+FFFD, from the bytes it was written as; PostgreSQL: one), so that records
 * rendered from the line show what a rendering from the database shows. JSON columns keep
 * theirs: they are stored as JSON text, which escapes it. True if any changed.
 */
function readBackStrings(r: Record<string, unknown>, dialect: Store['dialect']): boolean {
  let changed = false;
  for (const key in r) {
    const v = r[key];
    if (typeof v === 'string' && LONE_SURROGATE.test(v)) {
      r[key] = v.replace(
        new RegExp(LONE_SURROGATE.source, 'g'),
        dialect === 'sqlite' ? '\uFFFD\uFFFD\uFFFD' : '\uFFFD',
      );
      changed = true;
    }
  }
  return changed;
}

/** Renders every record of the workspace once and bumps its data version. */
export async function renderImported(w: WorkspaceWrite): Promise<void> {
  const touched = new Touched();
  for (const type of Object.keys(TABLE_OF) as RenderedType[]) touched.markAll(type);
  await refreshTouched(w.store, w.trx, w.workspaceId, touched);
  await bumpDataVersion(w.trx, w.workspaceId);
}

/** A WorkspaceWrite for an import's transaction. */
export function importWrite(store: Store, trx: Executor, workspaceId: string): WorkspaceWrite {
  return { store, trx, workspaceId, touched: new Touched(), now: now() };
}

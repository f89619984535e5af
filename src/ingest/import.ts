import type { ActivityType } from '../domain/activities.ts';
import {
  type CustomFieldDefinition,
  type CustomFieldType,
  collectRefIds,
  type RefTarget,
  refTargetOf,
} from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { isEmailAddress, uniqueKey } from '../domain/field-values.ts';
import { isValidId } from '../domain/ids.ts';
import { now } from '../domain/time.ts';
import type { RecordHistoryType } from '../render/record-history.ts';
import { activityRow } from '../resources/deal-activities/writes.ts';
import { checkCustomValue } from '../resources/fields/field-list.ts';
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
import { IdSet } from './id-set.ts';
import { type Counted, ImportFacts } from './import-facts.ts';
import { lineCustomsOf, recordFactsOf } from './import-record-facts.ts';
import { type ImportSink, type TableSink, TransactionSink } from './import-sink.ts';
import { LineSpill } from './line-spill.ts';
import { type Column, type LineType, SUBJECT_LINE } from './transfer-columns.ts';
import {
  CUSTOM_RECORD_LINE,
  checkHeader,
  FORMAT_OF,
  LINE_FORMATS,
  type LineFormat,
  REF_TARGET_LINE,
} from './transfer-format.ts';

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
 * The columns of each line format that hold ids (its own, references, subjects, id lists):
 * the ones `check` looks up. The others are checked by the format's schema alone.
 */
const ID_COLUMNS = new Map<LineFormat, Column[]>(
  LINE_FORMATS.map((f) => [
    f,
    f.columns.filter(
      (c) =>
        c.type.kind === 'id' ||
        c.type.kind === 'ref' ||
        c.type.kind === 'subjectId' ||
        (c.type.kind === 'json' && c.type.refs !== undefined),
    ),
  ]),
);

/** A custom Ref value naming a record not seen yet: checked at the end. */
interface Deferred {
  file: string;
  line: number;
  type: LineType;
  id: string;
  field: string;
  to: LineType;
  ref: string;
  /** A deal's or lead's part in its person's and organization's counters. */
  counted?: Counted;
}

/**
 * The state of one import into a workspace, inside one write transaction: the ids each line
 * type knows (the workspace's and the file's so far), the unique keys taken, the custom
 * field definitions, and the writers of the rows, in file order.
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
  /** The ids of each line type: the workspace's, and the file's so far. */
  readonly known = new Map<LineType, IdSet>();
  /** Unique keys (`uniqueKey`) of the people's e-mails and the organizations' names taken. */
  private readonly emails = new Set<string>();
  private readonly orgNames = new Set<string>();
  private readonly fieldNames = new Set<string>();
  /** Custom field definitions by line type, by field id. */
  private readonly definitions = new Map<LineType, Map<string, CustomFieldDefinition>>();
  private readonly pipelineKind = new Map<string, string>();
  private readonly stagePipeline = new Map<string, string>();
  private readonly productKind = new Map<string, string>();
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
  private readonly deferred: Deferred[] = [];
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
    const { trx, workspaceId } = this.w;
    for (const f of LINE_FORMATS) {
      const set = new IdSet();
      this.known.set(f.type, set);
      if (f.columns[0]!.name !== 'id') continue;
      const rows = await trx
        .selectFrom(f.table as 'people')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .execute();
      for (const r of rows) set.add(r.id);
      const rendered = RENDERED[f.type];
      if (rendered && rows.length > 0) {
        this.before.set(
          rendered,
          rows.map((r) => r.id),
        );
      }
    }
    const members = await trx
      .selectFrom('team_members')
      .select(['team_id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const m of members) this.known.get('teamMember')!.add(`${m.team_id}\u0000${m.user_id}`);
    const people = await trx
      .selectFrom('people')
      .select('email_key')
      .where('workspace_id', '=', workspaceId)
      .where('email_key', 'is not', null)
      .execute();
    for (const p of people) this.emails.add(p.email_key!);
    const orgs = await trx
      .selectFrom('organizations')
      .select('name_key')
      .where('workspace_id', '=', workspaceId)
      .where('name_key', 'is not', null)
      .execute();
    for (const o of orgs) this.orgNames.add(o.name_key!);
    const fields = await trx
      .selectFrom('custom_fields')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const d of fields) this.addDefinition(d);
    const pipelines = await trx
      .selectFrom('pipelines')
      .select(['id', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const p of pipelines) this.pipelineKind.set(p.id, p.kind);
    const stages = await trx
      .selectFrom('pipeline_stages')
      .select(['id', 'pipeline_id'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const s of stages) this.stagePipeline.set(s.id, s.pipeline_id);
    const products = await trx
      .selectFrom('products')
      .select(['id', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const p of products) this.productKind.set(p.id, p.kind);
  }

  private addDefinition(d: Record<string, unknown>): void {
    const line = CUSTOM_RECORD_LINE[d.record_type as string]!;
    let defs = this.definitions.get(line);
    if (!defs) {
      defs = new Map();
      this.definitions.set(line, defs);
    }
    defs.set(d.id as string, {
      id: d.id as string,
      recordType: d.record_type as never,
      name: d.name as string,
      type: (d.kind ?? d.type) as CustomFieldType,
      required: d.required === 1 || d.required === true,
      options: typeof d.options === 'string' ? JSON.parse(d.options) : (d.options as never),
    });
    this.fieldNames.add(`${d.record_type}\u0000${d.name}`);
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
    const reason = this.check(format, record, file, lineNo);
    if (reason) return `${format.type}${record.id ? ` '${record.id}'` : ''}: ${reason}`;
    this.accept(format, record, text);
    return undefined;
  }

  /** The rules of the API writes that apply to a stored row, and references. */
  private check(
    f: LineFormat,
    r: Record<string, unknown>,
    file: string,
    lineNo: number,
  ): string | undefined {
    const known = this.known;
    for (const c of ID_COLUMNS.get(f)!) {
      const v = r[c.key];
      if (v === null) continue;
      const t = c.type;
      if (t.kind === 'id') {
        if (!isValidId(v)) return `'${c.name}' is not a valid id: ${JSON.stringify(v)}`;
        if (known.get(f.type)!.has(v as string)) return `duplicate id '${v}'`;
      } else if (t.kind === 'ref') {
        if (!known.get(t.to)!.has(v as string)) return `'${c.name}': no ${t.to} '${v}'`;
      } else if (t.kind === 'subjectId') {
        const to = SUBJECT_LINE[r.subject_type as keyof typeof SUBJECT_LINE];
        if (!known.get(to)!.has(v as string)) return `'${c.name}': no ${to} '${v}'`;
      } else if (t.kind === 'json' && t.refs) {
        for (const ref of v as string[]) {
          if (!known.get(t.refs)!.has(ref)) return `'${c.name}': no ${t.refs} '${ref}'`;
        }
      }
    }
    if (r.custom !== undefined) {
      const reason = this.checkCustom(f, r, file, lineNo);
      if (reason) return reason;
    }
    switch (f.type) {
      case 'teamMember':
        if (known.get('teamMember')!.has(`${r.team_id}\u0000${r.user_id}`))
          return `user '${r.user_id}' is in team '${r.team_id}' already`;
        break;
      case 'user':
        if (!isEmailAddress(r.email as string)) return `'email' is not an e-mail address`;
        break;
      case 'person': {
        const email = r.email as string | null;
        if (email !== null) {
          if (!isEmailAddress(email)) return `'email' is not an e-mail address: '${email}'`;
          if (this.emails.has(uniqueKey(email)))
            return `이미 같은 이메일의 고객이 있습니다: '${email}'`;
        }
        break;
      }
      case 'organization':
        if (this.orgNames.has(uniqueKey(r.name as string)))
          return `이미 같은 이름의 회사가 있습니다: '${r.name}'`;
        if (r.email !== null && !isEmailAddress(r.email as string))
          return `'email' is not an e-mail address`;
        break;
      case 'customField': {
        if (this.fieldNames.has(`${r.record_type}\u0000${r.name}`))
          return `a ${r.record_type} field named '${r.name}' exists`;
        const select = r.kind === 'singleSelect' || r.kind === 'multiSelect';
        if (select !== (r.options !== null))
          return `'options' is for select fields only, and required there`;
        break;
      }
      case 'deal':
      case 'lead': {
        if (r.pipeline_id !== null && this.pipelineKind.get(r.pipeline_id as string) !== f.type)
          return `'pipeline_id': '${r.pipeline_id}' is not a ${f.type} pipeline`;
        if (r.stage_id !== null && this.stagePipeline.get(r.stage_id as string) !== r.pipeline_id)
          return `'stage_id': '${r.stage_id}' is not a stage of pipeline '${r.pipeline_id}'`;
        break;
      }
      case 'quote':
        if ((r.deal_id === null) === (r.lead_id === null))
          return `'deal_id'와 'lead_id' 중 정확히 하나가 있어야 합니다.`;
        break;
      case 'quoteLine': {
        const kind = this.productKind.get(r.product_id as string);
        const scheduled = r.payment_count !== null || r.payment_start_at !== null;
        if (kind === '일반' && scheduled)
          return `'일반' 상품에는 'payment_count', 'payment_start_at'을 보낼 수 없습니다.`;
        if (kind !== '일반' && (r.payment_count === null || r.payment_start_at === null))
          return `'${kind}' 상품에는 'payment_count'와 'payment_start_at'이 필요합니다.`;
        break;
      }
    }
    return undefined;
  }

  /** Custom values: fields of this record type, values as the API takes them. */
  private checkCustom(
    f: LineFormat,
    r: Record<string, unknown>,
    file: string,
    lineNo: number,
  ): string | undefined {
    const defs = this.definitions.get(f.type);
    const custom = r.custom as Record<string, unknown>;
    for (const key in custom) {
      const def = defs?.get(key);
      if (!def) return `'custom': no ${f.type} field with id '${key}'`;
      const value = custom[key];
      try {
        checkCustomValue(def, value);
      } catch (error) {
        if (error instanceof DomainError) return `'custom': ${error.message}`;
        throw error;
      }
      const target = refTargetOf(def.type);
      if (target && value !== null) {
        const to = REF_TARGET_LINE[target.target]!;
        for (const ref of Array.isArray(value) ? value : [value]) {
          if (!this.known.get(to)!.has(ref as string)) {
            this.deferred.push({
              file,
              line: lineNo,
              type: f.type,
              id: r.id as string,
              field: def.name,
              to,
              ref,
              counted:
                f.type === 'deal' || f.type === 'lead'
                  ? {
                      people_id: r.people_id as string | null,
                      organization_id: r.organization_id as string | null,
                      outcome: r.outcome as string | undefined,
                    }
                  : undefined,
            });
          }
        }
      }
    }
    for (const def of defs?.values() ?? []) {
      if (def.required && (custom[def.id] === undefined || custom[def.id] === null))
        return `'${def.name}' 필드는 필수입니다.`;
    }
    return undefined;
  }

  private accept(f: LineFormat, r: Record<string, unknown>, text: string): void {
    if (typeof r.id === 'string') this.known.get(f.type)!.add(r.id);
    switch (f.type) {
      case 'person':
        if (r.email) this.emails.add(uniqueKey(r.email as string));
        break;
      case 'organization':
        this.orgNames.add(uniqueKey(r.name as string));
        break;
      case 'customField':
        this.addDefinition(r);
        break;
      case 'pipeline':
        this.pipelineKind.set(r.id as string, r.kind as string);
        break;
      case 'pipelineStage':
        this.stagePipeline.set(r.id as string, r.pipeline_id as string);
        break;
      case 'product':
        this.productKind.set(r.id as string, r.kind as string);
        break;
      case 'teamMember':
        this.known.get('teamMember')!.add(`${r.team_id}\u0000${r.user_id}`);
        break;
    }
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
    const removed = new Set<string>();
    for (const d of this.deferred) {
      if (this.known.get(d.to)!.has(d.ref)) continue;
      const key = `${d.type}\u0000${d.id}`;
      if (removed.has(key)) continue;
      removed.add(key);
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
    const kindOf = (productId: string) => this.productKind.get(productId);
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

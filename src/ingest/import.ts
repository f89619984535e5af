import type { CustomFieldDefinition, CustomFieldType } from '../domain/custom-fields.ts';
import { refTargetOf } from '../domain/custom-fields.ts';
import { isEmailAddress } from '../domain/field-values.ts';
import { isValidId } from '../domain/ids.ts';
import { now } from '../domain/time.ts';
import type { ActivityType } from '../resources/deal-activities/render.ts';
import { insertActivities, type NewActivity } from '../resources/deal-activities/writes.ts';
import { checkCustomValue } from '../resources/fields/field-list.ts';
import { SOURCE_IMPORT } from '../resources/owned.ts';
import { type PeopleChange, recordPeopleHistory } from '../resources/people-history/writes.ts';
import type { RecordHistoryType } from '../resources/record-history/render.ts';
import { type RecordChange, recordHistory } from '../resources/record-history/writes.ts';
import { ApiError } from '../server/errors.ts';
import type { Executor, Store } from '../store/database.ts';
import { type RenderedType, refreshTouched, TABLE_OF } from '../store/read-model/refresh.ts';
import { bumpDataVersion, insertMany, Touched, type WorkspaceWrite } from '../store/write.ts';
import {
  CUSTOM_RECORD_LINE,
  checkHeader,
  FORMAT_OF,
  LINE_FORMATS,
  type LineFormat,
  type LineType,
  REF_TARGET_LINE,
  SUBJECT_LINE,
} from './transfer-format.ts';

/** One refused line. */
export interface Reject {
  file: string;
  line: number;
  reason: string;
  /** The line as read, for the rejects file. */
  text?: string;
}

/** Rows buffered before they are written. */
const FLUSH_ROWS = 5_000;

/**
 * The state of one import into a workspace, inside one write transaction: the ids each line
 * type knows (the workspace's and the file's so far), the unique keys taken, the custom
 * field definitions, and rows waiting to be written in file order.
 */
export class NdjsonImporter {
  readonly known = new Map<LineType, Set<string>>();
  private readonly emails = new Set<string>();
  private readonly orgNames = new Set<string>();
  private readonly fieldNames = new Set<string>();
  /** Custom field definitions by line type, by field id. */
  private readonly definitions = new Map<LineType, Map<string, CustomFieldDefinition>>();
  private readonly pipelineKind = new Map<string, string>();
  private readonly stagePipeline = new Map<string, string>();
  private readonly productKind = new Map<string, string>();
  private readonly buffers = new Map<LineType, Record<string, unknown>[]>();
  private buffered = 0;
  private activities: NewActivity[] = [];
  private peopleHistory: PeopleChange[] = [];
  private recordChanges: RecordChange[] = [];
  /** Custom Ref values naming records not seen yet: checked at the end. */
  private readonly deferred: {
    file: string;
    line: number;
    type: LineType;
    id: string;
    field: string;
    to: LineType;
    ref: string;
  }[] = [];
  readonly counts: Record<string, number> = {};
  records = 0;
  private headerSeen = false;

  constructor(
    readonly w: WorkspaceWrite,
    private readonly sourceDefault: string = SOURCE_IMPORT,
  ) {}

  /** Loads what the workspace already holds: ids, unique keys, definitions. */
  async prepare(): Promise<void> {
    const { trx, workspaceId } = this.w;
    for (const f of LINE_FORMATS) {
      const set = new Set<string>();
      this.known.set(f.type, set);
      this.buffers.set(f.type, []);
      if (f.columns[0]!.name !== 'id') continue;
      const rows = await trx
        .selectFrom(f.table as 'people')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .execute();
      for (const r of rows) set.add(r.id);
    }
    const members = await trx
      .selectFrom('team_members')
      .select(['team_id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const m of members) this.known.get('teamMember')!.add(`${m.team_id}\u0000${m.user_id}`);
    const people = await trx
      .selectFrom('people')
      .select('email')
      .where('workspace_id', '=', workspaceId)
      .where('email', 'is not', null)
      .execute();
    for (const p of people) this.emails.add(p.email!.toLowerCase());
    const orgs = await trx
      .selectFrom('organizations')
      .select('name')
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const o of orgs) this.orgNames.add(o.name);
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
    return this.buffered >= FLUSH_ROWS;
  }

  /**
   * Checks one NDJSON line and buffers its row; returns the reason it is refused, or
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
    if (!format.check.Check(record)) {
      const e = format.check.Errors(record).First();
      return `${format.type}: ${e ? `${e.path || '/'}: ${e.message}` : 'invalid'}`;
    }
    const reason = this.check(format, record, file, lineNo);
    if (reason) return `${format.type}${record.id ? ` '${record.id}'` : ''}: ${reason}`;
    this.accept(format, record);
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
    for (const c of f.columns) {
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
          if (this.emails.has(email.toLowerCase()))
            return `이미 같은 이메일의 고객이 있습니다: '${email}'`;
        }
        break;
      }
      case 'organization':
        if (this.orgNames.has(r.name as string))
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
        if (error instanceof ApiError) return `'custom': ${error.message}`;
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

  private accept(f: LineFormat, r: Record<string, unknown>): void {
    if (typeof r.id === 'string') this.known.get(f.type)!.add(r.id);
    switch (f.type) {
      case 'person':
        if (r.email) this.emails.add((r.email as string).toLowerCase());
        break;
      case 'organization':
        this.orgNames.add(r.name as string);
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
    this.buffered++;
    if (f.type === 'activity') {
      this.activities.push({
        id: r.id as string,
        subjectType: r.subject_type as NewActivity['subjectType'],
        subjectId: r.subject_id as string,
        type: r.kind as ActivityType,
        date: r.date as string,
        dealStatus: r.deal_status as string | null,
        webFormId: r.web_form_id as string | null,
        smsId: r.sms_id as string | null,
        todoId: r.todo_id as string | null,
        memoId: r.memo_id as string | null,
        emailMessageId: r.email_message_id as string | null,
      });
      return;
    }
    if (f.type === 'history') {
      const change = {
        id: r.id as string,
        fieldName: r.field_name as string,
        fieldValue: r.field_value as string | null,
        ownerId: r.owner_id as string | null,
        createdAt: r.created_at as string,
        organizationId: r.organization_id as string | null,
      };
      if (r.subject_type === 'people') {
        this.peopleHistory.push({
          ...change,
          peopleId: r.subject_id as string,
          type: r.kind as PeopleChange['type'],
        });
      } else {
        this.recordChanges.push({
          ...change,
          subjectType: r.subject_type as RecordChange['subjectType'],
          subjectId: r.subject_id as string,
          type: r.kind as RecordHistoryType,
          peopleId: r.people_id as string | null,
        });
      }
      return;
    }
    const row: Record<string, unknown> = { workspace_id: this.w.workspaceId };
    for (const c of f.columns) {
      const v = r[c.key];
      row[c.name] =
        v === null
          ? null
          : c.type.kind === 'bool'
            ? v
              ? 1
              : 0
            : c.type.kind === 'json'
              ? JSON.stringify(v)
              : v;
    }
    if ('source' in row && r.source === undefined) row.source = this.sourceDefault;
    if (f.type in RENDERED_LINES) row.body = null;
    this.buffers.get(f.type)!.push(row);
  }

  /** Writes the buffered rows, in file order of their types. */
  async flush(): Promise<void> {
    for (const f of LINE_FORMATS) {
      const rows = this.buffers.get(f.type)!;
      if (rows.length === 0) continue;
      await insertMany(this.w.trx, f.table, rows);
      rows.length = 0;
    }
    if (this.activities.length > 0) await insertActivities(this.w, this.activities);
    if (this.peopleHistory.length > 0) await recordPeopleHistory(this.w, this.peopleHistory);
    if (this.recordChanges.length > 0) await recordHistory(this.w, this.recordChanges);
    this.activities = [];
    this.peopleHistory = [];
    this.recordChanges = [];
    this.buffered = 0;
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
        const table = FORMAT_OF.get(d.type)!.table;
        await this.w.trx
          .deleteFrom(table as 'people')
          .where('workspace_id', '=', this.w.workspaceId)
          .where('id', '=', d.id)
          .execute();
        this.counts[d.type]!--;
        this.records--;
      }
    }
    return rejects;
  }
}

const RENDERED_LINES = {
  person: 1,
  organization: 1,
  deal: 1,
  lead: 1,
  product: 1,
  quote: 1,
} as const;

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

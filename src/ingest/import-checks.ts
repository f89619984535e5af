/**
 * Checking an import's lines against the rules of the API writes and their references, with
 * what the workspace and the file's lines so far hold.
 */
import {
  ATTACHMENT_TYPE,
  type CustomFieldDefinition,
  type CustomFieldType,
  NO_ATTACHMENT_RECORD_TYPES,
  refTargetOf,
} from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { isEmailAddress, uniqueKey } from '../domain/field-values.ts';
import { FORMULA_RESULT_TYPES, FormulaError, parseFormula } from '../domain/formulas.ts';
import { isValidId } from '../domain/ids.ts';
import { checkCustomValue } from '../resources/fields/field-list.ts';
import { CHUNK_BYTES } from '../resources/files/writes.ts';
import type { WorkspaceWrite } from '../store/write.ts';
import { IdSet } from './id-set.ts';
import type { Counted } from './import-facts.ts';
import { type Column, type LineType, SUBJECT_LINE } from './transfer-columns.ts';
import {
  CUSTOM_RECORD_LINE,
  LINE_FORMATS,
  type LineFormat,
  REF_TARGET_LINE,
} from './transfer-format.ts';

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
export interface Deferred {
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

/** A file of the import whose chunks are being read: where its line is, and what came so far. */
interface FileProgress {
  file: string;
  line: number;
  size: number;
  chunkCount: number;
  /** Chunks read, and their bytes. */
  chunks: number;
  bytes: number;
  /** Bytes of the last chunk read: only the last one may be shorter than `CHUNK_BYTES`. */
  last: number;
}

/** A file of the import whose chunks do not add up to it: refused at the end. */
export interface IncompleteFile {
  file: string;
  line: number;
  id: string;
  reason: string;
  /** Its chunks written. */
  chunks: number;
}

/**
 * What an import into a workspace knows, inside its write transaction: the ids each line
 * type knows (the workspace's and the file's so far), the unique keys taken, the custom
 * field definitions, pipelines, stages and product kinds; and the lines' checks against it.
 */
export class ImportChecks {
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
  private readonly deferred: Deferred[] = [];
  /** Custom object definitions: names taken, and each one's pipeline. */
  private readonly definitionNames = new Set<string>();
  private readonly definitionPipeline = new Map<string, string | null>();
  /** `RecordId`s taken, by definition (`definition\0number`). */
  private readonly recordNumbers = new Set<string>();
  /** Idempotency keys of the e-mails. */
  private readonly emailKeys = new Set<string>();
  /** The files recordings hold (one recording a file). */
  private readonly recordingFiles = new Set<string>();
  /** The import's files, by id, as their chunks are read. */
  private readonly files = new Map<string, FileProgress>();

  /**
   * Loads what the workspace already holds: ids, unique keys, definitions. `idsRead` sees the
   * rows of each table whose lines have ids, as read.
   */
  async prepare(
    w: WorkspaceWrite,
    idsRead: (type: LineType, rows: { id: string }[]) => void,
  ): Promise<void> {
    const { trx, workspaceId } = w;
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
      idsRead(f.type, rows);
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
    const definitions = await trx
      .selectFrom('custom_object_definitions')
      .select(['id', 'name', 'pipeline_id'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const d of definitions) {
      this.definitionNames.add(d.name);
      this.definitionPipeline.set(d.id, d.pipeline_id);
    }
    const numbers = await trx
      .selectFrom('custom_objects')
      .select(['definition_id', 'record_number'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const o of numbers) this.recordNumbers.add(`${o.definition_id}\u0000${o.record_number}`);
    const keys = await trx
      .selectFrom('emails')
      .select('idempotency_key')
      .where('workspace_id', '=', workspaceId)
      .where('idempotency_key', 'is not', null)
      .execute();
    for (const e of keys) this.emailKeys.add(e.idempotency_key!);
    const held = await trx
      .selectFrom('recordings')
      .select('file_id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    for (const r of held) this.recordingFiles.add(r.file_id);
  }

  private addDefinition(d: Record<string, unknown>): void {
    const line = CUSTOM_RECORD_LINE[d.record_type as string]!;
    let defs = this.definitions.get(line);
    if (!defs) {
      defs = new Map();
      this.definitions.set(line, defs);
    }
    const definitionId = (d.custom_object_definition_id as string | undefined) ?? '';
    defs.set(d.id as string, {
      id: d.id as string,
      recordType: d.record_type as never,
      name: d.name as string,
      type: (d.kind ?? d.type) as CustomFieldType,
      required: d.required === 1 || d.required === true,
      options: typeof d.options === 'string' ? JSON.parse(d.options) : (d.options as never),
      ...(definitionId !== '' ? { customObjectDefinitionId: definitionId } : {}),
      ...(typeof d.formula === 'string' ? { formula: d.formula } : {}),
    });
    this.fieldNames.add(fieldNameKey(d.record_type as string, definitionId, d.name as string));
  }

  /** The rules of the API writes that apply to a stored row, and references. */
  check(
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
        if (r.subject_type === null) return `'${c.name}' without 'subject_type'`;
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
          if (this.emails.has(uniqueKey(email))) return `이미 존재하는 이메일입니다: '${email}'`;
        }
        break;
      }
      case 'organization':
        if (this.orgNames.has(uniqueKey(r.name as string)))
          return `이미 존재하는 이름입니다: '${r.name}'`;
        if (r.email !== null && !isEmailAddress(r.email as string))
          return `'email' is not an e-mail address`;
        break;
      case 'customField': {
        const definitionId = (r.custom_object_definition_id as string | undefined) ?? '';
        if (r.record_type === 'customObject') {
          if (!this.definitionPipeline.has(definitionId))
            return `'custom_object_definition_id': no customObjectDefinition '${definitionId}'`;
        } else if (definitionId !== '') {
          return `'custom_object_definition_id' is for customObject fields only`;
        }
        if (
          this.fieldNames.has(fieldNameKey(r.record_type as string, definitionId, r.name as string))
        )
          return `a ${r.record_type} field named '${r.name}' exists`;
        if (r.kind === ATTACHMENT_TYPE && NO_ATTACHMENT_RECORD_TYPES.has(r.record_type as string))
          return `a ${r.record_type} field cannot be ${ATTACHMENT_TYPE} (files)`;
        const select = r.kind === 'singleSelect' || r.kind === 'multiSelect';
        if (select !== (r.options !== null))
          return `'options' is for select fields only, and required there`;
        if (r.formula != null) return checkFormulaField(r);
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
      case 'customObjectDefinition':
        if (this.definitionNames.has(r.name as string))
          return `같은 이름의 커스텀 객체 정의가 이미 있습니다: '${r.name}'`;
        if (
          r.pipeline_id !== null &&
          this.pipelineKind.get(r.pipeline_id as string) !== 'customObject'
        )
          return `'pipeline_id': '${r.pipeline_id}' is not a customObject pipeline`;
        break;
      case 'customObject': {
        const pipeline = this.definitionPipeline.get(r.definition_id as string) ?? null;
        if (r.pipeline_id !== null && r.pipeline_id !== pipeline)
          return `'pipeline_id': '${r.pipeline_id}' is not the pipeline of definition '${r.definition_id}'`;
        if (r.stage_id !== null && r.pipeline_id === null)
          return `'stage_id' without 'pipeline_id'`;
        if (r.stage_id !== null && this.stagePipeline.get(r.stage_id as string) !== r.pipeline_id)
          return `'stage_id': '${r.stage_id}' is not a stage of pipeline '${r.pipeline_id}'`;
        if (this.recordNumbers.has(`${r.definition_id}\u0000${r.record_number}`))
          return `'record_number' ${r.record_number} is taken in definition '${r.definition_id}'`;
        break;
      }
      case 'file':
        if (r.subject_type !== null && r.subject_id === null)
          return `'subject_type' without 'subject_id'`;
        if (r.chunk_count !== Math.ceil((r.size as number) / CHUNK_BYTES))
          return `'chunk_count' ${r.chunk_count} does not hold 'size' ${r.size} in chunks of ${CHUNK_BYTES} bytes`;
        break;
      case 'fileChunk':
        return this.checkChunk(r);
      case 'email':
        if (r.idempotency_key !== null && this.emailKeys.has(r.idempotency_key as string))
          return `'idempotency_key' '${r.idempotency_key}' is another e-mail's`;
        break;
      case 'recording':
        if (this.recordingFiles.has(r.file_id as string))
          return `'file_id' '${r.file_id}' is another recording's`;
        break;
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

  /**
   * A chunk of a file: of a file of this import, next in order (from 0), every one but the
   * last full, its bytes base64 as the export writes it, none past the file's size.
   */
  private checkChunk(r: Record<string, unknown>): string | undefined {
    const id = r.file_id as string;
    const progress = this.files.get(id);
    if (!progress) return `file '${id}' is not in this import: its bytes are complete`;
    const seq = r.seq as number;
    if (seq !== progress.chunks)
      return `chunk ${seq} of file '${id}' where chunk ${progress.chunks} was due: chunks come in order from 0`;
    if (seq >= progress.chunkCount)
      return `chunk ${seq} of file '${id}', which has ${progress.chunkCount} chunks`;
    if (seq > 0 && progress.last !== CHUNK_BYTES)
      return `chunk ${seq} of file '${id}' follows a chunk of ${progress.last} bytes: only the last may be shorter than ${CHUNK_BYTES}`;
    const data = r.data as string;
    const bytes = Buffer.from(data, 'base64');
    if (bytes.toString('base64') !== data) return `'data' of chunk ${seq} is not base64`;
    if (bytes.length === 0) return `chunk ${seq} of file '${id}' is empty`;
    if (bytes.length > CHUNK_BYTES)
      return `chunk ${seq} of file '${id}' holds ${bytes.length} bytes: at most ${CHUNK_BYTES}`;
    if (progress.bytes + bytes.length > progress.size)
      return `chunk ${seq} of file '${id}' goes past its size, ${progress.size} bytes`;
    return undefined;
  }

  /** Custom values: fields of this record type, values as the API takes them. */
  private checkCustom(
    f: LineFormat,
    r: Record<string, unknown>,
    file: string,
    lineNo: number,
  ): string | undefined {
    const all = this.definitions.get(f.type);
    // A custom object shows the fields of its definition only.
    const defs =
      f.type === 'customObject' && all
        ? new Map([...all].filter(([, d]) => d.customObjectDefinitionId === r.definition_id))
        : all;
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
      const to = target
        ? REF_TARGET_LINE[target.target]!
        : def.type === ATTACHMENT_TYPE
          ? 'file'
          : undefined;
      if (to && value !== null) {
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

  /** Takes in what an accepted line adds: its id, unique key, definition, pipeline, stage or kind. */
  accept(f: LineFormat, r: Record<string, unknown>, file = '', lineNo = 0): void {
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
      case 'customObjectDefinition':
        this.definitionNames.add(r.name as string);
        this.definitionPipeline.set(r.id as string, r.pipeline_id as string | null);
        break;
      case 'customObject':
        this.recordNumbers.add(`${r.definition_id}\u0000${r.record_number}`);
        break;
      case 'email':
        if (r.idempotency_key !== null) this.emailKeys.add(r.idempotency_key as string);
        break;
      case 'recording':
        this.recordingFiles.add(r.file_id as string);
        break;
      case 'file':
        this.files.set(r.id as string, {
          file,
          line: lineNo,
          size: r.size as number,
          chunkCount: r.chunk_count as number,
          chunks: 0,
          bytes: 0,
          last: 0,
        });
        break;
      case 'fileChunk': {
        const progress = this.files.get(r.file_id as string)!;
        // Base64's length gives the bytes: 3 per 4 characters, less the padding.
        const data = r.data as string;
        const size = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
        progress.chunks++;
        progress.bytes += size;
        progress.last = size;
        break;
      }
    }
  }

  /** The import's files whose chunks, once every line is read, do not make the whole file. */
  incompleteFiles(): IncompleteFile[] {
    const incomplete: IncompleteFile[] = [];
    for (const [id, p] of this.files) {
      if (p.chunks === p.chunkCount && p.bytes === p.size) continue;
      incomplete.push({
        file: p.file,
        line: p.line,
        id,
        reason: `file '${id}': its chunks hold ${p.chunks} of ${p.chunkCount} chunks, ${p.bytes} of ${p.size} bytes`,
        chunks: p.chunks,
      });
    }
    return incomplete;
  }

  /** The kind of a product: the workspace's or the file's. */
  productKindOf(productId: string): string | undefined {
    return this.productKind.get(productId);
  }

  /**
   * The custom Ref values that still name no record, the first of each record only (its
   * line is refused once), in line order.
   */
  unresolved(): Deferred[] {
    const unresolved: Deferred[] = [];
    const seen = new Set<string>();
    for (const d of this.deferred) {
      if (this.known.get(d.to)!.has(d.ref)) continue;
      const key = `${d.type}\u0000${d.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      unresolved.push(d);
    }
    return unresolved;
  }
}

/**
 * A formula field as the API makes it (`checkNewFormula`): of a result type, not required,
 * not in the create form, not kept unique, and a formula that parses. Its references are
 * not checked: a field it names may come later in the file, and one it does not find reads
 * as null.
 */
function checkFormulaField(r: Record<string, unknown>): string | undefined {
  if (!(FORMULA_RESULT_TYPES as readonly unknown[]).includes(r.kind))
    return `'formula' on a ${r.kind} field: a formula field's type is its result's (${FORMULA_RESULT_TYPES.join(', ')})`;
  for (const key of ['required', 'show_in_create_form', 'prevent_duplicates'] as const) {
    if (r[key] === true || r[key] === 1) return `'${key}' on a formula field`;
  }
  try {
    parseFormula(r.formula as string);
  } catch (error) {
    if (error instanceof FormulaError)
      return `'formula' at character ${error.position}: ${error.message}`;
    throw error;
  }
  return undefined;
}

/** The key of a custom field's name: unique per record type and custom object definition. */
function fieldNameKey(recordType: string, definitionId: string, name: string): string {
  return `${recordType}\u0000${definitionId}\u0000${name}`;
}

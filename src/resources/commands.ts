/**
 * What the write operations of every resource share: body schema parts, the lookups of
 * records a body refers to, notes and `create` activities, and the change set that turns
 * an update into column changes and history rows.
 */
import { sql } from 'kysely';
import type {
  CustomFieldDefinition,
  CustomFieldRecordType,
  StoredCustomValues,
} from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { uniqueKey, valueAsText } from '../domain/field-values.ts';
import type { SubjectType } from '../model/tables.ts';
import { type RenderedType, TABLE_OF } from '../store/read-model/rendered-types.ts';
import type { WorkspaceWrite } from '../store/write.ts';
import { insertActivities, insertCreateActivities } from './deal-activities/writes.ts';
import { checkRequired, type FieldListItem, resolveFieldList } from './fields/field-list.ts';
import { insertNotes, type NewNote } from './notes/writes.ts';

/** Body-typed fieldList items. */
export type FieldListInput = readonly FieldListItem[] | undefined;

const RECORDS = {
  people: { table: 'people', label: '고객', object: '고객을' },
  organization: { table: 'organizations', label: '회사', object: '회사를' },
  deal: { table: 'deals', label: '딜', object: '딜을' },
  lead: { table: 'leads', label: '리드', object: '리드를' },
  product: { table: 'products', label: '상품', object: '상품을' },
  quote: { table: 'quotes', label: '견적서', object: '견적서를' },
  customObject: { table: 'custom_objects', label: '커스텀 오브젝트', object: '커스텀 오브젝트를' },
} as const;
type RecordKind = keyof typeof RECORDS;

/**
 * The row of a record the body refers to (`peopleId`, `dealId`, ...); a record that is not
 * in this workspace is a 400 naming the key.
 */
export async function referencedRecord<K extends RecordKind>(
  w: WorkspaceWrite,
  kind: K,
  id: string,
  key: string,
) {
  const row = await findRecord(w, kind, id);
  if (!row) throw notReferenced(kind, id, key);
  return row;
}

/**
 * Checks that the record a body refers to is in this workspace (a 400 naming the key if
 * not), reading its id only: most links need no more of it.
 */
export async function checkReferenced(
  w: WorkspaceWrite,
  kind: RecordKind,
  id: string,
  key: string,
): Promise<void> {
  const row = await recordById(w, kind, id).select('id').executeTakeFirst();
  if (!row) throw notReferenced(kind, id, key);
}

function notReferenced(kind: RecordKind, id: string, key: string): DomainError {
  return new DomainError(
    'invalid_body',
    `'${key}': 이 워크스페이스에 없는 ${RECORDS[kind].label} id입니다: '${id.slice(0, 100)}'`,
  );
}

/** The record a path names; not in this workspace is a 404. */
export async function pathRecord<K extends RecordKind>(w: WorkspaceWrite, kind: K, id: string) {
  const row = await findRecord(w, kind, id);
  if (!row) {
    throw new DomainError('not_found', `${RECORDS[kind].object} 찾을 수 없습니다: '${id}'`);
  }
  w.events.markDirect(kind, id);
  return row;
}

async function findRecord<K extends RecordKind>(w: WorkspaceWrite, kind: K, id: string) {
  return recordById(w, kind, id).selectAll().executeTakeFirst() as Promise<
    Record<string, unknown> | undefined
  >;
}

/** The query of a record of this workspace by id, its columns yet to choose. */
function recordById(w: WorkspaceWrite, kind: RecordKind, id: string) {
  return w.trx
    .selectFrom(RECORDS[kind].table as 'people')
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id);
}

/**
 * The subjects whose activities are listed (docs/decisions.md, Activities and history): `create`
 * and `memoCreate` apply.
 */
const ACTIVITY_SUBJECTS = new Set<SubjectType>([
  'people',
  'organization',
  'deal',
  'lead',
  'customObject',
]);

/**
 * Records that a record was created through the API: its `create` activity (docs/decisions.md,
 * Activities and history), with a new deal's outcome (`dealStatus`).
 */
export async function recordCreated(
  w: WorkspaceWrite,
  subjectType: SubjectType,
  subjectId: string,
  dealStatus?: string,
): Promise<void> {
  w.events.markDirect(subjectType, subjectId);
  if (!ACTIVITY_SUBJECTS.has(subjectType)) return;
  await insertCreateActivities(w, [
    { subjectType: subjectType as 'deal', subjectId, type: 'create', date: w.now, dealStatus },
  ]);
}

/**
 * Adds a body's `memo` as a note on the record, by the acting user, with its activity
 * (`typeId`: the note's type, from `POST /v2/{type}/{id}/memo`); answers the note's id.
 */
export async function addMemo(
  w: WorkspaceWrite,
  subjectType: SubjectType,
  subjectId: string,
  text: string | null | undefined,
  authorId: string,
  typeId?: string,
  /** What a note written through its own path may have beside its text. */
  more: Pick<NewNote, 'htmlBody' | 'parentId' | 'todoId'> = {},
): Promise<string | undefined> {
  if (text === undefined || text === null) return undefined;
  const [memoId] = await insertNotes(w, [
    { subjectType, subjectId, text, authorId, typeId, ...more },
  ]);
  if (ACTIVITY_SUBJECTS.has(subjectType)) {
    await insertActivities(w, [
      { subjectType: subjectType as 'deal', subjectId, type: 'memoCreate', memoId, date: w.now },
    ]);
  }
  return memoId;
}

/** A create's `fieldList`, checked: its fixed values by name, its owner and its custom values. */
export interface CreateFields {
  /** A built-in field's value (null when not given). */
  value<T = never>(name: string): T;
  /** `담당자`: the acting user unless the body names another (or null). */
  ownerId: string | null;
  custom: StoredCustomValues;
  /**
   * The given built-in fields that have a column in `columns` (`fieldListColumns` of the record
   * type's declaration), by column, as the columns hold them (`toColumn`); `담당자` is `ownerId`.
   */
  columns(columns: Readonly<Record<string, string>>): Record<string, unknown>;
}

/** Checks a create's `fieldList` against the record type's fields, required ones included. */
export async function fieldsOnCreate(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  fieldList: FieldListInput,
  actorId: string,
): Promise<CreateFields> {
  const fields = await resolveFieldList(w, recordType, fieldList);
  checkRequired(fields, undefined);
  return {
    value: <T>(name: string) => (fields.fixed.get(name) ?? null) as T,
    ownerId: fields.fixed.has('담당자') ? (fields.fixed.get('담당자') as string | null) : actorId,
    custom: customOnCreate(fields.custom),
    columns: (columns) => {
      const out: Record<string, unknown> = {};
      for (const [name, value] of fields.fixed) {
        const column = columns[name];
        if (column !== undefined && column !== 'owner_id') out[column] = toColumn(value);
      }
      return out;
    },
  };
}

/**
 * What follows every create: its `create` activity and the body's note; `dealStatus` is a
 * new deal's outcome.
 */
export async function afterCreate(
  w: WorkspaceWrite,
  subjectType: SubjectType,
  id: string,
  memo: string | null | undefined,
  actorId: string,
  dealStatus?: string,
): Promise<void> {
  await recordCreated(w, subjectType, id, dealStatus);
  await addMemo(w, subjectType, id, memo, actorId);
}

/** Custom values to store on a new record: the ones set, without the nulls. */
export function customOnCreate(custom: StoredCustomValues): StoredCustomValues {
  const out: StoredCustomValues = {};
  for (const [id, value] of Object.entries(custom)) if (value !== null) out[id] = value;
  return out;
}

/** One changed field of an update, for the history. */
export interface FieldChange {
  /** `editField`, or a change of the record's person or organization link. */
  type: 'editField' | 'editPeopleConnection' | 'editOrganizationConnect';
  fieldName: string;
  /** The new value as text; null when cleared. */
  text: string | null;
}

/**
 * The column and custom-value changes of an update to one row, compared with what the row
 * holds: only fields whose value really changes are set, and each becomes a history entry.
 */
export class ChangeSet {
  /** Columns to set. */
  readonly columns: Record<string, unknown> = {};
  readonly changes: FieldChange[] = [];
  private custom: StoredCustomValues | undefined;

  constructor(private readonly row: Record<string, unknown>) {}

  /** Sets `column` to `value` if it differs, as a change of `fieldName`. */
  field(fieldName: string, column: string, value: unknown, text = valueAsText(value)): this {
    if (!sameValue(this.row[column], value)) {
      this.columns[column] = value;
      this.changes.push({ type: 'editField', fieldName, text });
    }
    return this;
  }

  /** Sets a link to a person or organization (`people_id`, `organization_id`) if it differs. */
  link(column: 'people_id' | 'organization_id', id: string | null): this {
    if (this.row[column] !== id) {
      this.columns[column] = id;
      this.changes.push(
        column === 'people_id'
          ? { type: 'editPeopleConnection', fieldName: 'peopleId', text: id }
          : { type: 'editOrganizationConnect', fieldName: 'organizationId', text: id },
      );
    }
    return this;
  }

  /** Whether the update changes `column`. */
  sets(column: string): boolean {
    return column in this.columns;
  }

  /**
   * Sets the built-in fields of a `fieldList` that have a column in `columns` (booleans
   * stored as 0/1, lists as JSON text); fields without one are left to the caller.
   */
  fixedFields(
    values: ReadonlyMap<string, unknown>,
    columns: Readonly<Record<string, string>>,
  ): this {
    for (const [name, value] of values) {
      const column = columns[name];
      if (column === undefined) continue;
      this.field(name, column, toColumn(value), valueAsText(value));
    }
    return this;
  }

  /** Merges custom values (null clears) into the row's stored ones. */
  customValues(definitions: readonly CustomFieldDefinition[], values: StoredCustomValues): this {
    const current = JSON.parse(String(this.row.custom ?? '{}')) as StoredCustomValues;
    let changed = false;
    for (const def of definitions) {
      if (!(def.id in values)) continue;
      const value = values[def.id];
      if (sameValue(current[def.id] ?? null, value)) continue;
      if (value === null) delete current[def.id];
      else current[def.id] = value;
      this.changes.push({ type: 'editField', fieldName: def.name, text: valueAsText(value) });
      changed = true;
    }
    if (changed) this.custom = current;
    return this;
  }

  get isEmpty(): boolean {
    return this.changes.length === 0;
  }

  /** The columns to update, custom values and `수정 날짜` included; empty when nothing changed. */
  update(now: string): Record<string, unknown> {
    if (this.isEmpty) return {};
    const set: Record<string, unknown> = { ...this.columns, updated_at: now };
    if (this.custom) set.custom = JSON.stringify(this.custom);
    return set;
  }
}

/** A field value in its column's form: booleans as 0/1, lists as JSON text. */
export function toColumn(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Array.isArray(value) ? JSON.stringify(value) : value;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Writes an update's columns to the record's row, if there are any. */
export async function updateRow(
  w: WorkspaceWrite,
  table:
    | 'people'
    | 'organizations'
    | 'deals'
    | 'leads'
    | 'products'
    | 'quotes'
    | 'todos'
    | 'custom_objects',
  id: string,
  set: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await w.trx
    .updateTable(table)
    .set(set as never)
    .where('workspace_id', '=', w.workspaceId)
    .where('id', '=', id)
    .execute();
}

/** The custom fields that hold Refs to records of `target`, single or multi, and their record types. */
export async function refFieldsTo(
  w: WorkspaceWrite,
  target: 'people' | 'organization' | 'deal' | 'customObject',
): Promise<{ id: string; record_type: string; type: string }[]> {
  const types = [target, `multi${target[0]!.toUpperCase()}${target.slice(1)}`];
  return w.trx
    .selectFrom('custom_fields')
    .select(['id', 'record_type', 'type'])
    .where('workspace_id', '=', w.workspaceId)
    .where('type', 'in', types)
    .execute();
}

/**
 * A `like` pattern (escape `\`) that finds an id in a record's custom JSON text: ids are
 * stored as JSON strings, so the quoted id finds them.
 */
export function idPattern(id: string): string {
  return `%${JSON.stringify(id).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

/**
 * Marks for re-rendering every record whose custom Ref fields point at a renamed (or
 * deleted) person, organization or deal, so its `{id, name}` shows the name as it is now.
 * Costs nothing while no custom field of that Ref type is defined.
 */
export async function markReferrers(
  w: WorkspaceWrite,
  target: 'people' | 'organization' | 'deal' | 'customObject',
  id: string,
): Promise<void> {
  const fields = await refFieldsTo(w, target);
  const pattern = idPattern(id);
  for (const recordType of new Set(fields.map((f) => f.record_type))) {
    if (recordType === 'quoteProduct') {
      const lines = await w.trx
        .selectFrom('quote_products')
        .select('quote_id')
        .where('workspace_id', '=', w.workspaceId)
        .where(sql<boolean>`custom like ${pattern} escape '\\'`)
        .execute();
      for (const line of lines) w.touched.mark('quote', line.quote_id);
      continue;
    }
    if (!(recordType in TABLE_OF)) continue;
    const type = recordType as RenderedType;
    const rows = await w.trx
      .selectFrom(TABLE_OF[type])
      .select('id')
      .where('workspace_id', '=', w.workspaceId)
      .where(sql<boolean>`custom like ${pattern} escape '\\'`)
      .execute();
    for (const row of rows) w.touched.mark(type, row.id);
  }
}

/**
 * Refuses a value that must be unique in the workspace (a person's e-mail, an organization's
 * name) when another record holds the same `uniqueKey`: a 400 carrying the holder's
 * `{id, name}` under `data`.
 */
export async function refuseDuplicate(
  w: WorkspaceWrite,
  unique: {
    table: 'people' | 'organizations';
    keyColumn: 'email_key' | 'name_key';
    value: string;
    exceptId: string | undefined;
    message: string;
  },
): Promise<void> {
  let query = w.trx
    .selectFrom(unique.table as 'people')
    .select(['id', 'name'])
    .where('workspace_id', '=', w.workspaceId)
    .where(unique.keyColumn as 'email_key', '=', uniqueKey(unique.value));
  if (unique.exceptId) query = query.where('id', '!=', unique.exceptId);
  const holder = await query.executeTakeFirst();
  if (holder) {
    throw new DomainError('duplicate_record', unique.message, {
      id: holder.id,
      name: holder.name,
    });
  }
}

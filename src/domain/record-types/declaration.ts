/**
 * How a record type is declared once (docs/architecture.md, Record types): its keys in wire
 * order, each a column of its table, a shared field group expanded in place, or a key derived
 * from the record's facts; the facts its derived keys need; whether it shows custom fields.
 * Everything else is derived from the declaration: the record schema
 * (`src/api-schema/records/declared.ts`), the field catalogue's group
 * (`src/domain/field-catalogue.ts`), the commands' column maps (`fieldListColumns` below), the
 * render function (`src/render/declared.ts`) and the read model's chunk renderer
 * (`src/store/read-model/render-chunks.ts`).
 *
 * A declaration names TypeBox types by their wire kind, not by the schema itself: this layer
 * imports no schema library; `api-schema` maps each kind to its TypeBox type.
 */
import type { CustomFieldRecordType } from '../custom-fields.ts';
import type { BuiltInFieldType, FieldAccess } from '../field-catalogue.ts';

/** How a key's value looks on the wire (each is one TypeBox type in `api-schema`). */
export type WireKind =
  | 'id'
  | 'optionalId'
  | 'text'
  | 'optionalText'
  | 'flag'
  | 'productKind'
  | 'number'
  | 'optionalNumber'
  | 'optionalDate'
  | 'timestamp'
  | 'optionalTimestamp'
  | 'optionalRef'
  | 'refs'
  | 'optionalRefs'
  | 'count';

/** The shared field groups (docs/decisions.md, Record keys), each expanded in place in its order. */
export type KeyGroup = 'dealCounters' | 'note' | 'webForm' | 'sequence' | 'ownership' | 'todo';

/** What a derived key shows, computed from the record's facts by `src/render/declared.ts`. */
export type Derivation =
  | 'submittedForms'
  | 'enrolledSequences'
  | 'peopleSequences'
  | 'owner'
  | 'mainQuoteProducts'
  | 'lastEmailOpenAt';

/**
 * The facts a record's derived keys are rendered from, each read by the read model
 * (`src/store/read-model/render-chunks.ts`) in the order the declaration lists them.
 */
export type FactName =
  | 'counts'
  | 'note'
  | 'submissions'
  | 'enrollments'
  | 'sequences'
  | 'todos'
  | 'mainQuoteProducts'
  | 'lastEmailOpenAt';

/**
 * Keys that close a record's fixed keys, before its custom fields, rendered by a function of
 * their own: `stageTimes`, the stage timing keys of the workspace's pipelines of the type
 * (docs/decisions.md, Record keys).
 */
export type ClosingKeys = 'stageTimes';

/** What a column holding an id shows it as: a ref (`{id, name}`) to a record of this kind. */
export type RefColumnTarget = 'pipeline' | 'pipelineStage';

/** What a column key shows when its column is null: another column's value, or a constant. */
export type Otherwise = { readonly column: string } | { readonly value: string };

/** A key that shows a column of the record's row. */
export interface ColumnKey<N extends string = string, W extends WireKind = WireKind> {
  readonly key: N;
  readonly column: string;
  readonly wire: W;
  /** The field's type in the field list (`GET /v2/field`). */
  readonly field: BuiltInFieldType;
  readonly access: FieldAccess;
  /** For `body` fields: the body key that sets it. */
  readonly bodyKey?: string;
  /** Whether a create must give it. */
  readonly required?: boolean;
  /** For select fields: the allowed values. */
  readonly options?: readonly string[];
  /** For a column holding an id: the kind of record it is shown as a ref to. */
  readonly refTo?: RefColumnTarget;
  /** What the key shows when the column is null (else null). */
  readonly otherwise?: Otherwise;
  /** The key's description in the record schema. */
  readonly description?: string;
}

/** A shared field group, expanded in place. */
export interface GroupKey<G extends KeyGroup = KeyGroup> {
  readonly group: G;
}

/** A key the service derives from the record's facts. */
export interface DerivedKey<N extends string = string, W extends WireKind = WireKind> {
  readonly key: N;
  readonly derive: Derivation;
  readonly wire: W;
  readonly field: BuiltInFieldType;
}

export type KeyDeclaration = ColumnKey | GroupKey | DerivedKey;

/**
 * A key only the single record's read shows (the single deal's), after the fixed keys: computed
 * when the record is read, by the type's own function (`singleDealExtras` in
 * `src/render/deals.ts`), never stored.
 */
export interface SingleRecordKey<N extends string = string, W extends WireKind = WireKind> {
  readonly key: N;
  readonly wire: W;
  readonly field: BuiltInFieldType;
  readonly access: FieldAccess;
  /** For `fieldList` fields: the column a write sets. */
  readonly column?: string;
  readonly description?: string;
}

/** One record type, declared once. */
export interface RecordTypeDeclaration<
  K extends readonly KeyDeclaration[] = readonly KeyDeclaration[],
  S extends readonly SingleRecordKey[] = readonly SingleRecordKey[],
> {
  /** The record type (custom fields, notes and todos name it so; `recording` has none of them). */
  readonly type: CustomFieldRecordType | 'recording';
  /** The column by which other records (deals, leads, web-form submissions) link to one of the type. */
  readonly linkColumn?: 'people_id' | 'organization_id' | 'deal_id' | 'lead_id';
  /** The keys in wire order. */
  readonly keys: K;
  /** The facts its derived keys need, in the order they are read. */
  readonly facts: readonly FactName[];
  /** Whether the workspace's custom fields of the type follow the fixed keys. */
  readonly customFields: boolean;
  /** Keys after the fixed keys, before the custom fields, rendered by their own function. */
  readonly closingKeys?: ClosingKeys;
  /** The keys the single record's read adds after the fixed keys (before the closing keys). */
  readonly singleRecordKeys?: S;
}

/** The field type a wire kind lists as, unless the key says otherwise. */
const FIELD_OF_WIRE: Record<WireKind, BuiltInFieldType> = {
  id: 'id',
  optionalId: 'id',
  text: 'string',
  optionalText: 'string',
  flag: 'boolean',
  productKind: 'singleSelect',
  number: 'number',
  optionalNumber: 'number',
  optionalDate: 'date',
  timestamp: 'dateTime',
  optionalTimestamp: 'dateTime',
  optionalRef: 'string',
  refs: 'string',
  optionalRefs: 'string',
  count: 'number',
};

/** More of a column key: how clients write it, and its list type when the wire kind does not say. */
type ColumnMore = Partial<
  Pick<
    ColumnKey,
    'bodyKey' | 'required' | 'options' | 'field' | 'refTo' | 'otherwise' | 'description'
  >
>;

/** A key showing `column`, written as `access` says. */
export function column<const N extends string, const W extends WireKind>(
  key: N,
  columnName: string,
  wire: W,
  access: FieldAccess,
  more: ColumnMore = {},
): ColumnKey<N, W> {
  return { key, column: columnName, wire, field: FIELD_OF_WIRE[wire], access, ...more };
}

/** A shared field group. */
export function group<const G extends KeyGroup>(name: G): GroupKey<G> {
  return { group: name };
}

/** A key derived from the record's facts, listed as `field`. */
export function derived<const N extends string, const W extends WireKind>(
  key: N,
  derive: Derivation,
  wire: W,
  field: BuiltInFieldType,
): DerivedKey<N, W> {
  return { key, derive, wire, field };
}

/** A key of the single record's read, listed as `field`. */
export function singleRecordKey<const N extends string, const W extends WireKind>(
  key: N,
  wire: W,
  field: BuiltInFieldType,
  access: FieldAccess,
  more: Partial<Pick<SingleRecordKey, 'column' | 'description'>> = {},
): SingleRecordKey<N, W> {
  return { key, wire, field, access, ...more };
}

/** Declares a record type (its keys' literal types kept for the schema's static type). */
export function declareRecordType<
  const K extends readonly KeyDeclaration[],
  const S extends readonly SingleRecordKey[] = readonly [],
>(declaration: RecordTypeDeclaration<K, S>): RecordTypeDeclaration<K, S> {
  return declaration;
}

/**
 * The columns of the fields that `fieldList` writes, by key (`담당자` → `owner_id` for a record
 * with ownership): what a create stores and an update compares.
 */
export function fieldListColumns(declaration: RecordTypeDeclaration): Record<string, string> {
  const columns: Record<string, string> = {};
  for (const k of declaration.keys) {
    if ('column' in k && k.access === 'fieldList') columns[k.key] = k.column;
    if ('group' in k && k.group === 'ownership') columns['담당자'] = 'owner_id';
  }
  for (const k of declaration.singleRecordKeys ?? [])
    if (k.column !== undefined && k.access === 'fieldList') columns[k.key] = k.column;
  return columns;
}

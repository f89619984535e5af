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
import type { CustomFieldRecordType, RefTarget } from '../custom-fields.ts';
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
  | 'positiveInteger'
  | 'count';

/** The shared field groups (docs/decisions.md, Record keys), each expanded in place in its order. */
export type KeyGroup = 'dealCounters' | 'note' | 'webForm' | 'sequence' | 'ownership' | 'todo';

/** What a derived key shows, computed from the record's facts by `src/render/declared.ts`. */
export type Derivation =
  | 'submittedForms'
  | 'enrolledSequences'
  | 'peopleSequences'
  | 'owner'
  | 'quoteAmount'
  | 'paymentCount'
  | 'firstPaymentAt'
  | 'lastPaymentAt'
  | 'lineTotal'
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
  | 'lines'
  | 'mainQuoteProducts'
  | 'lastEmailOpenAt';

/**
 * Keys that close a record's fixed keys, before its custom fields, rendered by a function of
 * their own: `stageTimes`, the stage timing keys of the workspace's pipelines of the type
 * (docs/decisions.md, Record keys).
 */
export type ClosingKeys = 'stageTimes';

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
  /** What the record schema says of the key, when its wire kind does not say enough. */
  readonly description?: string;
  /** For a key showing another record as a Ref: the type of record its column's id names. */
  readonly refersTo?: RefTarget;
  /** What the key shows when the column is null (else null). */
  readonly otherwise?: Otherwise;
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
  /** How clients write what it is derived from, when they do (`derived` otherwise). */
  readonly access?: FieldAccess;
  /** For `body` access: the body key that sets it. */
  readonly bodyKey?: string;
  /** What the record schema says of the key, when its wire kind does not say enough. */
  readonly description?: string;
}

/**
 * A key listing the record's lines (a quote's products), each a record of its own declaration
 * rendered with its payment terms (docs/decisions.md, Derived fields), written as `bodyKey`.
 */
export interface LinesKey<N extends string = string, L extends LineDeclaration = LineDeclaration> {
  readonly key: N;
  readonly lines: L;
  readonly field: BuiltInFieldType;
  readonly access: 'body';
  readonly bodyKey: string;
}

export type KeyDeclaration = ColumnKey | GroupKey | DerivedKey | LinesKey;

/** The declaration of a record's lines: a type with custom fields of its own. */
export type LineDeclaration = RecordTypeDeclaration & { readonly type: CustomFieldRecordType };

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
  /**
   * Whose custom fields follow: the type's (by default), or those of the record's own definition
   * (a custom object's, docs/decisions.md, Other resources).
   */
  readonly customFieldsOf?: 'definition';
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
  positiveInteger: 'number',
  count: 'number',
};

/** More of a column key: how clients write it, and its list type when the wire kind does not say. */
type ColumnMore = Partial<
  Pick<
    ColumnKey,
    'bodyKey' | 'required' | 'options' | 'field' | 'description' | 'refersTo' | 'otherwise'
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

/** More of a derived key: how clients write what it derives from, and its description. */
type DerivedMore = Partial<Pick<DerivedKey, 'access' | 'bodyKey' | 'description'>>;

/** A key derived from the record's facts, listed as `field`. */
export function derived<const N extends string, const W extends WireKind>(
  key: N,
  derive: Derivation,
  wire: W,
  field: BuiltInFieldType,
  more: DerivedMore = {},
): DerivedKey<N, W> {
  return { key, derive, wire, field, ...more };
}

/** A key listing the record's lines, each as `declaration` declares it, written as `bodyKey`. */
export function lines<const N extends string, const L extends LineDeclaration>(
  key: N,
  declaration: L,
  field: BuiltInFieldType,
  bodyKey: string,
): LinesKey<N, L> {
  return { key, lines: declaration, field, access: 'body', bodyKey };
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

/**
 * Declares a record type (its keys' literal types kept for the schema's static type, its type's
 * for the lines of another).
 */
export function declareRecordType<
  const K extends readonly KeyDeclaration[],
  const T extends RecordTypeDeclaration['type'],
  const S extends readonly SingleRecordKey[] = readonly [],
>(
  declaration: RecordTypeDeclaration<K, S> & { readonly type: T },
): RecordTypeDeclaration<K, S> & {
  readonly type: T;
} {
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

/** The declaration of a record type's lines, when it has a key listing them. */
export function linesOf(declaration: RecordTypeDeclaration): LineDeclaration | undefined {
  for (const k of declaration.keys) if ('lines' in k) return k.lines;
  return undefined;
}

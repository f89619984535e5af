/**
 * The one render function of the declared record types (docs/architecture.md, Record types):
 * a record's keys in its declaration's order, each a column of its row, a shared field group or
 * a key derived from its facts, then its closing keys (stage times), then the workspace's custom
 * fields when the type shows them.
 */
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import type {
  ClosingKeys,
  ColumnKey,
  Derivation,
  KeyGroup,
  RecordTypeDeclaration,
  RefColumnTarget,
} from '../domain/record-types/declaration.ts';
import {
  type DealCounts,
  type EnrollmentFact,
  enrolledSequences,
  type LatestNote,
  putDealCounters,
  putNoteGroup,
  putOwnership,
  putSequenceGroup,
  putTodoGroup,
  putWebFormGroup,
  type Ref,
  type SubmissionFact,
  submittedForms,
  type TodoFact,
} from '../domain/records.ts';
import {
  putStageTimes,
  type StageKeys,
  type StageRow,
  stageTimesOf,
} from '../domain/stage-times.ts';

/** What a declared record is rendered from besides its row; a fact left out is none. */
export interface DeclaredFacts {
  counts?: DealCounts;
  note?: LatestNote | undefined;
  submissions?: SubmissionFact[];
  enrollments?: EnrollmentFact[];
  /** Organizations: the sequences any of their people are enrolled in. */
  sequences?: Ref[];
  todos?: TodoFact[];
  /** Deals and leads: the products of their main quote (null without one). */
  mainQuoteProducts?: Ref[] | null | undefined;
  /** Deals and leads: when an e-mail sent them was last opened. */
  lastEmailOpenAt?: string | null | undefined;
  /** The stage timing keys of the type's pipelines, for `stageTimes` closing keys. */
  stageKeys?: readonly StageKeys[];
  /** The ref of a record a column names by id (pipelines and stages). */
  ref?: (target: RefColumnTarget, id: string) => Ref;
  owner: Ref | null;
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** The facts only deals and leads are rendered from. */
export type PipelineFactName = 'mainQuoteProducts' | 'lastEmailOpenAt' | 'stageKeys' | 'ref';

/** The columns every declared row has besides its declared ones. */
interface DeclaredRow {
  created_at: string;
  updated_at?: string;
  custom?: string;
}

type Draft = Record<string, unknown>;

const NO_DEALS: DealCounts = { leads: 0, inProgress: 0, won: 0, lost: 0 };

/** Writes one shared field group. */
const PUT_GROUP: Record<KeyGroup, (r: Draft, row: DeclaredRow, f: DeclaredFacts) => void> = {
  dealCounters: (r, _, f) => putDealCounters(r, f.counts ?? NO_DEALS),
  note: (r, _, f) => putNoteGroup(r, f.note),
  webForm: (r, _, f) => putWebFormGroup(r, f.submissions ?? []),
  sequence: (r, _, f) => putSequenceGroup(r, f.enrollments ?? []),
  ownership: (r, row, f) =>
    putOwnership(r, f.owner, row.created_at, f.teams, row.updated_at ?? row.created_at),
  todo: (r, _, f) => putTodoGroup(r, f.todos ?? []),
};

/** The value of each derived key. */
const DERIVE: Record<Derivation, (f: DeclaredFacts) => unknown> = {
  submittedForms: (f) => submittedForms(f.submissions ?? []),
  enrolledSequences: (f) => enrolledSequences(f.enrollments ?? []),
  peopleSequences: (f) => f.sequences ?? [],
  owner: (f) => f.owner,
  mainQuoteProducts: (f) => f.mainQuoteProducts ?? null,
  lastEmailOpenAt: (f) => f.lastEmailOpenAt ?? null,
};

/** Writes the keys that close the fixed keys (docs/decisions.md, Record keys). */
const PUT_CLOSING: Record<ClosingKeys, (r: Draft, row: DeclaredRow, f: DeclaredFacts) => void> = {
  stageTimes: (r, row, f) =>
    putStageTimes(r, f.stageKeys ?? [], stageTimesOf(row as unknown as StageRow)),
};

/** The value of a column key: its column's, else what it shows otherwise, a flag as a boolean. */
function columnValue(k: ColumnKey, columns: Record<string, unknown>, f: DeclaredFacts): unknown {
  const value = columns[k.column];
  if (k.wire === 'flag') return value === 1;
  if (k.refTo !== undefined) {
    if (!value) return null;
    if (f.ref === undefined) throw new Error(`no ref lookup to render '${k.key}'`);
    return f.ref(k.refTo, value as string);
  }
  if (k.otherwise === undefined) return value;
  return value ?? ('column' in k.otherwise ? columns[k.otherwise.column] : k.otherwise.value);
}

/** A declared record, keys in the declaration's order, custom fields last. */
export function renderDeclared(
  declaration: RecordTypeDeclaration,
  row: DeclaredRow,
  facts: DeclaredFacts,
): Record<string, unknown> {
  const r: Draft = {};
  const columns = row as unknown as Record<string, unknown>;
  for (const k of declaration.keys) {
    if ('group' in k) PUT_GROUP[k.group](r, row, facts);
    else if ('derive' in k) r[k.key] = DERIVE[k.derive](facts);
    else r[k.key] = columnValue(k, columns, facts);
  }
  if (declaration.closingKeys !== undefined) PUT_CLOSING[declaration.closingKeys](r, row, facts);
  if (declaration.customFields)
    appendCustomFields(r, facts.customFields, JSON.parse(row.custom ?? '{}'), facts.nameOf);
  return r;
}

/**
 * The single record of a type with `singleRecordKeys` (the single deal): its stored record with
 * the keys its read adds inserted after its `fixed` keys (`fixedKeyCount` of the declaration),
 * before the closing and custom keys.
 */
export function withSingleRecordKeys(
  fixed: number,
  record: Record<string, unknown>,
  added: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    if (i === fixed) Object.assign(out, added);
    out[keys[i]!] = record[keys[i]!];
  }
  if (keys.length <= fixed) Object.assign(out, added);
  return out;
}

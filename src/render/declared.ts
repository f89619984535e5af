/**
 * The one render function of the declared record types (docs/architecture.md, Record types):
 * a record's keys in its declaration's order, each a column of its row, a shared field group,
 * a key derived from its facts or the list of its lines (each rendered by its own declaration),
 * then its closing keys (stage times), then the custom fields when the type shows them.
 */
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import type { QuoteLineTerms } from '../domain/quotes.ts';
import type {
  ClosingKeys,
  ColumnKey,
  Derivation,
  KeyGroup,
  RecordTypeDeclaration,
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
import { type QuoteLine, quoteAmount, termsOfLine } from './quote-lines.ts';

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
  owner: Ref | null;
  teams: Ref[];
  /** The custom fields that follow: the type's, or those of the record's own definition. */
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** What a quote and its lines are rendered from besides the facts of every declared record. */
export interface LineFacts {
  /** A quote's lines, in line order. */
  lines?: readonly QuoteLine[];
  /** The custom fields of a quote's lines. */
  lineCustomFields?: readonly CustomFieldDefinition[];
  /** A quote line's payment terms. */
  terms?: QuoteLineTerms;
}

/** What any declared record is rendered from. */
type Facts = DeclaredFacts & LineFacts;

/** The facts only deals and leads are rendered from. */
export type PipelineFactName = 'mainQuoteProducts' | 'lastEmailOpenAt' | 'stageKeys';

/** The columns every declared row has besides its declared ones (a line has no times). */
interface DeclaredRow {
  created_at?: string;
  updated_at?: string;
  custom?: string;
}

type Draft = Record<string, unknown>;

const NO_DEALS: DealCounts = { leads: 0, inProgress: 0, won: 0, lost: 0 };

/** Writes one shared field group. */
const PUT_GROUP: Record<KeyGroup, (r: Draft, row: DeclaredRow, f: Facts) => void> = {
  dealCounters: (r, _, f) => putDealCounters(r, f.counts ?? NO_DEALS),
  note: (r, _, f) => putNoteGroup(r, f.note),
  webForm: (r, _, f) => putWebFormGroup(r, f.submissions ?? []),
  sequence: (r, _, f) => putSequenceGroup(r, f.enrollments ?? []),
  ownership: (r, row, f) =>
    putOwnership(r, f.owner, createdAt(row), f.teams, row.updated_at ?? createdAt(row)),
  todo: (r, _, f) => putTodoGroup(r, f.todos ?? []),
};

/** The value of each derived key. */
const DERIVE: Record<Derivation, (f: Facts, row: DeclaredRow) => unknown> = {
  submittedForms: (f) => submittedForms(f.submissions ?? []),
  enrolledSequences: (f) => enrolledSequences(f.enrollments ?? []),
  peopleSequences: (f) => f.sequences ?? [],
  owner: (f) => f.owner,
  quoteAmount: (f, row) => quoteAmount(f.lines ?? [], createdAt(row)),
  paymentCount: (f) => termsOf(f).paymentCount,
  firstPaymentAt: (f) => termsOf(f).firstPaymentAt,
  lastPaymentAt: (f) => termsOf(f).lastPaymentAt,
  lineTotal: (f) => termsOf(f).total,
  mainQuoteProducts: (f) => f.mainQuoteProducts ?? null,
  lastEmailOpenAt: (f) => f.lastEmailOpenAt ?? null,
};

/** Writes the keys that close the fixed keys (docs/decisions.md, Record keys). */
const PUT_CLOSING: Record<ClosingKeys, (r: Draft, row: DeclaredRow, f: Facts) => void> = {
  stageTimes: (r, row, f) =>
    putStageTimes(r, f.stageKeys ?? [], stageTimesOf(row as unknown as StageRow)),
};

/** The creation time of a record that has one (every record type but a quote's line). */
function createdAt(row: DeclaredRow): string {
  if (row.created_at === undefined) throw new Error('a record without its creation time');
  return row.created_at;
}

/** The payment terms a quote's line is rendered with. */
function termsOf(f: Facts): QuoteLineTerms {
  if (f.terms === undefined) throw new Error('a quote line without its terms');
  return f.terms;
}

/**
 * A column key's value as the wire shows it: a flag as a boolean, a positive integer as a
 * number (a bigint column may be read as text), an id of another record as its Ref (`''` named
 * once the record is gone); a null column shows what the key shows otherwise, if it says.
 */
function columnValue(k: ColumnKey, columns: Record<string, unknown>, f: Facts): unknown {
  const value = columns[k.column];
  if (k.refersTo !== undefined)
    return value ? { id: value, name: f.nameOf(k.refersTo, value as string) ?? '' } : null;
  if (k.wire === 'flag') return value === 1;
  if (k.wire === 'positiveInteger') return Number(value);
  if (k.otherwise === undefined) return value;
  return value ?? ('column' in k.otherwise ? columns[k.otherwise.column] : k.otherwise.value);
}

/** A record's lines, each as its declaration says, with its terms and the lines' custom fields. */
function renderLines(
  declaration: RecordTypeDeclaration,
  row: DeclaredRow,
  facts: Facts,
): Record<string, unknown>[] {
  const customFields = facts.lineCustomFields ?? [];
  return (facts.lines ?? []).map((line) =>
    renderDeclared(declaration, line, {
      terms: termsOfLine(line, createdAt(row)),
      owner: null,
      teams: [],
      customFields,
      nameOf: facts.nameOf,
    }),
  );
}

/** A declared record, keys in the declaration's order, custom fields last. */
export function renderDeclared(
  declaration: RecordTypeDeclaration,
  row: DeclaredRow,
  facts: Facts,
): Record<string, unknown> {
  const r: Draft = {};
  const columns = row as unknown as Record<string, unknown>;
  for (const k of declaration.keys) {
    if ('group' in k) PUT_GROUP[k.group](r, row, facts);
    else if ('derive' in k) r[k.key] = DERIVE[k.derive](facts, row);
    else if ('lines' in k) r[k.key] = renderLines(k.lines, row, facts);
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

/**
 * The one render function of the declared record types (docs/architecture.md, Record types):
 * a record's keys in its declaration's order, each a column of its row, a shared field group,
 * a key derived from its facts or the list of its lines (each rendered by its own declaration),
 * then the custom fields when the type shows them.
 */
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import type { QuoteLineTerms } from '../domain/quotes.ts';
import type {
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
 * A column's value as the wire shows it: a flag as a boolean, a positive integer as a number
 * (a bigint column may be read as text), an id of another record as its Ref (`''` named once
 * the record is gone).
 */
function columnValue(k: ColumnKey, value: unknown, f: Facts): unknown {
  if (k.refersTo !== undefined)
    return value ? { id: value, name: f.nameOf(k.refersTo, value as string) ?? '' } : null;
  if (k.wire === 'flag') return value === 1;
  if (k.wire === 'positiveInteger') return Number(value);
  return value;
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
    else r[k.key] = columnValue(k, columns[k.column], facts);
  }
  if (declaration.customFields)
    appendCustomFields(r, facts.customFields, JSON.parse(row.custom ?? '{}'), facts.nameOf);
  return r;
}

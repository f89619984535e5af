/**
 * The one render function of the declared record types (docs/architecture.md, Record types):
 * a record's keys in its declaration's order, each a column of its row, a shared field group or
 * a key derived from its facts, then the workspace's custom fields when the type shows them.
 */
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import type {
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
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

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
};

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
    else r[k.key] = k.wire === 'flag' ? columns[k.column] === 1 : columns[k.column];
  }
  if (declaration.customFields)
    appendCustomFields(r, facts.customFields, JSON.parse(row.custom ?? '{}'), facts.nameOf);
  return r;
}

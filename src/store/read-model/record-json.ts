import type { Selectable } from 'kysely';
import { type CustomFieldDefinition, fieldsOfDefinition } from '../../domain/custom-fields.ts';
import { linesOf, type RecordTypeDeclaration } from '../../domain/record-types/declaration.ts';
import type {
  DealCounts,
  EnrollmentFact,
  LatestNote,
  Ref,
  SubmissionFact,
  TodoFact,
} from '../../domain/records.ts';
import type {
  Body,
  CustomObjectTable,
  DealTable,
  LeadTable,
  OrganizationTable,
  PeopleTable,
  ProductTable,
  QuoteTable,
} from '../../model/tables.ts';
import { renderDeclared } from '../../render/declared.ts';
import type { QuoteLine } from '../../render/quote-lines.ts';
import type { Lookups } from './lookups.ts';
import {
  DECLARATION_OF,
  type DeclaredType,
  isDeclared,
  type RenderedType,
} from './rendered-types.ts';

/**
 * The facts of one record that its stored JSON shows (docs/decisions.md, Derived fields), gathered
 * by the caller: from the database (the chunk renderers in render-chunks.ts) or from an import's
 * file. A fact left out is the record's having none: no deals, no note, no todos, no main quote,
 * ...
 */
export interface RecordFacts {
  counts?: DealCounts;
  note?: LatestNote;
  submissions?: SubmissionFact[];
  enrollments?: EnrollmentFact[];
  /** Organizations: the sequences any of their people are enrolled in. */
  sequences?: Ref[];
  todos?: TodoFact[];
  mainQuoteProducts?: Ref[];
  lastEmailOpenAt?: string;
  /** Quotes: their lines, in line order. */
  lines?: QuoteLine[];
}

/** The stored JSON of a row, as text (bytes on SQLite), or null before its first rendering. */
export function storedJson(body: Body | null): string | null {
  if (body === null) return null;
  return typeof body === 'string' ? body : body.toString('utf8');
}

/** The counts of a record that no deal or lead links to. */
export const NO_DEALS: DealCounts = Object.freeze({ leads: 0, inProgress: 0, won: 0, lost: 0 });

/**
 * The stored JSON of one record of `type`: its row (as the table holds it) and its facts,
 * with the names of what it refers to from `l`. Every path that renders records comes here.
 */
export function renderRecordJson(
  type: RenderedType,
  row: unknown,
  f: RecordFacts,
  l: Lookups,
): string {
  if (isDeclared(type)) {
    const declaration: RecordTypeDeclaration = DECLARATION_OF[type];
    const r = row as Selectable<
      | PeopleTable
      | OrganizationTable
      | ProductTable
      | QuoteTable
      | CustomObjectTable
      | DealTable
      | LeadTable
    >;
    const lines = linesOf(declaration);
    return JSON.stringify(
      renderDeclared(declaration, r, {
        ...f,
        stageKeys:
          declaration.closingKeys === 'stageTimes' ? l.stageKeys(type as 'deal') : undefined,
        owner: l.userRef(r.owner_id),
        teams: l.teamRefs(r.team_ids),
        customFields: customFieldsOf(type, declaration, r, l),
        nameOf: l.nameOf,
        lineCustomFields: lines ? l.definitions(lines.type) : [],
      }),
    );
  }
  throw new Error(`${type}: not a declared record type`);
}

/** The custom fields a declared record shows: its type's, or its own definition's. */
function customFieldsOf(
  type: DeclaredType,
  declaration: RecordTypeDeclaration,
  row: object,
  l: Lookups,
): CustomFieldDefinition[] {
  const fields = l.definitions(type);
  if (declaration.customFieldsOf !== 'definition') return fields;
  return fieldsOfDefinition(fields, (row as Selectable<CustomObjectTable>).definition_id);
}

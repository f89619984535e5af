import type { Selectable } from 'kysely';
import { fieldsOfDefinition } from '../../domain/custom-fields.ts';
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
import { renderCustomObject } from '../../render/custom-objects.ts';
import { renderDeclared } from '../../render/declared.ts';
import { type QuoteLine, renderQuote } from '../../render/quotes.ts';
import type { Lookups } from './lookups.ts';
import { DECLARATION_OF, isDeclared, type RenderedType } from './rendered-types.ts';

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
    const declaration = DECLARATION_OF[type];
    const r = row as Selectable<
      PeopleTable | OrganizationTable | ProductTable | DealTable | LeadTable
    >;
    return JSON.stringify(
      renderDeclared(declaration, r, {
        ...f,
        stageKeys:
          declaration.closingKeys === 'stageTimes' ? l.stageKeys(type as 'deal') : undefined,
        ref: (target, id) => l.ref(target, id),
        owner: l.userRef(r.owner_id),
        teams: l.teamRefs(r.team_ids),
        customFields: l.definitions(type),
        nameOf: l.nameOf,
      }),
    );
  }
  switch (type) {
    case 'quote': {
      const r = row as Selectable<QuoteTable>;
      return JSON.stringify(
        renderQuote(r, {
          lines: f.lines ?? [],
          note: f.note,
          owner: l.userRef(r.owner_id),
          teams: l.teamRefs(r.team_ids),
          customFields: l.definitions('quote'),
          lineCustomFields: l.definitions('quoteProduct'),
          nameOf: l.nameOf,
        }),
      );
    }
    case 'customObject': {
      const r = row as Selectable<CustomObjectTable>;
      return JSON.stringify(
        renderCustomObject(r, {
          pipeline: r.pipeline_id ? l.ref('pipeline', r.pipeline_id) : null,
          stage: r.stage_id ? l.ref('pipelineStage', r.stage_id) : null,
          note: f.note,
          todos: f.todos ?? [],
          owner: l.userRef(r.owner_id),
          teams: l.teamRefs(r.team_ids),
          customFields: fieldsOfDefinition(l.definitions('customObject'), r.definition_id),
          nameOf: l.nameOf,
        }),
      );
    }
  }
}

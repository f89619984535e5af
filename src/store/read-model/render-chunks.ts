import type { Selectable } from 'kysely';
import {
  type CustomFieldRecordType,
  collectRefIds,
  type NamedTarget,
} from '../../domain/custom-fields.ts';
import {
  type FactName,
  linesOf,
  type RecordTypeDeclaration,
} from '../../domain/record-types/declaration.ts';
import type { Database, SubjectType } from '../../model/tables.ts';
import type { QuoteLine } from '../../render/quote-lines.ts';
import type { Executor, RenderedTable } from '../database.ts';
import {
  dealCountsOf,
  enrollmentsOf,
  lastEmailOpens,
  latestNotes,
  mainQuoteProducts,
  organizationSequences,
  quoteLinesOf,
  type Subjects,
  submissionsOf,
  todosOf,
} from './facts.ts';
import type { Lookups } from './lookups.ts';
import { type RecordFacts, renderRecordJson, storedJson } from './record-json.ts';
import {
  DECLARATION_OF,
  type DeclaredType,
  type RenderedType,
  TABLE_OF,
} from './rendered-types.ts';

/** A record rendered afresh, with the JSON stored for it before (null for a new record). */
export type Rendered = [id: string, json: string, before: string | null];

/**
 * Rows of the records to render, already read: a full refresh's page (`page`: the rows of
 * every record of the type from the first id to the last, in id order), or the rows of
 * records of `ids` alone (those a write's inserts returned, unchanged since).
 */
export interface Prefetched {
  readonly rows: readonly unknown[];
  readonly page: boolean;
}

/** Renders the records `ids`, from `prefetched` rows when given, else read by id. */
export type ChunkRenderer = (
  trx: Executor,
  ws: string,
  ids: string[],
  l: Lookups,
  prefetched?: Prefetched,
  reads?: FactTables,
) => Promise<Rendered[]>;

/**
 * Whether a table may hold facts of the records being rendered: false for a table that the
 * write has not changed when every record was created by the write itself.
 */
export type FactTables = (table: string) => boolean;

const EVERY_TABLE: FactTables = () => true;

/** The facts of `tables`, or none when no such table may hold any. */
async function factsIn<T>(
  reads: FactTables,
  tables: readonly string[],
  read: () => Promise<Map<string, T>>,
): Promise<Map<string, T>> {
  return tables.some(reads) ? read() : new Map();
}

/** The page's id range when a full refresh read its rows (see `Prefetched`), else the ids. */
function subjectsOf(ids: string[], prefetched: Prefetched | undefined): Subjects {
  return prefetched?.page && ids.length > 0 ? { from: ids[0]!, to: ids[ids.length - 1]! } : ids;
}

async function customRefs(
  l: Lookups,
  recordType: CustomFieldRecordType,
  customs: readonly string[],
): Promise<void> {
  const defs = l.definitions(recordType);
  if (defs.length === 0) return;
  const targets = new Map<NamedTarget, Set<string>>();
  for (const c of customs) collectRefIds(defs, JSON.parse(c), targets);
  await l.ensure(targets);
}

/** The rows of a chunk: those the caller read already, else the chunk's ids read from `table`. */
async function chunkRows<T extends RenderedTable>(
  trx: Executor,
  table: T,
  ws: string,
  ids: string[],
  prefetched: Prefetched | undefined,
): Promise<Selectable<Database[T]>[]> {
  if (prefetched) return prefetched.rows as Selectable<Database[T]>[];
  return (await trx
    .selectFrom(table as 'people')
    .selectAll()
    .where('workspace_id', '=', ws)
    .where('id', 'in', ids)
    .execute()) as unknown as Selectable<Database[T]>[];
}

/** Reads one fact of a declared type's records, and the tables it may hold it in. */
interface FactReader {
  readonly tables: readonly string[];
  read(
    trx: Executor,
    ws: string,
    declaration: RecordTypeDeclaration,
    subjects: Subjects,
    l: Lookups,
  ): Promise<Map<string, unknown>>;
}

/** The column other records link to a declared type by, for the facts that need it. */
function linkOf(
  declaration: RecordTypeDeclaration,
): NonNullable<RecordTypeDeclaration['linkColumn']> {
  if (declaration.linkColumn === undefined)
    throw new Error(`${declaration.type} declares no link column for its facts`);
  return declaration.linkColumn;
}

/** How each fact (docs/decisions.md, Derived fields) is read. */
const FACT_READERS: Record<FactName, FactReader> = {
  counts: {
    tables: ['deals', 'leads'],
    read: (trx, ws, d, s) => dealCountsOf(trx, ws, linkOf(d) as 'people_id', s),
  },
  note: {
    tables: ['notes'],
    read: (trx, ws, d, s, l) => latestNotes(trx, ws, d.type as SubjectType, s, l),
  },
  submissions: {
    tables: ['web_form_submissions'],
    read: (trx, ws, d, s, l) => submissionsOf(trx, ws, linkOf(d), s, l),
  },
  enrollments: {
    tables: ['sequence_enrollments'],
    read: (trx, ws, d, s, l) => enrollmentsOf(trx, ws, d.type as SubjectType, s, l),
  },
  sequences: {
    tables: ['people', 'sequence_enrollments'],
    read: (trx, ws, _, s, l) => organizationSequences(trx, ws, s, l),
  },
  todos: {
    tables: ['todos'],
    read: (trx, ws, d, s) => todosOf(trx, ws, d.type as SubjectType, s),
  },
  lines: {
    tables: ['quote_products'],
    read: (trx, ws, _, s) => quoteLinesOf(trx, ws, s),
  },
  mainQuoteProducts: {
    tables: ['quotes', 'quote_products'],
    read: (trx, ws, d, s, l) => mainQuoteProducts(trx, ws, linkOf(d) as 'deal_id', s, l),
  },
  lastEmailOpenAt: {
    tables: ['activities'],
    read: (trx, ws, d, s) => lastEmailOpens(trx, ws, d.type as 'deal', s),
  },
};

/**
 * The chunk renderer of a declared type: its rows, the facts its declaration names (each read
 * only when a table that may hold it is read), the names its custom values (and its lines')
 * refer to.
 */
function declaredChunk(type: DeclaredType): ChunkRenderer {
  const declaration: RecordTypeDeclaration = DECLARATION_OF[type];
  return async (trx, ws, ids, l, prefetched, reads = EVERY_TABLE) => {
    const subjects = subjectsOf(ids, prefetched);
    const rows = await chunkRows(trx, TABLE_OF[type], ws, ids, prefetched);
    const facts = new Map<FactName, Map<string, unknown>>();
    for (const name of declaration.facts) {
      const reader = FACT_READERS[name];
      facts.set(
        name,
        await factsIn(reads, reader.tables, () => reader.read(trx, ws, declaration, subjects, l)),
      );
    }
    await customRefs(
      l,
      type,
      rows.map((r) => r.custom),
    );
    const lines = linesOf(declaration);
    if (lines) {
      const ofRecords = (facts.get('lines') ?? new Map()) as Map<string, QuoteLine[]>;
      await customRefs(
        l,
        lines.type,
        [...ofRecords.values()].flatMap((list) => list.map((line) => line.custom)),
      );
    }
    return rows.map((row) => {
      const of: RecordFacts = {};
      for (const [name, values] of facts)
        (of as Record<string, unknown>)[name] = values.get(row.id);
      return [row.id, renderRecordJson(type, row, of, l), storedJson(row.body)];
    });
  };
}

/** The chunk renderer of each rendered type. */
export const RENDERERS: Record<RenderedType, ChunkRenderer> = {
  ...(Object.fromEntries(
    (Object.keys(DECLARATION_OF) as DeclaredType[]).map((type) => [type, declaredChunk(type)]),
  ) as Record<DeclaredType, ChunkRenderer>),
};

import type { Selectable } from 'kysely';
import {
  type CustomFieldRecordType,
  collectRefIds,
  type RefTarget,
} from '../../domain/custom-fields.ts';
import type { ProductKind } from '../../domain/quotes.ts';
import type {
  DealTable,
  LeadTable,
  OrganizationTable,
  PeopleTable,
  ProductTable,
  QuoteTable,
} from '../../model/tables.ts';
import type { QuoteLine } from '../../render/quotes.ts';
import type { Executor } from '../database.ts';
import {
  dealCountsOf,
  enrollmentsOf,
  lastEmailOpens,
  latestNotes,
  mainQuoteProducts,
  ofSubjects,
  organizationSequences,
  type Subjects,
  submissionsOf,
  todosOf,
} from './facts.ts';
import type { Lookups } from './lookups.ts';
import { renderRecordJson } from './record-json.ts';
import type { RenderedType } from './rendered-types.ts';

/**
 * Renders the records `ids`. `rows`, when given, come from a full refresh's page: the rows
 * of every record of the type from the first id to the last, in id order, already read.
 */
export type ChunkRenderer = (
  trx: Executor,
  ws: string,
  ids: string[],
  l: Lookups,
  rows?: readonly unknown[],
) => Promise<[id: string, json: string][]>;

/** The page's id range when a full refresh read its rows (see `ChunkRenderer`), else the ids. */
function subjectsOf(ids: string[], rows: readonly unknown[] | undefined): Subjects {
  return rows && ids.length > 0 ? { from: ids[0]!, to: ids[ids.length - 1]! } : ids;
}

async function customRefs(
  l: Lookups,
  recordType: CustomFieldRecordType,
  customs: readonly string[],
): Promise<void> {
  const defs = l.definitions(recordType);
  if (defs.length === 0) return;
  const targets = new Map<RefTarget, Set<string>>();
  for (const c of customs) collectRefIds(defs, JSON.parse(c), targets);
  await l.ensure(targets);
}

const renderPeopleChunk: ChunkRenderer = async (trx, ws, ids, l, prefetched) => {
  const subjects = subjectsOf(ids, prefetched);
  const rows =
    (prefetched as Selectable<PeopleTable>[] | undefined) ??
    (await trx
      .selectFrom('people')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('id', 'in', ids)
      .execute());
  const counts = await dealCountsOf(trx, ws, 'people_id', subjects);
  const notes = await latestNotes(trx, ws, 'people', subjects, l);
  const submissions = await submissionsOf(trx, ws, 'people_id', subjects, l);
  const enrollments = await enrollmentsOf(trx, ws, 'people', subjects, l);
  const todos = await todosOf(trx, ws, 'people', subjects);
  await customRefs(
    l,
    'people',
    rows.map((r) => r.custom),
  );
  return rows.map((row) => [
    row.id,
    renderRecordJson(
      'people',
      row,
      {
        counts: counts.get(row.id),
        note: notes.get(row.id),
        submissions: submissions.get(row.id),
        enrollments: enrollments.get(row.id),
        todos: todos.get(row.id),
      },
      l,
    ),
  ]);
};

const renderOrganizationChunk: ChunkRenderer = async (trx, ws, ids, l, prefetched) => {
  const subjects = subjectsOf(ids, prefetched);
  const rows =
    (prefetched as Selectable<OrganizationTable>[] | undefined) ??
    (await trx
      .selectFrom('organizations')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('id', 'in', ids)
      .execute());
  const counts = await dealCountsOf(trx, ws, 'organization_id', subjects);
  const notes = await latestNotes(trx, ws, 'organization', subjects, l);
  const submissions = await submissionsOf(trx, ws, 'organization_id', subjects, l);
  const sequences = await organizationSequences(trx, ws, subjects, l);
  const todos = await todosOf(trx, ws, 'organization', subjects);
  await customRefs(
    l,
    'organization',
    rows.map((r) => r.custom),
  );
  return rows.map((row) => [
    row.id,
    renderRecordJson(
      'organization',
      row,
      {
        counts: counts.get(row.id),
        note: notes.get(row.id),
        submissions: submissions.get(row.id),
        sequences: sequences.get(row.id),
        todos: todos.get(row.id),
      },
      l,
    ),
  ]);
};

function pipelineChunk(kind: 'deal' | 'lead'): ChunkRenderer {
  return async (trx, ws, ids, l, prefetched) => {
    const subjects = subjectsOf(ids, prefetched);
    const rows =
      (prefetched as Selectable<DealTable | LeadTable>[] | undefined) ??
      (kind === 'deal'
        ? await trx
            .selectFrom('deals')
            .selectAll()
            .where('workspace_id', '=', ws)
            .where('id', 'in', ids)
            .execute()
        : await trx
            .selectFrom('leads')
            .selectAll()
            .where('workspace_id', '=', ws)
            .where('id', 'in', ids)
            .execute());
    const column = kind === 'deal' ? 'deal_id' : 'lead_id';
    const mainProducts = await mainQuoteProducts(trx, ws, column, subjects, l);
    const emailOpens = await lastEmailOpens(trx, ws, kind, subjects);
    const notes = await latestNotes(trx, ws, kind, subjects, l);
    const submissions = await submissionsOf(trx, ws, column, subjects, l);
    const enrollments = await enrollmentsOf(trx, ws, kind, subjects, l);
    const todos = await todosOf(trx, ws, kind, subjects);
    await customRefs(
      l,
      kind,
      rows.map((r) => r.custom),
    );
    return rows.map((row) => [
      row.id,
      renderRecordJson(
        kind,
        row,
        {
          mainQuoteProducts: mainProducts.get(row.id),
          lastEmailOpenAt: emailOpens.get(row.id),
          note: notes.get(row.id),
          submissions: submissions.get(row.id),
          enrollments: enrollments.get(row.id),
          todos: todos.get(row.id),
        },
        l,
      ),
    ]);
  };
}

const renderProductChunk: ChunkRenderer = async (trx, ws, ids, l, prefetched) => {
  const subjects = subjectsOf(ids, prefetched);
  const rows =
    (prefetched as Selectable<ProductTable>[] | undefined) ??
    (await trx
      .selectFrom('products')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('id', 'in', ids)
      .execute());
  const notes = await latestNotes(trx, ws, 'product', subjects, l);
  await customRefs(
    l,
    'product',
    rows.map((r) => r.custom),
  );
  return rows.map((row) => [
    row.id,
    renderRecordJson('product', row, { note: notes.get(row.id) }, l),
  ]);
};

const renderQuoteChunk: ChunkRenderer = async (trx, ws, ids, l, prefetched) => {
  const subjects = subjectsOf(ids, prefetched);
  const rows =
    (prefetched as Selectable<QuoteTable>[] | undefined) ??
    (await trx
      .selectFrom('quotes')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('id', 'in', ids)
      .execute());
  const lineRows = await trx
    .selectFrom('quote_products as qp')
    .leftJoin('products as p', (j) =>
      j.onRef('p.workspace_id', '=', 'qp.workspace_id').onRef('p.id', '=', 'qp.product_id'),
    )
    .selectAll('qp')
    .select('p.kind')
    .where('qp.workspace_id', '=', ws)
    .$call((qb) => ofSubjects(qb, 'qp.quote_id', subjects))
    .orderBy('qp.quote_id')
    .orderBy('qp.position')
    .execute();
  const lines = new Map<string, QuoteLine[]>();
  for (const line of lineRows) {
    const list = lines.get(line.quote_id) ?? [];
    list.push({ ...line, kind: (line.kind ?? '일반') as ProductKind });
    lines.set(line.quote_id, list);
  }
  const notes = await latestNotes(trx, ws, 'quote', subjects, l);
  await customRefs(
    l,
    'quote',
    rows.map((r) => r.custom),
  );
  await customRefs(
    l,
    'quoteProduct',
    lineRows.map((r) => r.custom),
  );
  return rows.map((row) => [
    row.id,
    renderRecordJson('quote', row, { lines: lines.get(row.id), note: notes.get(row.id) }, l),
  ]);
};

/** The chunk renderer of each rendered type. */
export const RENDERERS: Record<RenderedType, ChunkRenderer> = {
  people: renderPeopleChunk,
  organization: renderOrganizationChunk,
  deal: pipelineChunk('deal'),
  lead: pipelineChunk('lead'),
  product: renderProductChunk,
  quote: renderQuoteChunk,
};

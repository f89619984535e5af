/**
 * The facts one record of an import shows (its newest note, counters, todos, submissions,
 * enrollments, quote lines, ...), from what `ImportFacts` gathered from the lines.
 */
import type { ProductKind } from '../domain/quotes.ts';
import type {
  EnrollmentFact,
  LatestNote,
  Ref,
  SubmissionFact,
  TodoFact,
} from '../domain/records.ts';
import type { QuoteLine } from '../render/quote-lines.ts';
import type { Lookups } from '../store/read-model/lookups.ts';
import type { RecordFacts } from '../store/read-model/record-json.ts';
import type { RenderedType } from '../store/read-model/rendered-types.ts';
import type {
  DatedEntry,
  ImportFacts,
  LineEntry,
  NoteEntry,
  SubmissionColumn,
} from './import-facts.ts';

const SUBMISSION_COLUMN_OF: Partial<Record<RenderedType, SubmissionColumn>> = {
  people: 'people_id',
  organization: 'organization_id',
  deal: 'deal_id',
  lead: 'lead_id',
};

/** Oldest first, ties by id: the `ORDER BY at, id` of the read model's queries (ASCII text). */
function byTime(a: DatedEntry, b: DatedEntry): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The facts of one record of the file, with the names of what they refer to from `l`;
 * `kindOf` gives the kind of each product (the workspace's and the file's).
 */
export function recordFactsOf(
  facts: ImportFacts,
  type: RenderedType,
  row: { id: string },
  l: Lookups,
  kindOf: (productId: string) => string | undefined,
): RecordFacts {
  const id = row.id;
  const f: RecordFacts = {};
  const note = facts.notes.get(type)!.get(id);
  if (note) f.note = noteOf(note, l);
  if (type === 'product') return f;
  if (type === 'quote') {
    f.lines = linesOf(facts, id, kindOf);
    return f;
  }
  const todos = facts.kept('todo', facts.todos.get(type)!.get(id));
  if (todos)
    f.todos = todos.map(
      (t) => ({ id: t.id, title: t.title, dueAt: t.due_at, done: t.done }) satisfies TodoFact,
    );
  const submissions = facts.submissions.get(SUBMISSION_COLUMN_OF[type]!)!.get(id);
  if (submissions) {
    f.submissions = submissions
      .sort(byTime)
      .map((s): SubmissionFact => ({ webForm: l.ref('webForm', s.ref), createdAt: s.at }));
  }
  if (type === 'people' || type === 'organization') {
    f.counts = facts.counts[type].get(id);
  }
  if (type === 'organization') {
    const enrollments = facts.organizationEnrollments.get(id);
    if (enrollments) f.sequences = sequencesOf(facts, enrollments, l);
    return f;
  }
  const enrollments = facts.enrollments.get(type)!.get(id);
  if (enrollments) {
    f.enrollments = enrollments.sort(byTime).map(
      (e): EnrollmentFact => ({
        sequence: l.ref('sequence', e.ref),
        enrolledAt: e.at,
        active: e.active,
      }),
    );
  }
  if (type === 'deal' || type === 'lead') {
    f.lastEmailOpenAt = facts.emailOpens[type].get(id);
    f.mainQuoteProducts = mainQuoteProductsOf(facts, type, id, l);
  }
  return f;
}

function noteOf(note: NoteEntry, l: Lookups): LatestNote {
  return { text: note.text, createdAt: note.created_at, author: l.userRef(note.author_id) };
}

/** Lines of a quote in position order, ties in file order (the line index's order). */
function linesOf(
  facts: ImportFacts,
  quoteId: string,
  kindOf: (productId: string) => string | undefined,
): QuoteLine[] {
  const lines = facts.kept('quoteLine', facts.lines.get(quoteId));
  if (!lines) return [];
  return [...lines]
    .sort((a, b) => a.position - b.position)
    .map(
      (line) =>
        ({
          id: line.id,
          quote_id: quoteId,
          position: line.position,
          product_id: line.product_id,
          price: line.price,
          quantity: line.quantity,
          payment_count: line.payment_count,
          payment_start_at: line.payment_start_at,
          custom: line.custom,
          // A line's product left out again reads as no product: '일반'.
          kind: ((facts.isRemoved('product', line.product_id)
            ? undefined
            : kindOf(line.product_id)) ?? '일반') as ProductKind,
        }) as QuoteLine,
    );
}

/** Custom values of a quote's lines (JSON), for the Ref names they need. */
export function lineCustomsOf(facts: ImportFacts, quoteId: string): string[] {
  return (facts.kept('quoteLine', facts.lines.get(quoteId)) ?? []).map((l) => l.custom);
}

/** Products of the main quote's lines, in line order; undefined without a main quote. */
function mainQuoteProductsOf(
  facts: ImportFacts,
  type: 'deal' | 'lead',
  id: string,
  l: Lookups,
): Ref[] | undefined {
  const quotes = facts.mainQuotes[type].get(id)?.filter((q) => !facts.isRemoved('quote', q));
  if (!quotes || quotes.length === 0) return undefined;
  const lines: LineEntry[] = [];
  for (const quote of quotes)
    lines.push(...(facts.kept('quoteLine', facts.lines.get(quote)) ?? []));
  return lines
    .sort((a, b) => a.position - b.position)
    .map((line) => l.ref('product', line.product_id));
}

/** Sequences any person of the organization is enrolled in, each once, first enrollment first. */
function sequencesOf(facts: ImportFacts, enrollments: DatedEntry[], l: Lookups): Ref[] {
  const removed = facts.removed.get('person');
  const seen = new Set<string>();
  const refs: Ref[] = [];
  for (const e of enrollments.sort(byTime)) {
    if (removed?.has(e.person!) || seen.has(e.ref)) continue;
    seen.add(e.ref);
    refs.push(l.ref('sequence', e.ref));
  }
  return refs;
}

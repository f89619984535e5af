import type { ProductKind } from '../domain/quotes.ts';
import type {
  DealCounts,
  EnrollmentFact,
  LatestNote,
  Ref,
  SubmissionFact,
  TodoFact,
} from '../domain/records.ts';
import type { QuoteLine } from '../render/quotes.ts';
import type { Lookups } from '../store/read-model/lookups.ts';
import type { RecordFacts } from '../store/read-model/record-json.ts';
import type { RenderedType } from '../store/read-model/rendered-types.ts';

/** A checked line of the file. */
type Line = Record<string, unknown>;

/** Subject types of notes, todos and enrollments, as stored. */
type Subject = RenderedType;

interface NoteEntry {
  id: string;
  text: string;
  created_at: string;
  author_id: string | null;
}

interface TodoEntry {
  id: string;
  title: string;
  due_at: string | null;
  done: boolean;
}

/** A submission (`ref`: its web form) or an enrollment (`ref`: its sequence). */
interface DatedEntry {
  id: string;
  at: string;
  ref: string;
  active: boolean;
  /** Enrollments of people, gathered for their organization: the person. */
  person?: string;
}

interface LineEntry {
  id: string;
  position: number;
  product_id: string;
  price: number;
  quantity: number;
  payment_count: number | null;
  payment_start_at: string | null;
  custom: string;
}

const SUBMISSION_COLUMNS = ['people_id', 'organization_id', 'deal_id', 'lead_id'] as const;
type SubmissionColumn = (typeof SUBMISSION_COLUMNS)[number];
const SUBMISSION_COLUMN_OF: Partial<Record<RenderedType, SubmissionColumn>> = {
  people: 'people_id',
  organization: 'organization_id',
  deal: 'deal_id',
  lead: 'lead_id',
};

/** A deal's or lead's contribution to the counters of its person and organization. */
export interface Counted {
  people_id: string | null;
  organization_id: string | null;
  /** Deals only. */
  outcome?: string;
}

function subjectMap<V>(): Map<Subject, Map<string, V>> {
  return new Map(
    (['people', 'organization', 'deal', 'lead', 'product', 'quote'] as const).map((s) => [
      s,
      new Map<string, V>(),
    ]),
  );
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Oldest first, ties by id: the `ORDER BY at, id` of the read model's queries (ASCII text). */
function byTime(a: DatedEntry, b: DatedEntry): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * What an import's lines say about the records they bring (people, organizations, deals,
 * leads, products, quotes), gathered as the lines are read: the facts their stored JSON shows
 * (DECISIONS 5), which the read model would otherwise query once the rows are written. With
 * them the import renders each record once, when it writes it, after the last line. They
 * hold what the records show, not the lines: the newest note of each record, counters, ids,
 * times and names.
 *
 * Only records new in the file are rendered from these facts: nothing the workspace held
 * before can refer to a record new in the file, so the file holds all their facts.
 */
export class ImportFacts {
  /** Names of the file's people, organizations, deals and products. */
  readonly names = {
    people: new Map<string, string>(),
    organization: new Map<string, string>(),
    deal: new Map<string, string>(),
    product: new Map<string, string>(),
  };
  /** The organization of each person of the file that has one. */
  private readonly organizationOf = new Map<string, string>();
  private readonly counts = {
    people: new Map<string, DealCounts>(),
    organization: new Map<string, DealCounts>(),
  };
  private readonly notes = subjectMap<NoteEntry>();
  private readonly todos = subjectMap<TodoEntry[]>();
  private readonly submissions = new Map<SubmissionColumn, Map<string, DatedEntry[]>>(
    SUBMISSION_COLUMNS.map((c) => [c, new Map()]),
  );
  private readonly enrollments = subjectMap<DatedEntry[]>();
  /** Enrollments of each organization's people. */
  private readonly organizationEnrollments = new Map<string, DatedEntry[]>();
  /** Main quotes of each deal and lead. */
  private readonly mainQuotes = {
    deal: new Map<string, string[]>(),
    lead: new Map<string, string[]>(),
  };
  private readonly lines = new Map<string, LineEntry[]>();
  private readonly emailOpens = {
    deal: new Map<string, string>(),
    lead: new Map<string, string>(),
  };
  /** Records taken out again (a custom Ref value naming no record), by line type. */
  private readonly removed = new Map<string, Set<string>>();

  /** Takes in one accepted line of `type`. */
  add(type: string, r: Line): void {
    switch (type) {
      case 'product':
        this.names.product.set(r.id as string, r.name as string);
        return;
      case 'organization':
        this.names.organization.set(r.id as string, r.name as string);
        return;
      case 'person':
        this.names.people.set(r.id as string, r.name as string);
        if (r.organization_id !== null) {
          this.organizationOf.set(r.id as string, r.organization_id as string);
        }
        return;
      case 'deal':
        this.names.deal.set(r.id as string, r.name as string);
        this.count(r as unknown as Counted, 1);
        return;
      case 'lead':
        this.count(r as unknown as Counted, 1);
        return;
      case 'quote':
        if (r.is_main === true) {
          const subjects = r.deal_id !== null ? this.mainQuotes.deal : this.mainQuotes.lead;
          push(subjects, (r.deal_id ?? r.lead_id) as string, r.id as string);
        }
        return;
      case 'quoteLine':
        push(this.lines, r.quote_id as string, {
          id: r.id as string,
          position: r.position as number,
          product_id: r.product_id as string,
          price: r.price as number,
          quantity: r.quantity as number,
          payment_count: r.payment_count as number | null,
          payment_start_at: r.payment_start_at as string | null,
          custom: JSON.stringify(r.custom),
        });
        return;
      case 'note': {
        const notes = this.notes.get(r.subject_type as Subject)!;
        const seen = notes.get(r.subject_id as string);
        const created = r.created_at as string;
        // The newest note, ties by id, as `latestNotes` picks it.
        if (
          !seen ||
          created > seen.created_at ||
          (created === seen.created_at && (r.id as string) > seen.id)
        ) {
          notes.set(r.subject_id as string, {
            id: r.id as string,
            text: r.text as string,
            created_at: created,
            author_id: r.author_id as string | null,
          });
        }
        return;
      }
      case 'todo':
        push(this.todos.get(r.subject_type as Subject)!, r.subject_id as string, {
          id: r.id as string,
          title: r.title as string,
          due_at: r.due_at as string | null,
          done: r.done === true,
        });
        return;
      case 'submission':
        for (const column of SUBMISSION_COLUMNS) {
          const subject = r[column];
          if (subject === null) continue;
          push(this.submissions.get(column)!, subject as string, {
            id: r.id as string,
            at: r.created_at as string,
            ref: r.web_form_id as string,
            active: false,
          });
        }
        return;
      case 'enrollment': {
        const entry: DatedEntry = {
          id: r.id as string,
          at: r.enrolled_at as string,
          ref: r.sequence_id as string,
          active: r.active === true,
        };
        push(this.enrollments.get(r.subject_type as Subject)!, r.subject_id as string, entry);
        if (r.subject_type === 'people') {
          const organization = this.organizationOf.get(r.subject_id as string);
          if (organization !== undefined) {
            push(this.organizationEnrollments, organization, {
              ...entry,
              person: r.subject_id as string,
            });
          }
        }
        return;
      }
      case 'activity':
        if (r.kind === 'emailOpen' && (r.subject_type === 'deal' || r.subject_type === 'lead')) {
          const opens = this.emailOpens[r.subject_type];
          const last = opens.get(r.subject_id as string);
          if (last === undefined || (r.date as string) > last) {
            opens.set(r.subject_id as string, r.date as string);
          }
        }
        return;
    }
  }

  private count(r: Counted, n: number): void {
    for (const [column, counters] of [
      [r.people_id, this.counts.people],
      [r.organization_id, this.counts.organization],
    ] as const) {
      if (column === null) continue;
      let c = counters.get(column);
      if (!c) {
        c = { leads: 0, inProgress: 0, won: 0, lost: 0 };
        counters.set(column, c);
      }
      if (r.outcome === undefined) c.leads += n;
      else if (r.outcome === 'Won') c.won += n;
      else if (r.outcome === 'Lost') c.lost += n;
      else c.inProgress += n;
    }
  }

  /**
   * Takes a record out again: it is not written, and what it contributed to other records
   * (counters, names, main quote products, lines, todos) goes with it. `counted`: a deal's
   * or lead's person, organization and outcome.
   */
  remove(type: string, id: string, counted?: Counted): void {
    let ids = this.removed.get(type);
    if (!ids) {
      ids = new Set();
      this.removed.set(type, ids);
    }
    if (ids.has(id)) return;
    ids.add(id);
    if (counted) this.count(counted, -1);
    if (type === 'person') this.names.people.delete(id);
    else if (type === 'organization') this.names.organization.delete(id);
    else if (type === 'deal') this.names.deal.delete(id);
    else if (type === 'product') this.names.product.delete(id);
  }

  /** True when the record of line type `type` was taken out again. */
  isRemoved(type: string, id: string): boolean {
    return this.removed.get(type)?.has(id) === true;
  }

  private kept<T extends { id: string }>(type: string, list: T[] | undefined): T[] | undefined {
    const removed = this.removed.get(type);
    return list && removed ? list.filter((e) => !removed.has(e.id)) : list;
  }

  /**
   * The facts of one record of the file, with the names of what they refer to from `l`;
   * `kindOf` gives the kind of each product (the workspace's and the file's).
   */
  of(
    type: RenderedType,
    row: { id: string },
    l: Lookups,
    kindOf: (productId: string) => string | undefined,
  ): RecordFacts {
    const id = row.id;
    const f: RecordFacts = {};
    const note = this.notes.get(type)!.get(id);
    if (note) f.note = this.noteOf(note, l);
    if (type === 'product') return f;
    if (type === 'quote') {
      f.lines = this.linesOf(id, kindOf);
      return f;
    }
    const todos = this.kept('todo', this.todos.get(type)!.get(id));
    if (todos)
      f.todos = todos.map(
        (t) => ({ id: t.id, title: t.title, dueAt: t.due_at, done: t.done }) satisfies TodoFact,
      );
    const submissions = this.submissions.get(SUBMISSION_COLUMN_OF[type]!)!.get(id);
    if (submissions) {
      f.submissions = submissions
        .sort(byTime)
        .map((s): SubmissionFact => ({ webForm: l.ref('webForm', s.ref), createdAt: s.at }));
    }
    if (type === 'people' || type === 'organization') {
      f.counts = this.counts[type].get(id);
    }
    if (type === 'organization') {
      const enrollments = this.organizationEnrollments.get(id);
      if (enrollments) f.sequences = this.sequencesOf(enrollments, l);
      return f;
    }
    const enrollments = this.enrollments.get(type)!.get(id);
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
      f.lastEmailOpenAt = this.emailOpens[type].get(id);
      f.mainQuoteProducts = this.mainQuoteProductsOf(type, id, l);
    }
    return f;
  }

  private noteOf(note: NoteEntry, l: Lookups): LatestNote {
    return { text: note.text, createdAt: note.created_at, author: l.userRef(note.author_id) };
  }

  /** Lines of a quote in position order, ties in file order (the line index's order). */
  private linesOf(quoteId: string, kindOf: (productId: string) => string | undefined): QuoteLine[] {
    const lines = this.kept('quoteLine', this.lines.get(quoteId));
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
            kind: ((this.isRemoved('product', line.product_id)
              ? undefined
              : kindOf(line.product_id)) ?? '일반') as ProductKind,
          }) as QuoteLine,
      );
  }

  /** Custom values of a quote's lines (JSON), for the Ref names they need. */
  lineCustomsOf(quoteId: string): string[] {
    return (this.kept('quoteLine', this.lines.get(quoteId)) ?? []).map((l) => l.custom);
  }

  /** Products of the main quote's lines, in line order; undefined without a main quote. */
  private mainQuoteProductsOf(type: 'deal' | 'lead', id: string, l: Lookups): Ref[] | undefined {
    const quotes = this.mainQuotes[type].get(id)?.filter((q) => !this.isRemoved('quote', q));
    if (!quotes || quotes.length === 0) return undefined;
    const lines: LineEntry[] = [];
    for (const quote of quotes)
      lines.push(...(this.kept('quoteLine', this.lines.get(quote)) ?? []));
    return lines
      .sort((a, b) => a.position - b.position)
      .map((line) => l.ref('product', line.product_id));
  }

  /** Sequences any person of the organization is enrolled in, each once, first enrollment first. */
  private sequencesOf(enrollments: DatedEntry[], l: Lookups): Ref[] {
    const removed = this.removed.get('person');
    const seen = new Set<string>();
    const refs: Ref[] = [];
    for (const e of enrollments.sort(byTime)) {
      if (removed?.has(e.person!) || seen.has(e.ref)) continue;
      seen.add(e.ref);
      refs.push(l.ref('sequence', e.ref));
    }
    return refs;
  }
}

/**
 * Gathering, as an import's lines are read, what they say about the records they bring
 * (`import-record-facts.ts` gives each record its facts from it).
 */
import type { DealCounts } from '../domain/records.ts';
import type { RenderedType } from '../store/read-model/rendered-types.ts';

/** A checked line of the file. */
type Line = Record<string, unknown>;

/** Subject types of notes, todos and enrollments, as stored. */
type Subject = RenderedType;

/** A record's newest note, as the file gives it. */
export interface NoteEntry {
  id: string;
  text: string;
  created_at: string;
  author_id: string | null;
}

/** A todo of a record. */
export interface TodoEntry {
  id: string;
  title: string;
  due_at: string | null;
  done: boolean;
}

/** A submission (`ref`: its web form) or an enrollment (`ref`: its sequence). */
export interface DatedEntry {
  id: string;
  at: string;
  ref: string;
  active: boolean;
  /** Enrollments of people, gathered for their organization: the person. */
  person?: string;
}

/** A line of a quote; `custom`: its custom values as JSON. */
export interface LineEntry {
  id: string;
  position: number;
  product_id: string;
  price: number;
  quantity: number;
  payment_count: number | null;
  payment_start_at: string | null;
  custom: string;
}

/** The columns of a submission that name its subjects. */
export const SUBMISSION_COLUMNS = ['people_id', 'organization_id', 'deal_id', 'lead_id'] as const;
/** One of `SUBMISSION_COLUMNS`. */
export type SubmissionColumn = (typeof SUBMISSION_COLUMNS)[number];

/** A deal's or lead's contribution to the counters of its person and organization. */
export interface Counted {
  people_id: string | null;
  organization_id: string | null;
  /** Deals only. */
  outcome?: string;
}

function subjectMap<V>(): Map<Subject, Map<string, V>> {
  return new Map(
    (['people', 'organization', 'deal', 'lead', 'product', 'quote', 'customObject'] as const).map(
      (s) => [s, new Map<string, V>()],
    ),
  );
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * What an import's lines say about the records they bring (people, organizations, deals,
 * leads, products, quotes), gathered as the lines are read: the facts their stored JSON shows
 * (docs/decisions.md, Derived fields), which the read model would otherwise query once the rows are
 * written. With them the import renders each record once, when it writes it, after the last line
 * (`recordFactsOf` in `import-record-facts.ts` reads them). They hold what the records show, not
 * the lines: the newest note of each record, counters, ids, times and names.
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
  /** Deal and lead counters of each person and organization. */
  readonly counts = {
    people: new Map<string, DealCounts>(),
    organization: new Map<string, DealCounts>(),
  };
  /** The newest note of each record, by subject type. */
  readonly notes = subjectMap<NoteEntry>();
  /** Todos of each record, by subject type. */
  readonly todos = subjectMap<TodoEntry[]>();
  /** Submissions of each record, by the column that names it. */
  readonly submissions = new Map<SubmissionColumn, Map<string, DatedEntry[]>>(
    SUBMISSION_COLUMNS.map((c) => [c, new Map()]),
  );
  /** Enrollments of each record, by subject type. */
  readonly enrollments = subjectMap<DatedEntry[]>();
  /** Enrollments of each organization's people. */
  readonly organizationEnrollments = new Map<string, DatedEntry[]>();
  /** Main quotes of each deal and lead. */
  readonly mainQuotes = {
    deal: new Map<string, string[]>(),
    lead: new Map<string, string[]>(),
  };
  /** Lines of each quote, in file order. */
  readonly lines = new Map<string, LineEntry[]>();
  /** The newest e-mail open of each deal and lead. */
  readonly emailOpens = {
    deal: new Map<string, string>(),
    lead: new Map<string, string>(),
  };
  /** Records taken out again (a custom Ref value naming no record), by line type. */
  readonly removed = new Map<string, Set<string>>();

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

  /** `list` without the records of line type `type` taken out again. */
  kept<T extends { id: string }>(type: string, list: T[] | undefined): T[] | undefined {
    const removed = this.removed.get(type);
    return list && removed ? list.filter((e) => !removed.has(e.id)) : list;
  }
}

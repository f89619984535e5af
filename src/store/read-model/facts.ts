import { sql } from 'kysely';
import type { ProductKind } from '../../domain/quotes.ts';
import type {
  DealCounts,
  EnrollmentFact,
  LatestNote,
  Ref,
  SubmissionFact,
  TodoFact,
} from '../../domain/records.ts';
import type { SubjectType } from '../../model/tables.ts';
import type { QuoteLine } from '../../render/quote-lines.ts';
import { CHUNK } from '../by-id.ts';
import type { Executor } from '../database.ts';
import type { Lookups } from './lookups.ts';

/**
 * The records facts are read for: a list of ids, or every id from `from` to `to`. A full
 * refresh pages through a type in id order, so each page is such a range, and one index
 * range reads faster than 500 ids bound one by one.
 */
export type Subjects = readonly string[] | { readonly from: string; readonly to: string };

/** Restricts a query to the rows whose `column` is one of the subjects. */
export function ofSubjects<QB>(qb: QB, column: string, subjects: Subjects): QB {
  const q = qb as unknown as Where;
  const out =
    'from' in subjects
      ? q.where(column, '>=', subjects.from).where(column, '<=', subjects.to)
      : q.where(column, 'in', subjects);
  return out as unknown as QB;
}

interface Where {
  where(column: string, op: string, value: unknown): Where;
}

/** Groups rows by a key, keeping their order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

/** The newest note of each record. */
export async function latestNotes(
  db: Executor,
  workspaceId: string,
  subjectType: SubjectType,
  subjects: Subjects,
  lookups: Lookups,
): Promise<Map<string, LatestNote>> {
  const rows = await db
    .selectFrom('notes')
    .select(['subject_id', 'text', 'created_at', 'author_id', 'id'])
    .where('workspace_id', '=', workspaceId)
    .where('subject_type', '=', subjectType)
    .$call((qb) => ofSubjects(qb, 'subject_id', subjects))
    .execute();
  // The newest note of each record is picked here, not by an ORDER BY: without table
  // statistics, SQLite would serve that ORDER BY from the workspace-wide list index,
  // scanning every note of the workspace (4 ms a write at 5,000 notes).
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const seen = newest.get(row.subject_id);
    if (
      !seen ||
      row.created_at > seen.created_at ||
      (row.created_at === seen.created_at && row.id > seen.id)
    ) {
      newest.set(row.subject_id, row);
    }
  }
  const out = new Map<string, LatestNote>();
  for (const [subjectId, row] of newest) {
    out.set(subjectId, {
      text: row.text,
      createdAt: row.created_at,
      author: lookups.userRef(row.author_id),
    });
  }
  return out;
}

/** Todos of each record. */
export async function todosOf(
  db: Executor,
  workspaceId: string,
  subjectType: SubjectType,
  subjects: Subjects,
): Promise<Map<string, TodoFact[]>> {
  const rows = await db
    .selectFrom('todos')
    .select(['subject_id', 'id', 'title', 'due_at', 'done'])
    .where('workspace_id', '=', workspaceId)
    .where('subject_type', '=', subjectType)
    .$call((qb) => ofSubjects(qb, 'subject_id', subjects))
    .execute();
  const facts = rows.map((r) => ({
    subjectId: r.subject_id,
    fact: { id: r.id, title: r.title, dueAt: r.due_at, done: r.done === 1 } satisfies TodoFact,
  }));
  const out = new Map<string, TodoFact[]>();
  for (const [id, list] of groupBy(facts, (f) => f.subjectId))
    out.set(
      id,
      list.map((f) => f.fact),
    );
  return out;
}

/** Web-form submissions linked to each record, oldest first. */
export async function submissionsOf(
  db: Executor,
  workspaceId: string,
  column: 'people_id' | 'organization_id' | 'deal_id' | 'lead_id',
  subjects: Subjects,
  lookups: Lookups,
): Promise<Map<string, SubmissionFact[]>> {
  const rows = await db
    .selectFrom('web_form_submissions')
    .select([`${column} as subject_id`, 'web_form_id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, column, subjects))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const out = new Map<string, SubmissionFact[]>();
  for (const [id, list] of groupBy(rows, (r) => r.subject_id as string)) {
    out.set(
      id,
      list.map((r) => ({
        webForm: lookups.ref('webForm', r.web_form_id),
        createdAt: r.created_at,
      })),
    );
  }
  return out;
}

/** Sequence enrollments of each record, oldest first. */
export async function enrollmentsOf(
  db: Executor,
  workspaceId: string,
  subjectType: SubjectType,
  subjects: Subjects,
  lookups: Lookups,
): Promise<Map<string, EnrollmentFact[]>> {
  const rows = await db
    .selectFrom('sequence_enrollments')
    .select(['subject_id', 'sequence_id', 'enrolled_at', 'active'])
    .where('workspace_id', '=', workspaceId)
    .where('subject_type', '=', subjectType)
    .$call((qb) => ofSubjects(qb, 'subject_id', subjects))
    .orderBy('enrolled_at')
    .orderBy('id')
    .execute();
  const out = new Map<string, EnrollmentFact[]>();
  for (const [id, list] of groupBy(rows, (r) => r.subject_id)) {
    out.set(
      id,
      list.map((r) => ({
        sequence: lookups.ref('sequence', r.sequence_id),
        enrolledAt: r.enrolled_at,
        active: r.active === 1,
      })),
    );
  }
  return out;
}

/** Sequences any person of each organization is enrolled in, each once, first enrollment first. */
export async function organizationSequences(
  db: Executor,
  workspaceId: string,
  organizationIds: Subjects,
  lookups: Lookups,
): Promise<Map<string, Ref[]>> {
  // The organizations' people first, then their enrollments: as one join, SQLite reads
  // every enrollment of the workspace for each chunk of organizations.
  const people = await db
    .selectFrom('people')
    .select(['id', 'organization_id'])
    .where('workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, 'organization_id', organizationIds))
    .execute();
  const organizationOf = new Map(people.map((p) => [p.id, p.organization_id as string]));
  const peopleIds = [...organizationOf.keys()];
  const rows: { subject_id: string; sequence_id: string; enrolled_at: string; id: string }[] = [];
  for (let i = 0; i < peopleIds.length; i += CHUNK) {
    const chunk = await db
      .selectFrom('sequence_enrollments')
      .select(['subject_id', 'sequence_id', 'enrolled_at', 'id'])
      .where('workspace_id', '=', workspaceId)
      .where('subject_type', '=', 'people')
      .where('subject_id', 'in', peopleIds.slice(i, i + CHUNK))
      .execute();
    rows.push(...chunk);
  }
  // Oldest first, ties by id (ASCII text: the same order as SQLite's).
  rows.sort((a, b) => compareText(a.enrolled_at, b.enrolled_at) || compareText(a.id, b.id));
  const out = new Map<string, Ref[]>();
  for (const [id, list] of groupBy(rows, (r) => organizationOf.get(r.subject_id)!)) {
    const seen = new Set<string>();
    const refs: Ref[] = [];
    for (const r of list) {
      if (seen.has(r.sequence_id)) continue;
      seen.add(r.sequence_id);
      refs.push(lookups.ref('sequence', r.sequence_id));
    }
    out.set(id, refs);
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Leads and deals (by outcome) of each person or organization. */
export async function dealCountsOf(
  db: Executor,
  workspaceId: string,
  column: 'people_id' | 'organization_id',
  subjects: Subjects,
): Promise<Map<string, DealCounts>> {
  const out = new Map<string, DealCounts>();
  const counts = (id: string): DealCounts => {
    let c = out.get(id);
    if (!c) {
      c = { leads: 0, inProgress: 0, won: 0, lost: 0 };
      out.set(id, c);
    }
    return c;
  };
  const deals = await db
    .selectFrom('deals')
    .select([`${column} as subject_id`, 'outcome', sql<number>`count(*)`.as('n')])
    .where('workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, column, subjects))
    .groupBy([column, 'outcome'])
    .execute();
  for (const row of deals) {
    const c = counts(row.subject_id as string);
    const n = Number(row.n);
    if (row.outcome === 'Won') c.won += n;
    else if (row.outcome === 'Lost') c.lost += n;
    else c.inProgress += n;
  }
  const leads = await db
    .selectFrom('leads')
    .select([`${column} as subject_id`, sql<number>`count(*)`.as('n')])
    .where('workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, column, subjects))
    .groupBy(column)
    .execute();
  for (const row of leads) counts(row.subject_id as string).leads += Number(row.n);
  return out;
}

/** Time of the newest `emailOpen` activity of each deal or lead. */
export async function lastEmailOpens(
  db: Executor,
  workspaceId: string,
  subjectType: 'deal' | 'lead',
  subjects: Subjects,
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('activities')
    .select(['subject_id', sql<string>`max(date)`.as('last')])
    .where('workspace_id', '=', workspaceId)
    .where('subject_type', '=', subjectType)
    .$call((qb) => ofSubjects(qb, 'subject_id', subjects))
    .where('type', '=', 'emailOpen')
    .groupBy('subject_id')
    .execute();
  return new Map(rows.map((r) => [r.subject_id, r.last]));
}

/** Products of the main quote's lines of each deal or lead, in line order. */
export async function mainQuoteProducts(
  db: Executor,
  workspaceId: string,
  column: 'deal_id' | 'lead_id',
  subjects: Subjects,
  lookups: Lookups,
): Promise<Map<string, Ref[]>> {
  const rows = await db
    .selectFrom('quotes as q')
    .leftJoin('quote_products as qp', (j) =>
      j.onRef('qp.workspace_id', '=', 'q.workspace_id').onRef('qp.quote_id', '=', 'q.id'),
    )
    .select([`q.${column} as subject_id`, 'qp.product_id', 'qp.position'])
    .where('q.workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, `q.${column}`, subjects))
    .where('q.is_main', '=', 1)
    .orderBy(`q.${column}`)
    .orderBy('qp.position')
    .execute();
  const out = new Map<string, Ref[]>();
  for (const row of rows) {
    const id = row.subject_id as string;
    let list = out.get(id);
    if (!list) {
      list = [];
      out.set(id, list);
    }
    if (row.product_id) list.push(lookups.ref('product', row.product_id));
  }
  return out;
}

/** The lines of each quote in line order, each with its product's `유형` (`일반` once it is gone). */
export async function quoteLinesOf(
  db: Executor,
  workspaceId: string,
  subjects: Subjects,
): Promise<Map<string, QuoteLine[]>> {
  const rows = await db
    .selectFrom('quote_products as qp')
    .leftJoin('products as p', (j) =>
      j.onRef('p.workspace_id', '=', 'qp.workspace_id').onRef('p.id', '=', 'qp.product_id'),
    )
    .selectAll('qp')
    .select('p.kind')
    .where('qp.workspace_id', '=', workspaceId)
    .$call((qb) => ofSubjects(qb, 'qp.quote_id', subjects))
    .orderBy('qp.quote_id')
    .orderBy('qp.position')
    .execute();
  return groupBy(
    rows.map((line) => ({ ...line, kind: (line.kind ?? '일반') as ProductKind })),
    (line) => line.quote_id,
  );
}

/**
 * The shared field groups (docs/decisions.md, Record keys) and the derived-field rules
 * (docs/decisions.md, Derived fields), as pure functions that write the groups' Korean keys into a
 * record under construction. Each record type's render function calls them in the order of its
 * table.
 */

/** A reference to another record: `{id, name}`. */
export interface Ref {
  id: string;
  name: string;
}

/** The newest note attached directly to a record. */
export interface LatestNote {
  text: string;
  createdAt: string;
  author: Ref | null;
}

/** One web-form submission linked to a record. */
export interface SubmissionFact {
  webForm: Ref;
  createdAt: string;
}

/** One sequence enrollment of a record. */
export interface EnrollmentFact {
  sequence: Ref;
  enrolledAt: string;
  active: boolean;
}

/** One todo attached to a record. */
export interface TodoFact {
  id: string;
  title: string;
  dueAt: string | null;
  done: boolean;
}

/** Deals of a person or organization, counted by outcome. */
export interface DealCounts {
  leads: number;
  inProgress: number;
  won: number;
  lost: number;
}

type RecordDraft = Record<string, unknown>;

/** `리드 개수` … `실패된 딜 개수`: leads and deals of the record, deals by outcome. */
export function putDealCounters(record: RecordDraft, counts: DealCounts): void {
  record['리드 개수'] = counts.leads;
  record['딜 개수'] = counts.inProgress + counts.won + counts.lost;
  record['진행중 딜 개수'] = counts.inProgress;
  record['성사된 딜 개수'] = counts.won;
  record['실패된 딜 개수'] = counts.lost;
}

/** NOTE group: the newest note's text, time and author. */
export function putNoteGroup(record: RecordDraft, note: LatestNote | undefined): void {
  record['최근 작성된 노트'] = note ? note.text : null;
  record['최근 노트 작성일'] = note ? note.createdAt : null;
  record['최근 노트 작성자'] = note ? note.author : null;
}

/** WEBFORM group from the record's submissions, oldest first. */
export function putWebFormGroup(record: RecordDraft, submissions: readonly SubmissionFact[]): void {
  const latest = submissions[submissions.length - 1];
  record['최근 제출된 웹폼'] = latest ? latest.webForm : null;
  record['최근 웹폼 제출 날짜'] = latest ? latest.createdAt : null;
}

/** `제출된 웹폼 목록`: each form once, in first-submission order (`[]` when none). */
export function submittedForms(submissions: readonly SubmissionFact[]): Ref[] {
  return distinctRefs(submissions.map((s) => s.webForm));
}

/**
 * SEQUENCE group from the record's enrollments, oldest first; `등록된 시퀀스 목록` is left
 * to the caller, because it closes the fixed keys (docs/decisions.md, Record keys).
 */
export function putSequenceGroup(
  record: RecordDraft,
  enrollments: readonly EnrollmentFact[],
): void {
  const latest = enrollments[enrollments.length - 1];
  record['최근 등록한 시퀀스'] = latest ? latest.sequence : null;
  record['최근 시퀀스 등록일'] = latest ? latest.enrolledAt : null;
  record['누적 시퀀스 등록수'] = enrollments.length;
  record['현재 진행중인 시퀀스 여부'] = enrollments.some((e) => e.active);
}

/** `등록된 시퀀스 목록` of people, deals and leads: each sequence once, `null` if never enrolled. */
export function enrolledSequences(enrollments: readonly EnrollmentFact[]): Ref[] | null {
  return enrollments.length === 0 ? null : distinctRefs(enrollments.map((e) => e.sequence));
}

/** OWNERSHIP group. */
export function putOwnership(
  record: RecordDraft,
  owner: Ref | null,
  createdAt: string,
  teams: Ref[],
  updatedAt: string,
): void {
  record['담당자'] = owner;
  record['생성 날짜'] = createdAt;
  record['팀'] = teams;
  record['수정 날짜'] = updatedAt;
}

/** TODO group: title of the open todo due first (`null` if none) and the three counts. */
export function putTodoGroup(record: RecordDraft, todos: readonly TodoFact[]): void {
  let next: TodoFact | undefined;
  let done = 0;
  for (const todo of todos) {
    if (todo.done) {
      done += 1;
    } else if (!next || compareDue(todo, next) < 0) {
      next = todo;
    }
  }
  record['다음 TODO'] = next ? next.title : null;
  record['전체 TODO'] = todos.length;
  record['완료 TODO'] = done;
  record['미완료 TODO'] = todos.length - done;
}

/** Open todos order by due time, undated ones last, ties by id. */
function compareDue(a: TodoFact, b: TodoFact): number {
  if (a.dueAt !== b.dueAt) {
    if (a.dueAt === null) return 1;
    if (b.dueAt === null) return -1;
    return a.dueAt < b.dueAt ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Each Ref once, in first-seen order. */
export function distinctRefs(refs: readonly Ref[]): Ref[] {
  const seen = new Set<string>();
  const out: Ref[] = [];
  for (const ref of refs) {
    if (seen.has(ref.id)) continue;
    seen.add(ref.id);
    out.push(ref);
  }
  return out;
}

/** The body of a create or update answer: `{id, name, createdAt}` or `{id, name, updatedAt}`. */
export type Written =
  | { id: string; name: string; createdAt: string }
  | { id: string; name: string; updatedAt: string };

/**
 * Sequence enrollments as lines: the API shows an enrollment's person, not the deal or lead
 * it holds, nor whether it still runs; both are worked out from the records' sequence keys.
 */
import { type Line, type Rec, refId, refIds } from './refs.ts';

/**
 * The enrollments as lines. The API shows each enrollment's person: the person enrolled,
 * or the person of the deal or lead enrolled. It is placed on the record of that person
 * (the person, or one of its deals and leads) whose sequence keys name its sequence:
 * first the one whose newest enrollment it is (same sequence, same time), then one with
 * enrollments still unplaced (`누적 시퀀스 등록수`). Of each record's enrollments, the newest
 * is active when the record says one is (`현재 진행중인 시퀀스 여부`), the others not: what
 * the records show of them.
 */
export function enrollmentLines(
  pulled: [string, Rec][],
  people: Rec[],
  deals: Rec[],
  leads: Rec[],
): { lines: Line[]; unplaced: number } {
  interface Candidate {
    type: string;
    r: Rec;
    left: number;
  }
  /** The records that may hold an enrollment, by the person the enrollment list shows. */
  const byPerson = new Map<string, Candidate[]>();
  const add = (type: string, r: Rec, person: unknown) => {
    const left = Number(r['누적 시퀀스 등록수'] ?? 0);
    if (left <= 0 || typeof person !== 'string') return;
    const list = byPerson.get(person) ?? [];
    list.push({ type, r, left });
    byPerson.set(person, list);
  };
  for (const r of people) add('people', r, r.id);
  for (const r of deals) add('deal', r, r.peopleId);
  for (const r of leads) add('lead', r, r.peopleId);
  const activeOf = new Map<string, boolean>();
  for (const r of [...people, ...deals, ...leads])
    activeOf.set(r.id as string, r['현재 진행중인 시퀀스 여부'] === true);
  const placed: { line: Line; at: string }[] = [];
  const take = (sequenceId: string, e: Rec, c: Candidate) => {
    c.left--;
    placed.push({
      line: {
        type: 'enrollment',
        id: e._id,
        sequence_id: sequenceId,
        subject_type: c.type,
        subject_id: c.r.id,
        enrolled_at: e.createdAt,
        active: false,
      },
      at: e.createdAt as string,
    });
  };
  const later: [string, Rec][] = [];
  for (const [sequenceId, e] of pulled) {
    const exact = (byPerson.get(e.peopleId as string) ?? []).find(
      (c) =>
        c.left > 0 &&
        refId(c.r['최근 등록한 시퀀스']) === sequenceId &&
        c.r['최근 시퀀스 등록일'] === e.createdAt,
    );
    if (exact) take(sequenceId, e, exact);
    else later.push([sequenceId, e]);
  }
  let unplaced = 0;
  for (const [sequenceId, e] of later) {
    const c = (byPerson.get(e.peopleId as string) ?? []).find(
      (c) => c.left > 0 && refIds(c.r['등록된 시퀀스 목록']).includes(sequenceId),
    );
    if (c) take(sequenceId, e, c);
    else unplaced++;
  }
  // The newest enrollment of each record carries the record's "in a sequence now".
  const newest = new Map<string, { line: Line; at: string }>();
  for (const p of placed) {
    const key = p.line.subject_id as string;
    const seen = newest.get(key);
    if (
      !seen ||
      seen.at < p.at ||
      (seen.at === p.at && (seen.line.id as string) < (p.line.id as string))
    )
      newest.set(key, p);
  }
  for (const [subjectId, p] of newest) p.line.active = activeOf.get(subjectId) === true;
  return { lines: placed.map((p) => p.line), unplaced };
}

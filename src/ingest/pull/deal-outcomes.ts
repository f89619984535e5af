/**
 * A deal's outcome (`In progress`, `Won`, `Lost`), which a deal's record shows only until a
 * label is set, worked out from what the API shows.
 */
import type { Rec } from './refs.ts';

export const OUTCOMES = ['In progress', 'Won', 'Lost'];

/**
 * Each deal's outcome. It shows as `상태` until a label is set; a labelled deal is in
 * progress while it has no `마감일`, else won or lost: as its person's and organization's
 * counters (`성사된 딜 개수`, `실패된 딜 개수`) leave room for, else as its newest activity
 * that says had it, else won.
 */
export function dealOutcomes(
  deals: Rec[],
  people: Rec[],
  organizations: Rec[],
  lastStatus: Map<string, [string, string]>,
): Map<string, string> {
  const out = new Map<string, string>();
  /** Won and lost deals of each person and organization not yet placed. */
  const left = new Map<string, { Won: number; Lost: number }>();
  for (const r of [...people, ...organizations]) {
    left.set(r.id as string, {
      Won: Number(r['성사된 딜 개수'] ?? 0),
      Lost: Number(r['실패된 딜 개수'] ?? 0),
    });
  }
  const place = (r: Rec, outcome: string) => {
    out.set(r.id as string, outcome);
    if (outcome === 'In progress') return;
    for (const of of [r.peopleId, r.organizationId]) {
      const l = left.get(of as string);
      if (l) l[outcome as 'Won' | 'Lost']--;
    }
  };
  let open: Rec[] = [];
  for (const r of deals) {
    const status = r.상태 as string;
    if (OUTCOMES.includes(status)) place(r, status);
    else if (r.마감일 === null) place(r, 'In progress');
    else open.push(r);
  }
  /** The outcome the counters leave for `r`, when they leave one. */
  const forced = (r: Rec): string | undefined => {
    for (const of of [r.peopleId, r.organizationId]) {
      const l = left.get(of as string);
      if (l && l.Won > 0 && l.Lost <= 0) return 'Won';
      if (l && l.Lost > 0 && l.Won <= 0) return 'Lost';
    }
    return undefined;
  };
  for (let changed = true; changed && open.length > 0; ) {
    changed = false;
    const still: Rec[] = [];
    for (const r of open) {
      const outcome = forced(r);
      if (outcome === undefined) still.push(r);
      else {
        place(r, outcome);
        changed = true;
      }
    }
    open = still;
  }
  for (const r of open) {
    const hint = lastStatus.get(r.id as string)?.[1];
    place(r, hint === 'Lost' ? 'Lost' : 'Won');
  }
  return out;
}

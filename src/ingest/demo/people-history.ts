/** The demo's history of people: changes of their organization, title, phone, e-mail or grade. */
import type { PeopleChange } from '../../resources/people-history/writes.ts';
import type { DemoContext } from './context.ts';
import { HOUR, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generatePeopleHistory(ctx: DemoContext): void {
  const { r } = ctx;
  const gradeField = ctx.field.grade!;
  for (const person of ctx.persons) {
    const changes: PeopleChange[] = [];
    const change = (c: Omit<PeopleChange, 'id' | 'peopleId' | 'ownerId' | 'createdAt'>) => {
      const ms = workTime(r, person.createdMs + HOUR, ctx.base);
      changes.push({
        ...c,
        id: ctx.ids.next(ms),
        peopleId: person.id,
        ownerId: r.chance(0.7) ? person.ownerId : ctx.ownerId(),
        createdAt: iso(ms),
      });
    };
    if (person.org && r.chance(0.15)) {
      change({
        type: 'editOrganizationConnect',
        organizationId: person.org.id,
        fieldName: 'organizationId',
        fieldValue: person.org.id,
      });
    }
    if (
      person.title &&
      person.baseTitle &&
      words.PREVIOUS_TITLE[person.baseTitle] &&
      r.chance(0.12)
    ) {
      change({ type: 'editField', fieldName: '포지션', fieldValue: person.title });
    }
    if (person.phone && r.chance(0.08))
      change({ type: 'editField', fieldName: '전화', fieldValue: person.phone });
    if (person.email && r.chance(0.05))
      change({ type: 'editField', fieldName: '이메일', fieldValue: person.email });
    const grade = person.input.custom?.[gradeField];
    if (typeof grade === 'string' && r.chance(0.1)) {
      change({ type: 'editField', fieldName: '고객 등급', fieldValue: grade });
    }
    if (changes.length === 0) continue;
    ctx.out.history.push(...changes);
    // `수정 날짜` is the last change of the person's own fields.
    let last = person.input.updatedAt!;
    for (const c of changes) if (c.createdAt! > last) last = c.createdAt!;
    person.input.updatedAt = last;
  }
}

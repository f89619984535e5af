/** The demo's todos on deals, leads, people and organizations. */
import type { NewTodo } from '../../resources/todos/writes.ts';
import { addActivity } from './activities.ts';
import type { DemoContext, RecordInfo } from './context.ts';
import { DAY, HOUR, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateTodos(ctx: DemoContext): void {
  const { r } = ctx;
  for (const deal of ctx.deals) {
    const p = deal.closedMs === null ? 0.4 : 0.2;
    if (r.chance(p))
      for (let k = r.int(1, 2); k > 0; k--)
        todo(ctx, 'deal', deal.id, deal.createdMs, deal.endMs, deal.ownerId, deal);
  }
  for (const lead of ctx.leads) {
    if (r.chance(0.3))
      for (let k = r.int(1, 2); k > 0; k--)
        todo(ctx, 'lead', lead.id, lead.createdMs, lead.endMs, lead.ownerId, lead);
  }
  for (const person of ctx.persons) {
    if (r.chance(0.15)) todo(ctx, 'people', person.id, person.createdMs, ctx.base, person.ownerId);
  }
  for (const org of ctx.orgs) {
    if (r.chance(0.15)) todo(ctx, 'organization', org.id, org.createdMs, ctx.base, org.ownerId);
  }
}

function todo(
  ctx: DemoContext,
  subjectType: NewTodo['subjectType'],
  subjectId: string,
  lo: number,
  hi: number,
  ownerId: string,
  record?: RecordInfo,
): void {
  const { r } = ctx;
  const createdMs = workTime(r, lo, hi);
  const id = ctx.ids.next(createdMs);
  const [title, kind] = r.pick(words.TODO_TEXTS[subjectType]);
  const dueMs = workTime(r, createdMs + DAY, createdMs + 14 * DAY);
  const closed = record?.closedMs != null;
  const done = dueMs < ctx.base - 2 * DAY ? r.chance(closed ? 0.95 : 0.8) : r.chance(0.15);
  const doneMs = done ? workTime(r, createdMs, Math.min(ctx.base, dueMs + 2 * DAY)) : null;
  const meeting = kind === '미팅' || kind === '점심';
  const custom: Record<string, unknown> = {};
  if (r.chance(0.8)) {
    custom[ctx.field.priority!] = r.weighted(words.FIELD_OPTIONS.todoPriorities, (p) =>
      p === '보통' ? 3 : 1,
    );
  }
  if (meeting || r.chance(0.3)) custom[ctx.field.minutes!] = r.pick([15, 30, 30, 60, 90]);
  ctx.out.todos.push({
    id,
    subjectType,
    subjectId,
    title,
    kind,
    startAt: meeting ? iso(dueMs - HOUR) : null,
    dueAt: iso(dueMs),
    done,
    doneAt: doneMs === null ? null : iso(doneMs),
    ownerId,
    custom,
    createdAt: iso(createdMs),
  });
  if (record) addActivity(ctx, record, 'todoCreate', createdMs, { todoId: id });
}

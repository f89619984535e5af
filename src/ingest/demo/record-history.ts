/** The demo's history of deals, leads and organizations. */
import type { NewDeal } from '../../resources/deals/writes.ts';
import type { RecordChange } from '../../resources/record-history/writes.ts';
import type { DemoContext } from './context.ts';
import { HOUR, iso, workTime } from './random.ts';

/**
 * Changes of deals, leads and organizations after their creation: a deal's amount or
 * contact, a lead's name, an organization's phone or e-mail. `수정 날짜` follows the last.
 */
export function generateRecordHistory(ctx: DemoContext): void {
  const { r } = ctx;
  const orgInputs = new Map(ctx.out.organizations.map((o) => [o.id!, o]));
  const push = (
    change: Omit<RecordChange, 'id' | 'ownerId' | 'createdAt'>,
    lo: number,
    hi: number,
    ownerId: string,
  ): string => {
    const ms = workTime(r, lo + HOUR, Math.max(lo + HOUR, hi));
    const createdAt = iso(ms);
    ctx.out.recordHistory.push({
      ...change,
      id: ctx.ids.next(ms),
      ownerId: r.chance(0.7) ? ownerId : ctx.ownerId(),
      createdAt,
    });
    return createdAt;
  };
  const bump = (input: { updatedAt?: string }, at: string) => {
    if (!input.updatedAt || at > input.updatedAt) input.updatedAt = at;
  };
  for (const [i, record] of [...ctx.deals, ...ctx.leads].entries()) {
    const showcase = ctx.chunk === 0 && (i === 0 || record === ctx.leads[0]);
    if (!showcase && !r.chance(0.1)) continue;
    const refs = {
      subjectType: record.kind,
      subjectId: record.id,
      peopleId: record.person.id,
      organizationId: record.org?.id ?? null,
    };
    const { amount } = record.input as NewDeal;
    const edits: Omit<RecordChange, 'id' | 'ownerId' | 'createdAt'>[] = [];
    if (record.kind === 'deal' && amount != null) {
      edits.push({ ...refs, type: 'editField', fieldName: '금액', fieldValue: String(amount) });
    } else {
      edits.push({ ...refs, type: 'editField', fieldName: '이름', fieldValue: record.name });
    }
    if (showcase || r.chance(0.3)) {
      edits.push({
        ...refs,
        type: 'editPeopleConnection',
        fieldName: 'peopleId',
        fieldValue: record.person.id,
      });
    }
    for (const edit of edits) {
      bump(record.input, push(edit, record.createdMs, record.endMs, record.ownerId));
    }
  }
  ctx.orgs.forEach((org, i) => {
    if (!(ctx.chunk === 0 && i === 0) && !r.chance(0.08)) return;
    const input = orgInputs.get(org.id)!;
    const field = input.phone || !input.email ? '전화' : '이메일';
    const at = push(
      {
        subjectType: 'organization',
        subjectId: org.id,
        type: 'editField',
        fieldName: field,
        fieldValue: (field === '전화' ? input.phone : input.email) ?? null,
      },
      org.createdMs,
      ctx.base,
      org.ownerId,
    );
    bump(input, at);
  });
}

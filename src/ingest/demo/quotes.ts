/**
 * The demo's quotes of deals and leads with their product lines, and the deal amounts that
 * follow from them.
 */
import type { NewDeal } from '../../resources/deals/writes.ts';
import type { NewQuoteLine } from '../../resources/quotes/writes.ts';
import type { DemoContext, ProductInfo, RecordInfo } from './context.ts';
import { iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateQuotes(ctx: DemoContext, record: RecordInfo): void {
  const { r } = ctx;
  const p =
    record.kind === 'lead'
      ? 0.18
      : record.outcome === 'Won'
        ? 0.95
        : record.stageIndex >= 2
          ? 0.7
          : 0.2;
  if (!r.chance(p)) {
    setDealAmount(ctx, record, null);
    return;
  }
  const count = r.weighted([1, 2, 3], (n) => [6, 3, 1][n - 1]!);
  const times = Array.from({ length: count }, () =>
    workTime(r, record.createdMs, record.endMs),
  ).sort((a, b) => a - b);
  const hasMain = record.outcome === 'Won' || r.chance(record.kind === 'lead' ? 0.7 : 0.85);
  let mainTotal: number | null = null;
  times.forEach((ms, j) => {
    const id = ctx.ids.next(ms);
    const isMain = hasMain && j === count - 1;
    const lines = quoteLines(ctx, ms);
    // The quote's `금액` (docs/decisions.md, Derived fields): `금액 × 수량 × 결제 횟수` summed over its
    // lines.
    let total = 0;
    for (const line of lines) total += line.price * line.quantity * (line.paymentCount ?? 1);
    if (isMain) mainTotal = total;
    const custom: Record<string, unknown> = {};
    if (r.chance(0.9)) custom[ctx.field.validDays!] = r.pick([14, 30, 30, 60]);
    if (r.chance(0.3)) custom[ctx.field.discountReason!] = r.pick(words.DISCOUNT_REASONS);
    const suffix = j === 0 ? '' : j === count - 1 && isMain ? ' (최종)' : ` (수정 ${j})`;
    ctx.out.quotes.push({
      id,
      name: `${record.name} 견적서${suffix}`,
      dealId: record.kind === 'deal' ? record.id : null,
      leadId: record.kind === 'lead' ? record.id : null,
      isMain,
      shareLink: null,
      lines,
      ownerId: record.ownerId,
      custom,
      createdAt: iso(ms),
      updatedAt: iso(ms),
    });
  });
  setDealAmount(ctx, record, mainTotal);
}

/** A deal's `금액`: its main quote's total, else an estimate (or none, early on). */
function setDealAmount(ctx: DemoContext, record: RecordInfo, mainTotal: number | null): void {
  if (record.kind !== 'deal') return;
  const estimate = ctx.r.chance(0.85) ? ctx.r.around(800, 3, 50, 30_000) * 10_000 : null;
  (record.input as NewDeal).amount = mainTotal ?? estimate;
}

function quoteLines(ctx: DemoContext, quoteMs: number): NewQuoteLine[] {
  const { r } = ctx;
  const seats = r.around(15, 3, 2, 400);
  const { plans, addOns, services } = ctx.catalog;
  const chosen: ProductInfo[] = [r.pick(plans)];
  for (const addOn of r.sample(
    addOns,
    r.weighted([0, 1, 2], (n) => [5, 3, 2][n]!),
  ))
    chosen.push(addOn);
  if (r.chance(0.45)) chosen.push(r.pick(services));
  const nextMonth = new Date(quoteMs);
  const startAt = iso(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth() + 1, 1));
  return chosen.map((product) => {
    const custom: Record<string, unknown> = {};
    let price = product.price;
    if (r.chance(0.6)) {
      const rate = r.pick([0, 5, 10, 10, 15, 20]);
      custom[ctx.field.discountRate!] = rate;
      price = Math.round((product.price * (100 - rate)) / 100);
    }
    if (r.chance(0.25)) custom[ctx.field.remark!] = r.pick(words.LINE_REMARKS);
    const quantity =
      product.unit === '사용자'
        ? seats
        : product.unit === '대'
          ? Math.max(1, Math.round(seats / 4))
          : r.int(1, 2);
    const line: NewQuoteLine = {
      id: ctx.ids.next(quoteMs),
      productId: product.id,
      price,
      quantity: product.unit === '워크스페이스' ? 1 : quantity,
      custom,
    };
    if (product.kind === '구독 (월간)') {
      line.paymentCount = 12;
      line.paymentStartAt = startAt;
    } else if (product.kind === '구독 (연간)') {
      line.paymentCount = r.weighted([1, 2, 3], (n) => [7, 2, 1][n - 1]!);
      line.paymentStartAt = startAt;
    }
    return line;
  });
}

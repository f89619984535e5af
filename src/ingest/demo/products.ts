/**
 * The demo's product catalogue (plans, add-ons, support and services), and its groups that
 * quotes draw from.
 */
import type { DemoContext, ProductInfo } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import * as words from './words.ts';

export function generateProducts(ctx: DemoContext): void {
  const { r } = ctx;
  for (const [kind, name, code, price, unit, category] of words.PRODUCTS) {
    const ms = workTime(r, ctx.start - 60 * DAY, ctx.start + 30 * DAY);
    const id = ctx.ids.next(ms);
    const info: ProductInfo = { id, kind, name, code, price, unit, category };
    ctx.products.push(info);
    ctx.productById.set(id, info);
    ctx.out.products.push({
      id,
      name,
      code,
      kind,
      price,
      unit,
      ownerId: ctx.userIds[0]!,
      createdAt: iso(ms),
      updatedAt: iso(r.chance(0.3) ? workTime(r, ms, ctx.base) : ms),
      custom: { [ctx.field.category!]: category, [ctx.field.stock!]: category === '하드웨어' },
    });
  }
  ctx.catalog = {
    plans: ctx.products.filter((p) => p.code.startsWith('CRM-')),
    addOns: ctx.products.filter((p) => p.code.startsWith('ADD-') || p.code.startsWith('SUP-')),
    services: ctx.products.filter((p) => p.kind === '일반'),
  };
}

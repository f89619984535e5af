import { addCalendarMonths } from './time.ts';

/** Product `유형` values (docs/decisions.md, Derived fields). */
export const PRODUCT_KINDS = ['일반', '구독 (월간)', '구독 (연간)'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** Payment schedule and total of one quote line (docs/decisions.md, Derived fields). */
export interface QuoteLineTerms {
  paymentCount: number;
  firstPaymentAt: string;
  lastPaymentAt: string;
  total: number;
}

/**
 * Terms of a quote line: `일반` lines are paid once at the quote's creation; subscription
 * lines `paymentCount` times from `paymentStartAt`, monthly or yearly.
 */
export function quoteLineTerms(line: {
  kind: ProductKind;
  price: number;
  quantity: number;
  paymentCount: number | null;
  paymentStartAt: string | null;
  quoteCreatedAt: string;
}): QuoteLineTerms {
  if (line.kind === '일반') {
    return {
      paymentCount: 1,
      firstPaymentAt: line.quoteCreatedAt,
      lastPaymentAt: line.quoteCreatedAt,
      total: line.price * line.quantity,
    };
  }
  const count = line.paymentCount ?? 1;
  const start = line.paymentStartAt ?? line.quoteCreatedAt;
  const months = line.kind === '구독 (연간)' ? 12 * (count - 1) : count - 1;
  return {
    paymentCount: count,
    firstPaymentAt: start,
    lastPaymentAt: addCalendarMonths(start, months),
    total: line.price * line.quantity * count,
  };
}

/**
 * What a quote's lines add up to (docs/decisions.md, Derived fields): each line's payment terms,
 * from its product's `유형` and the quote's creation, and the quote's 금액, the sum of the lines'
 * 전체금액. The declared keys of `src/domain/record-types/quotes.ts` and `quote-products.ts` name
 * them.
 */
import type { Selectable } from 'kysely';
import { type ProductKind, type QuoteLineTerms, quoteLineTerms } from '../domain/quotes.ts';
import type { QuoteProductTable } from '../model/tables.ts';

/** A quote line with the `유형` of its product. */
export type QuoteLine = Selectable<QuoteProductTable> & { kind: ProductKind };

/** The payment terms of a line of a quote created at `quoteCreatedAt`. */
export function termsOfLine(line: QuoteLine, quoteCreatedAt: string): QuoteLineTerms {
  return quoteLineTerms({
    kind: line.kind,
    price: line.price,
    quantity: line.quantity,
    paymentCount: line.payment_count,
    paymentStartAt: line.payment_start_at,
    quoteCreatedAt,
  });
}

/** A quote's 금액: its lines' 전체금액 added in line order. */
export function quoteAmount(lines: readonly QuoteLine[], quoteCreatedAt: string): number {
  let amount = 0;
  for (const line of lines) amount += termsOfLine(line, quoteCreatedAt).total;
  return amount;
}

/**
 * A line of a quote (quote product, docs/decisions.md, Record keys), declared once
 * (docs/architecture.md, Record types): its payment keys are derived from its terms
 * (docs/decisions.md, Derived fields), two of them from what the quote's body gave.
 */
import { column, declareRecordType, derived } from './declaration.ts';

export const QUOTE_PRODUCT = declareRecordType({
  type: 'quoteProduct',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('productId', 'product_id', 'id', 'body', { bodyKey: 'productId', required: true }),
    column('금액', 'price', 'number', 'body', { bodyKey: 'price' }),
    column('수량', 'quantity', 'number', 'body', { bodyKey: 'amount' }),
    derived('결제 횟수', 'paymentCount', 'positiveInteger', 'number', {
      access: 'body',
      bodyKey: 'paymentCount',
    }),
    derived('시작 결제일', 'firstPaymentAt', 'timestamp', 'date', {
      access: 'body',
      bodyKey: 'paymentStartAt',
    }),
    derived('마지막 결제일', 'lastPaymentAt', 'timestamp', 'date'),
    derived('전체금액', 'lineTotal', 'number', 'number', {
      description: '금액 × 수량 × 결제 횟수',
    }),
  ],
  facts: [],
  customFields: true,
});

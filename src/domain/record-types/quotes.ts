/**
 * The quote record (견적서), declared once (docs/architecture.md, Record types): its lines are
 * records of their own declaration (`quote-products.ts`), and its 금액 is the sum of theirs.
 */
import { column, declareRecordType, derived, group, lines } from './declaration.ts';
import { QUOTE_PRODUCT } from './quote-products.ts';

export const QUOTE = declareRecordType({
  type: 'quote',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('메인 견적서 여부', 'is_main', 'flag', 'body', { bodyKey: 'isMainQuote' }),
    column('이름', 'name', 'text', 'body', { bodyKey: 'name', required: true }),
    column('공유 링크', 'share_link', 'optionalText', 'fieldList'),
    lines('견적 구성 상품', QUOTE_PRODUCT, 'multiProduct', 'quoteProductList'),
    derived('금액', 'quoteAmount', 'number', 'number', {
      description: 'Sum of its products’ 전체금액',
    }),
    group('note'),
    group('ownership'),
  ],
  facts: ['lines', 'note'],
  customFields: true,
});

/**
 * The product, quote and quote-line records (docs/decisions.md, Record keys) with their exact keys
 * in wire order, then the workspace's custom fields. `test/record-schemas.test.ts` checks them
 * against the render functions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { PRODUCT } from '../../domain/record-types/products.ts';
import { Id, Timestamp } from '../primitives.ts';
import { optionalText, text, WithCustomFields } from './common.ts';
import { declaredProperties } from './declared.ts';
import { noteGroup, ownership } from './field-groups.ts';

/** The product record (docs/decisions.md, Record keys), as `src/domain/record-types/products.ts` declares it. */
export const ProductRecord = WithCustomFields(
  declaredProperties(PRODUCT),
  'A product (상품), then the workspace’s product custom fields',
);
export type ProductRecord = Static<typeof ProductRecord>;

/** One line of a quote (quote product; docs/decisions.md, Record keys). */
export const QuoteProductRecord = WithCustomFields(
  {
    id: Id,
    productId: Id,
    금액: Type.Number(),
    수량: Type.Number(),
    '결제 횟수': Type.Integer({ minimum: 1 }),
    '시작 결제일': Timestamp,
    '마지막 결제일': Timestamp,
    전체금액: Type.Number({ description: '금액 × 수량 × 결제 횟수' }),
  },
  'A line of a quote, then the workspace’s quote-product custom fields',
);
export type QuoteProductRecord = Static<typeof QuoteProductRecord>;

/** The quote record (docs/decisions.md, Record keys). */
export const QuoteRecord = WithCustomFields(
  {
    id: Id,
    '메인 견적서 여부': Type.Boolean(),
    이름: text,
    '공유 링크': optionalText,
    '견적 구성 상품': Type.Array(QuoteProductRecord),
    금액: Type.Number({ description: 'Sum of its products’ 전체금액' }),
    ...noteGroup,
    ...ownership,
  },
  'A quote (견적서), then the workspace’s quote custom fields',
);
export type QuoteRecord = Static<typeof QuoteRecord>;

/**
 * The product, quote and quote-line records (docs/decisions.md, Record keys) with their exact keys
 * in wire order, then the workspace's custom fields. `test/record-schemas.test.ts` checks them
 * against the render functions.
 */
import type { Static } from '@sinclair/typebox';
import { PRODUCT } from '../../domain/record-types/products.ts';
import { QUOTE_PRODUCT } from '../../domain/record-types/quote-products.ts';
import { QUOTE } from '../../domain/record-types/quotes.ts';
import { WithCustomFields } from './common.ts';
import { declaredProperties } from './declared.ts';

/** The product record (docs/decisions.md, Record keys), as `src/domain/record-types/products.ts` declares it. */
export const ProductRecord = WithCustomFields(
  declaredProperties(PRODUCT),
  'A product (상품), then the workspace’s product custom fields',
);
export type ProductRecord = Static<typeof ProductRecord>;

/**
 * One line of a quote (quote product; docs/decisions.md, Record keys), as
 * `src/domain/record-types/quote-products.ts` declares it.
 */
export const QuoteProductRecord = WithCustomFields(
  declaredProperties(QUOTE_PRODUCT),
  'A line of a quote, then the workspace’s quote-product custom fields',
);
export type QuoteProductRecord = Static<typeof QuoteProductRecord>;

/** The quote record (docs/decisions.md, Record keys), as `src/domain/record-types/quotes.ts` declares it. */
export const QuoteRecord = WithCustomFields(
  declaredProperties(QUOTE, QuoteProductRecord),
  'A quote (견적서), then the workspace’s quote custom fields',
);
export type QuoteRecord = Static<typeof QuoteRecord>;

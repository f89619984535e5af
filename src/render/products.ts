import type { Selectable } from 'kysely';
import { PRODUCT } from '../domain/record-types/products.ts';
import type { ProductTable } from '../model/tables.ts';
import { type DeclaredFacts, renderDeclared } from './declared.ts';

/** What a product record is rendered from. */
export type ProductFacts = Pick<
  DeclaredFacts,
  'note' | 'owner' | 'teams' | 'customFields' | 'nameOf'
>;

/**
 * The product record (docs/decisions.md, Record keys) as `src/domain/record-types/products.ts`
 * declares it.
 */
export function renderProduct(
  row: Selectable<ProductTable>,
  facts: ProductFacts,
): Record<string, unknown> {
  return renderDeclared(PRODUCT, row, facts);
}

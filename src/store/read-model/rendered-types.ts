import type { CustomFieldRecordType } from '../../domain/custom-fields.ts';
import { CUSTOM_OBJECT } from '../../domain/record-types/custom-objects.ts';
import { DEAL } from '../../domain/record-types/deals.ts';
import type { RecordTypeDeclaration } from '../../domain/record-types/declaration.ts';
import { LEAD } from '../../domain/record-types/leads.ts';
import { ORGANIZATION } from '../../domain/record-types/organizations.ts';
import { PEOPLE } from '../../domain/record-types/people.ts';
import { PRODUCT } from '../../domain/record-types/products.ts';
import { QUOTE } from '../../domain/record-types/quotes.ts';
import type { RenderedTable } from '../database.ts';

/** Table of each record type whose API JSON the store keeps rendered. */
export const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  product: 'products',
  quote: 'quotes',
  customObject: 'custom_objects',
} as const satisfies Record<string, RenderedTable>;

/** Record types whose API JSON the store keeps rendered (those `TABLE_OF` maps). */
export type RenderedType = keyof typeof TABLE_OF;

/** The stored types whose records show custom fields of `recordType` (todos render at read time). */
export function typesShowingFieldsOf(recordType: CustomFieldRecordType): RenderedType[] {
  if (recordType === 'todo') return [];
  return recordType === 'quoteProduct' ? ['quote'] : [recordType];
}

/** The record types declared once (docs/architecture.md, Record types), by rendered type. */
export const DECLARATION_OF = {
  people: PEOPLE,
  organization: ORGANIZATION,
  product: PRODUCT,
  quote: QUOTE,
  customObject: CUSTOM_OBJECT,
  deal: DEAL,
  lead: LEAD,
} as const satisfies Partial<Record<RenderedType, RecordTypeDeclaration>>;

/** The rendered types that are declared once, rendered by `renderDeclared`. */
export type DeclaredType = keyof typeof DECLARATION_OF;

/** Whether a rendered type is declared once (rendered by `renderDeclared`). */
export function isDeclared(type: RenderedType): type is DeclaredType {
  return Object.hasOwn(DECLARATION_OF, type);
}

import type { CustomFieldRecordType } from '../../domain/custom-fields.ts';

/** Record types whose API JSON the store keeps rendered. */
export type RenderedType =
  | 'people'
  | 'organization'
  | 'deal'
  | 'lead'
  | 'product'
  | 'quote'
  | 'customObject';

/** Table of each rendered record type. */
export const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  product: 'products',
  quote: 'quotes',
  customObject: 'custom_objects',
} as const satisfies Record<RenderedType, string>;

/** The stored types whose records show custom fields of `recordType` (todos render at read time). */
export function typesShowingFieldsOf(recordType: CustomFieldRecordType): RenderedType[] {
  if (recordType === 'todo') return [];
  return recordType === 'quoteProduct' ? ['quote'] : [recordType];
}

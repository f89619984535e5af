import { DomainError } from '../../domain/errors.ts';
import type { FieldRecordType } from '../../domain/field-catalogue.ts';

/** The `{type}` path values of `/v2/field/{type}`, and the record type each names. */
export const TYPE_OF_PATH = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  'quote-product': 'quoteProduct',
  todo: 'todo',
  'custom-object': 'customObject',
} as const satisfies Record<string, FieldRecordType>;

/** The record type a `{type}` path value names; any other value is a 400 listing them. */
export function recordTypeOfPath(type: string): FieldRecordType {
  if (!Object.hasOwn(TYPE_OF_PATH, type))
    throw new DomainError(
      'invalid_parameter',
      `'type' 값이 올바르지 않습니다: '${type.slice(0, 100)}' (${Object.keys(TYPE_OF_PATH).join(', ')} 중 하나)`,
    );
  return TYPE_OF_PATH[type as keyof typeof TYPE_OF_PATH];
}

import { DomainError } from '../../domain/errors.ts';
import { FIELD_TYPE_OF_PATH, type FieldRecordType } from '../../domain/field-catalogue.ts';

/** The record type a `{type}` path value names; any other value is a 400 listing them. */
export function recordTypeOfPath(type: string): FieldRecordType {
  if (!Object.hasOwn(FIELD_TYPE_OF_PATH, type))
    throw new DomainError(
      'invalid_parameter',
      `'type' 값이 올바르지 않습니다: '${type.slice(0, 100)}' (${Object.keys(FIELD_TYPE_OF_PATH).join(', ')} 중 하나)`,
    );
  return FIELD_TYPE_OF_PATH[type as keyof typeof FIELD_TYPE_OF_PATH];
}

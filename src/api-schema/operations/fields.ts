/** The field catalogue of a record type (tag Workspace). */
import { ListEnvelope } from '../envelopes.ts';
import { FieldRecord } from '../records/fields.ts';
import { type Operation, read } from './operation.ts';

/** In the order the OpenAPI document lists them. */
export const FIELD_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/field/{type}',
    'listFields',
    'List the fields of a record type',
    'Workspace',
    ListEnvelope('fieldList', FieldRecord, []),
  ),
];

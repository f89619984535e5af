/** The field catalogue of a record type (tag Workspace). */
import { CreateFieldBody, UpdateFieldBody } from '../bodies/fields.ts';
import { ListEnvelope, ObjectEnvelope } from '../envelopes.ts';
import { FieldDefinitionRecord, FieldRecord } from '../records/fields.ts';
import { type Operation, read, write } from './operation.ts';
import { idFilter } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const FIELD_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/field/{type}',
    'listFields',
    'List the fields of a record type',
    'Workspace',
    ListEnvelope('fieldList', FieldRecord, []),
    {
      query: [
        idFilter(
          'customObjectDefinitionId',
          '`custom-object` only: the fields of this definition alone (an unknown one is 404).',
        ),
      ],
    },
  ),
  {
    ...write(
      '/v2/field/{type}',
      'createField',
      'Create a custom field (shown, null, on every record of the type)',
      'Workspace',
      201,
      CreateFieldBody,
      ObjectEnvelope('field', FieldDefinitionRecord),
    ),
    notFound: false,
    conflict: true,
  },
  {
    ...write(
      '/v2/field/{type}/{fieldId}',
      'updateField',
      'Rename a custom field, change its description, or add options',
      'Workspace',
      200,
      UpdateFieldBody,
      ObjectEnvelope('field', FieldDefinitionRecord),
    ),
    conflict: true,
  },
];

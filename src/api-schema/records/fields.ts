/** The field catalogue of a record type (`GET /v2/field/{type}`): built-in and custom fields. */
import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from '../primitives.ts';
import { Closed, optionalText, text } from './common.ts';

/** A field of `GET /v2/field/{type}`, built-in or custom; `optionList` only on select fields. */
export const FieldRecord = Closed(
  {
    id: text,
    name: text,
    type: text,
    formula: Type.Optional(
      Type.String({ description: 'formula fields only: the formula (`type` is its result type)' }),
    ),
    required: Type.Boolean(),
    optionList: Type.Optional(
      Type.Array(Closed({ id: text, value: text }, 'An option of a select field')),
    ),
    customObjectDefinitionId: Type.Optional(
      Type.String({ description: 'custom-object fields: the definition the field belongs to' }),
    ),
  },
  'A field of a record type',
);
export type FieldRecord = Static<typeof FieldRecord>;

/**
 * A custom field as `POST /v2/field/{type}` and its update answer it (docs/decisions.md, Custom
 * fields).
 */
export const FieldDefinitionRecord = Closed(
  {
    id: text,
    name: text,
    type: text,
    formula: Type.Optional(
      Type.String({ description: 'formula fields only: the formula (`type` is its result type)' }),
    ),
    description: optionalText,
    showInCreateForm: Type.Boolean(),
    required: Type.Boolean(),
    isSensitive: Type.Boolean(),
    preventDuplicates: Type.Boolean(),
    options: Type.Array(Closed({ id: text, value: text }, 'An option of a select field')),
    createdAt: Timestamp,
  },
  'A custom field definition',
);
export type FieldDefinitionRecord = Static<typeof FieldDefinitionRecord>;

/** The field catalogue of a record type (`GET /v2/field/{type}`): built-in and custom fields. */
import { type Static, Type } from '@sinclair/typebox';
import { Closed, text } from './common.ts';

/** A field of `GET /v2/field/{type}`, built-in or custom; `optionList` only on select fields. */
export const FieldRecord = Closed(
  {
    id: text,
    name: text,
    type: text,
    required: Type.Boolean(),
    optionList: Type.Optional(
      Type.Array(Closed({ id: text, value: text }, 'An option of a select field')),
    ),
  },
  'A field of a record type',
);
export type FieldRecord = Static<typeof FieldRecord>;

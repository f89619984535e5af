/**
 * What the record schemas share. The records the API returns are TypeBox schemas with their
 * exact keys in their wire order (docs/decisions.md, Record keys), one module per record
 * family in this folder; they feed the OpenAPI document and the client's types, and
 * `test/record-schemas.test.ts` checks each one against what the render functions produce,
 * key for key and in order. This module holds the two kinds of record object (open to the
 * workspace's custom fields, or closed), the common field types, and `keysOf` to read a record
 * schema's fixed keys back; the shared field groups are in `field-groups.ts`.
 *
 * The record modules import nothing at run time but TypeBox and constant lists, so the client
 * can take its types from them (`import type`) without pulling in server code.
 */
import { type TObject, type TProperties, Type } from '@sinclair/typebox';
import { CustomFieldValue, Nullable } from '../primitives.ts';

/** A record with the workspace's custom fields after its fixed keys. */
export function WithCustomFields<P extends TProperties>(properties: P, description: string) {
  return Type.Object(properties, { additionalProperties: CustomFieldValue, description });
}

/** A record with exactly these keys. */
export function Closed<P extends TProperties>(properties: P, description: string) {
  return Type.Object(properties, { additionalProperties: false, description });
}

/** A text key. */
export const text = Type.String();
/** A text key that may be null. */
export const optionalText = Nullable(Type.String());
/** A count: an integer from 0. */
export const count = Type.Integer({ minimum: 0 });

/** The fixed keys of a record schema, in wire order. */
export function keysOf(schema: TObject): string[] {
  return Object.keys(schema.properties);
}

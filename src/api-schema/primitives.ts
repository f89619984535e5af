/**
 * The wire primitives the API's shapes are made of (docs/decisions.md, Wire format and Custom
 * fields): record ids, timestamps, references, custom field values, nullable and closed-list
 * helpers. Records, envelopes and write bodies all build on them.
 *
 * This module imports nothing at run time but TypeBox, so the client can take its types from
 * it (`import type`) without pulling in server code.
 */
import { type Static, type TLiteral, type TSchema, Type } from '@sinclair/typebox';

/** `T` or null. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** A closed list of strings as a union of literals. */
export function OneOf<const T extends readonly string[]>(values: T) {
  return Type.Union(values.map((v) => Type.Literal(v)) as TLiteral<T[number]>[]);
}

/** A record id: a UUIDv7, or the id an imported record brought. */
export const Id = Type.String({
  minLength: 1,
  maxLength: 64,
  examples: ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'],
});
export type Id = Static<typeof Id>;

/** Timestamp (docs/decisions.md, Wire format): ISO 8601 in UTC with milliseconds. */
export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601, UTC, millisecond precision',
  examples: ['2024-04-08T05:25:26.020Z'],
});
export type Timestamp = Static<typeof Timestamp>;

/** Ref (docs/decisions.md, Wire format): another record's id and display name. */
export const Ref = Type.Object(
  { id: Type.String(), name: Type.String() },
  { additionalProperties: false, description: 'A reference to another record' },
);
export type Ref = Static<typeof Ref>;

/**
 * What a custom field reads as (docs/decisions.md, Custom fields): text, number, boolean,
 * Timestamp, an array of strings, a Ref, an array of Refs, or null when unset.
 */
export const CustomFieldValue = Type.Union(
  [
    Type.String(),
    Type.Number(),
    Type.Boolean(),
    Type.Array(Type.String()),
    Ref,
    Type.Array(Ref),
    Type.Null(),
  ],
  { description: 'A custom field of the workspace, under its name' },
);
export type CustomFieldValue = Static<typeof CustomFieldValue>;

/**
 * The envelopes around records (docs/decisions.md, Record keys and Cursors), the two error bodies
 * (docs/decisions.md, Error shapes) and the answers of the writes (docs/decisions.md, Reads and
 * writes), as TypeBox schemas. Like the records, this module has no server code, so the client can
 * take its types from it.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Id, Nullable, Timestamp } from './primitives.ts';

/** The cursor keys of a list: `nextCursor`, or `nextCurosr` then `nextCursor` (deals, leads). */
export type CursorKeys = readonly ['nextCursor'] | readonly ['nextCurosr', 'nextCursor'];

const cursor = Nullable(
  Type.String({
    description: 'Opaque; pass it back as `cursor` for the next page; null on the last',
  }),
);

/** `{success: true, data: {<listKey>: [...], nextCursor}}` (or `nextCurosr` and `nextCursor`). */
export function ListEnvelope<T extends TSchema>(
  listKey: string,
  record: T,
  cursorKeys: CursorKeys | readonly [] = ['nextCursor'],
) {
  const data: Record<string, TSchema> = { [listKey]: Type.Array(record) };
  for (const key of cursorKeys) data[key] = cursor;
  return Type.Object(
    { success: Type.Literal(true), data: Type.Object(data, { additionalProperties: false }) },
    { additionalProperties: false },
  );
}

/**
 * A record of a read that takes `fieldList`: the whole record, or, when `fieldList` is given,
 * its `id` and the chosen fields only (in the record's own key order).
 */
export function WithFieldChoice<T extends TSchema>(record: T) {
  return Type.Union([
    record,
    Type.Object(
      { id: Id },
      {
        additionalProperties: true,
        description: 'With `fieldList`: `id` and the chosen fields only',
      },
    ),
  ]);
}

/** `{success: true, data: {<key>: [record]}}`: one record, as an array of one. */
export function RecordEnvelope<T extends TSchema>(key: string, record: T) {
  return ListEnvelope(key, record, []);
}

/** `{success: true, data: {<key>: record}}`: one object (`user/me`, `memo/{id}`). */
export function ObjectEnvelope<T extends TSchema>(key: string, record: T) {
  return Type.Object(
    {
      success: Type.Literal(true),
      data: Type.Object({ [key]: record }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
}

/** Error shape A, everywhere but `GET /v2/deal/{dealId}`; `data` names a duplicate's record. */
export const ErrorA = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String({ description: 'Korean, names the offending parameter if any' }),
    reason: Type.String({
      description:
        'The message again, as the live API’s clients read it first; a duplicate’s names the existing record (or field); a 507’s is `disk full`',
    }),
    data: Type.Optional(
      Type.Union([
        Type.Object(
          { id: Id, name: Type.String() },
          { description: 'The existing record a duplicate collides with' },
        ),
        Type.Object(
          {
            index: Type.Integer({ minimum: 0 }),
            id: Type.Optional(Id),
            name: Type.Optional(Type.String()),
          },
          {
            description:
              'A refused batch write: the index of the refused item in `inputList` (and a duplicate’s existing record)',
          },
        ),
      ]),
    ),
  },
  { additionalProperties: false, description: 'Error shape A' },
);
export type ErrorA = Static<typeof ErrorA>;

/** Error shape B, used by every error of `GET /v2/deal/{dealId}`. */
export const ErrorB = Type.Object(
  { error: Type.String() },
  { additionalProperties: false, description: 'Error shape B (GET /v2/deal/{dealId} only)' },
);
export type ErrorB = Static<typeof ErrorB>;

/** The record a create answers with: `{id, name, createdAt}`. */
export const Created = Type.Object(
  { id: Id, name: Type.String(), createdAt: Timestamp },
  { additionalProperties: false },
);
export type Created = Static<typeof Created>;

/** The record an update answers with: `{id, name, updatedAt}`. */
export const Updated = Type.Object(
  { id: Id, name: Type.String(), updatedAt: Timestamp },
  { additionalProperties: false },
);
export type Updated = Static<typeof Updated>;

/** The answer of a create (HTTP 201) under the resource's key. */
export function CreatedEnvelope(key: string) {
  return ObjectEnvelope(key, Created);
}

/** The answer of an update (HTTP 200) under the resource's key. */
export function UpdatedEnvelope(key: string) {
  return ObjectEnvelope(key, Updated);
}

/** The answer of a delete: `{"success": true}`. */
export const Deleted = Type.Object(
  { success: Type.Literal(true) },
  { additionalProperties: false },
);
export type Deleted = Static<typeof Deleted>;

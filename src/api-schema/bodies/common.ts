/** Parts that the write bodies share: ids, names, notes and `fieldList`. */
import { Type } from '@sinclair/typebox';

/** A record id in a body. */
export const IdSchema = Type.String({ minLength: 1, maxLength: 64 });
/** A record's name: some non-blank text. */
export const NameSchema = Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' });
/** `memo`: a note to add to the record. */
export const MemoSchema = Type.Union([
  Type.String({ minLength: 1, maxLength: 100_000 }),
  Type.Null(),
]);
/** `fieldList`: fields by Korean name with typed value keys (checked by `resolveFieldList`). */
export const FieldListSchema = Type.Array(
  Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: true },
  ),
  {
    maxItems: 500,
    description:
      'Fields by name, each with the one value key of its type: `stringValue`, `numberValue`, `booleanValue`, `dateValue`, `stringValueList` (multiSelect), `<target>ValueId` / `<target>ValueIdList` (Ref fields), `fileValueIdList` (multiAttachment: ids of ready files of the workspace; `[]` or null clears). null clears any field. An unknown field, a wrong key or value, or a record or file the workspace has not is a 400 naming the field.',
  },
);

import { type Static, Type } from '@sinclair/typebox';

/** A field's name: non-blank text, as long as a field name may be. */
const FieldNameSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
/** A field's description (null clears it on an update). */
const DescriptionSchema = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
/** The options of a select field, by value. */
const OptionsSchema = Type.Array(
  Type.Object({ value: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) }),
  { maxItems: 500 },
);

/** Body of `POST /v2/field/{type}` (docs/decisions.md, Custom fields). */
export const CreateFieldBody = Type.Object({
  name: FieldNameSchema,
  /** `string, number, date, dateTime, boolean, singleSelect, multiSelect, user, multiUser, multiAttachment`. */
  type: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      "string, number, date, dateTime, boolean, singleSelect, multiSelect, user, multiUser or multiAttachment (files: not on quote-product and todo; written as `fileValueIdList`, ids of the workspace's files from `POST /v2/file`; read as `[{id, name}]` of the files, null when none; a deleted file leaves every value that held it in the same write).",
  }),
  description: Type.Optional(DescriptionSchema),
  showInCreateForm: Type.Optional(Type.Boolean()),
  required: Type.Optional(Type.Boolean()),
  options: Type.Optional(OptionsSchema),
  isSensitive: Type.Optional(Type.Boolean()),
  preventDuplicates: Type.Optional(Type.Boolean()),
  /** Refused: there are no field categories. */
  categoryName: Type.Optional(Type.String({ maxLength: 200 })),
  /** custom-object fields only (and required there): the definition the field belongs to. */
  customObjectDefinitionId: Type.Optional(Type.String({ maxLength: 64 })),
  /** A formula field: its values are computed from the record's own fields. */
  formula: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'A formula field: `type` is then its result type (string, number, date, dateTime, boolean), and options, required, showInCreateForm and preventDuplicates are refused. References `{{대상명.필드명}}` name a field the record itself shows (대상명: 고객, 회사, 딜, 리드, 상품, 견적, 견적 상품, TODO, or the custom object definition\'s name), number literals (`1.5`), text literals (`"원"`), `+ - * /` and parentheses on numbers; `+` also joins two texts and adds days to a date (`-` takes them off; date − date is days); `&` joins any two values as text; `< > <= >=` compare numbers and `== !=` two values of one kind (a boolean); `&&` and `||` combine booleans (`true`, `false`); `min(…)` and `max(…)` of two or more numbers. A syntax error, an unknown object or field, another record\'s field, a list field, a type mismatch or a cycle is a 400 naming the position. Values are computed whenever the record is rendered (so they follow every change of the fields read); a missing value, a division by zero or a text longer than 10,000 characters gives null. The value cannot be written (400).',
    }),
  ),
});
export type CreateFieldBody = Static<typeof CreateFieldBody>;

/** Body of `POST /v2/field/{type}/{fieldId}`: a new name, description, or options added. */
export const UpdateFieldBody = Type.Object({
  name: Type.Optional(FieldNameSchema),
  description: Type.Optional(DescriptionSchema),
  /** Options to add after the field's own (select fields only). */
  options: Type.Optional(OptionsSchema),
});
export type UpdateFieldBody = Static<typeof UpdateFieldBody>;

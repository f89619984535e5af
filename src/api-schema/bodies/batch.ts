/**
 * Bodies and answers of the batch operations (`/v3`), in the request shapes that the most
 * used MCP client of the live API sends: reads of many ids, creates and updates of many
 * records in one transaction, and a record type's pipelines and associations.
 */
import { type Static, type TLiteral, Type } from '@sinclair/typebox';
import { Id, Nullable, OneOf, Timestamp } from '../primitives.ts';
import { IdSchema } from './common.ts';

/** The record types of the batch operations. */
export const BATCH_OBJECT_TYPES = ['people', 'organization', 'deal', 'lead'] as const;
export type BatchObjectType = (typeof BATCH_OBJECT_TYPES)[number];

/** Most ids one read takes. */
export const MAX_READ_IDS = 500;
/** Most records one create or update writes. */
export const MAX_WRITE_INPUTS = 100;

/**
 * The live API's names of the record types, its `objectType` values (the display names of
 * the types): a program written for it sends these, so they are taken beside ours.
 */
export const BATCH_OBJECT_TYPE_LABELS = {
  people: '고객',
  organization: '회사',
  deal: '딜',
  lead: '리드',
} as const satisfies Record<BatchObjectType, string>;

/** An `objectType` as a body may give it: the live API's name (`딜`) or ours (`deal`). */
export type BatchObjectTypeName =
  | BatchObjectType
  | (typeof BATCH_OBJECT_TYPE_LABELS)[BatchObjectType];

/**
 * The record types a batch read takes: those of the writes, products, quotes and custom
 * objects (of every definition).
 */
export const BATCH_READ_TYPES = [
  ...BATCH_OBJECT_TYPES,
  'product',
  'quote',
  'customObject',
] as const;
export type BatchReadType = (typeof BATCH_READ_TYPES)[number];

/** The live API's names of the record types a read takes, by type. */
export const BATCH_READ_TYPE_LABELS = {
  ...BATCH_OBJECT_TYPE_LABELS,
  product: '상품',
  quote: '견적서',
  customObject: '커스텀 오브젝트',
} as const satisfies Record<BatchReadType, string>;

/** An `objectType` of a batch read: the live API's name (`견적서`) or ours (`quote`). */
export type BatchReadTypeName = BatchReadType | (typeof BATCH_READ_TYPE_LABELS)[BatchReadType];

/** The record type an `objectType` name stands for (`딜` → `deal`). */
export type BatchObjectTypeOf<N extends BatchReadTypeName> = N extends BatchReadType
  ? N
  : {
      [T in BatchReadType]: (typeof BATCH_READ_TYPE_LABELS)[T] extends N ? T : never;
    }[BatchReadType];

const TYPE_OF_LABEL = new Map<string, BatchReadType>(
  BATCH_READ_TYPES.map((t) => [BATCH_READ_TYPE_LABELS[t], t]),
);

/** The record type an `objectType` of a body names. */
export function batchObjectType<N extends BatchReadTypeName>(name: N): BatchObjectTypeOf<N> {
  return (TYPE_OF_LABEL.get(name) ?? name) as BatchObjectTypeOf<N>;
}

/** `objectType`: the record type the batch is about, by the live API's name or ours. */
export const BatchObjectTypeSchema = Type.Union(
  [...Object.values(BATCH_OBJECT_TYPE_LABELS), ...BATCH_OBJECT_TYPES].map((v) =>
    Type.Literal(v),
  ) as TLiteral<BatchObjectTypeName>[],
  {
    description:
      'The record type: `고객`, `회사`, `딜`, `리드` (the live API’s names), or `people`, `organization`, `deal`, `lead`',
  },
);

/** Field names: built-in and custom, as `GET /v2/field/{type}` lists them. */
const FieldNames = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 500,
  description: 'Field names to keep in each record, beside `id` (the record’s own key order)',
});

/**
 * `objectType` of a read: the write types, products (`상품`), quotes (`견적서`) and custom
 * objects (`커스텀 오브젝트`).
 */
export const BatchReadTypeSchema = Type.Union(
  [...Object.values(BATCH_READ_TYPE_LABELS), ...BATCH_READ_TYPES].map((v) =>
    Type.Literal(v),
  ) as TLiteral<BatchReadTypeName>[],
  {
    description:
      'The record type: `고객`, `회사`, `딜`, `리드`, `상품`, `견적서`, `커스텀 오브젝트` (the live API’s names), or `people`, `organization`, `deal`, `lead`, `product`, `quote`, `customObject` (the records of every custom object definition)',
  },
);

/** Body of `POST /v3/object/read`. */
export const BatchReadBody = Type.Object({
  objectType: BatchReadTypeSchema,
  idList: Type.Array(IdSchema, { minItems: 1, maxItems: MAX_READ_IDS }),
  fieldList: Type.Optional(FieldNames),
});
export type BatchReadBody = Static<typeof BatchReadBody>;

/**
 * `data`: field values by field name (built-in or custom, as `GET /v2/field/{type}` lists
 * them), as plain JSON: text, number, boolean, `YYYY-MM-DD` or ISO 8601 for dates, a list
 * of options, a record id (or `{id}`) for a reference, a list of them for a multiple one;
 * null clears. The v2 body keys (`name`, `price`, `status`, `pipelineId`, `memo`, ...) are
 * accepted too.
 */
export const BatchDataSchema = Type.Object(
  {},
  { additionalProperties: true, description: 'Field values by field name (null clears)' },
);

/**
 * `association`: the records the new (or updated) record is linked to, by associated type:
 * a deal or lead to a person and/or an organization, a person to an organization (null
 * unlinks). See `POST /v3/association/list`.
 */
export const BatchAssociationSchema = Type.Object(
  {
    people: Type.Optional(Nullable(IdSchema)),
    organization: Type.Optional(Nullable(IdSchema)),
  },
  { additionalProperties: false },
);
export type BatchAssociation = Static<typeof BatchAssociationSchema>;

/** Body of `POST /v3/object/create`. */
export const BatchCreateBody = Type.Object({
  objectType: BatchObjectTypeSchema,
  inputList: Type.Array(
    Type.Object({ data: BatchDataSchema, association: Type.Optional(BatchAssociationSchema) }),
    { minItems: 1, maxItems: MAX_WRITE_INPUTS },
  ),
});
export type BatchCreateBody = Static<typeof BatchCreateBody>;

/** Body of `POST /v3/object/update`. */
export const BatchUpdateBody = Type.Object({
  objectType: BatchObjectTypeSchema,
  inputList: Type.Array(
    Type.Object({
      id: IdSchema,
      data: BatchDataSchema,
      association: Type.Optional(BatchAssociationSchema),
    }),
    { minItems: 1, maxItems: MAX_WRITE_INPUTS },
  ),
});
export type BatchUpdateBody = Static<typeof BatchUpdateBody>;

/** Body of `POST /v3/pipeline/list`. */
export const BatchTypeBody = Type.Object({ objectType: BatchObjectTypeSchema });
export type BatchTypeBody = Static<typeof BatchTypeBody>;

/** The record types of `POST /v3/association/list`: the write types, and custom objects. */
export const ASSOCIATION_TYPES = [...BATCH_OBJECT_TYPES, 'customObject'] as const;
export type AssociationType = (typeof ASSOCIATION_TYPES)[number];

/** The live API's names of the association types (`커스텀 오브젝트`: every definition's records). */
export const ASSOCIATION_TYPE_LABELS = {
  ...BATCH_OBJECT_TYPE_LABELS,
  customObject: '커스텀 오브젝트',
} as const satisfies Record<AssociationType, string>;

/** An `objectType` of `POST /v3/association/list`: the live API's name or ours. */
export type AssociationTypeName =
  | AssociationType
  | (typeof ASSOCIATION_TYPE_LABELS)[AssociationType];

/** The record type an `objectType` of `POST /v3/association/list` names. */
export function associationType(name: AssociationTypeName): AssociationType {
  const found = ASSOCIATION_TYPES.find((t) => t === name || ASSOCIATION_TYPE_LABELS[t] === name);
  return found ?? (name as AssociationType);
}

/** Body of `POST /v3/association/list`. */
export const AssociationListBody = Type.Object({
  objectType: Type.Union(
    [...Object.values(ASSOCIATION_TYPE_LABELS), ...ASSOCIATION_TYPES].map((v) =>
      Type.Literal(v),
    ) as TLiteral<AssociationTypeName>[],
    {
      description:
        'The record type: `고객`, `회사`, `딜`, `리드`, `커스텀 오브젝트` (the live API’s names), or `people`, `organization`, `deal`, `lead`, `customObject` (the records of every custom object definition)',
    },
  ),
});
export type AssociationListBody = Static<typeof AssociationListBody>;

/** A record as `POST /v3/object/read` answers it: the stored record, or `id` and the chosen fields. */
export const BatchRecord = Type.Object(
  { id: Id },
  {
    additionalProperties: true,
    description:
      'A record of `objectType` (as its list serves it), or `id` and the `fieldList` keys',
  },
);

/** One association of a record type. */
export const AssociationRecord = Type.Object(
  {
    name: OneOf(ASSOCIATION_TYPES),
    fieldName: Type.String({ description: 'The key or field that holds the link' }),
    fieldOn: OneOf(ASSOCIATION_TYPES),
    multiple: Type.Boolean({
      description: 'Whether one record can be linked to many records of `name` this way',
    }),
    writeWith: Type.Union([OneOf(['association', 'data', 'fieldList'] as const), Type.Null()], {
      description:
        '`association`: set by `association.<name>` of the batch writes; `data`: by this field in `data`; `fieldList`: by this field in the `fieldList` of a custom object’s write (`POST /v2/custom-object`, `POST /v2/custom-object/{customObjectId}`), which the batch writes do not take; null: from the other side',
    }),
  },
  { additionalProperties: false },
);
export type AssociationRecord = Static<typeof AssociationRecord>;

/** `{success: true, data: {objectList: [...]}}`. */
export function ObjectListEnvelope<T extends ReturnType<typeof Type.Object>>(item: T) {
  return Type.Object(
    {
      success: Type.Literal(true),
      data: Type.Object({ objectList: Type.Array(item) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
}

/** What a batch create answers per item. */
export const BatchCreated = Type.Object(
  { id: Id, name: Type.String(), createdAt: Timestamp },
  { additionalProperties: false },
);
/** What a batch update answers per item. */
export const BatchUpdated = Type.Object(
  { id: Id, name: Type.String(), updatedAt: Timestamp },
  { additionalProperties: false },
);

import { type Static, Type } from '@sinclair/typebox';

/** Operators of `POST /v2/object/{targetType}/search`, as the live API names them. */
export const SEARCH_OPERATORS = [
  'EQ',
  'NEQ',
  'EXISTS',
  'NOT_EXISTS',
  'CONTAINS',
  'NOT_CONTAINS',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'IN',
  'NOT_IN',
  'LIST_CONTAIN',
  'LIST_NOT_CONTAIN',
  'DATE_ON_OR_AFTER',
  'DATE_ON_OR_BEFORE',
  'DATE_IS_SPECIFIC_DAY',
  'DATE_BETWEEN',
  'DATE_MORE_THAN_DAYS_AGO',
  'DATE_LESS_THAN_DAYS_AGO',
  'DATE_LESS_THAN_DAYS_LATER',
  'DATE_MORE_THAN_DAYS_LATER',
  'DATE_AGO',
  'DATE_LATER',
] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** Most groups, and most filters in a group (the live API's limits). */
export const MAX_FILTER_GROUPS = 3;
export const MAX_FILTERS_PER_GROUP = 3;
/** Most values of an `IN`, `NOT_IN` or list filter. */
export const MAX_FILTER_VALUES = 500;
/** Most sort keys. */
export const MAX_SORT_KEYS = 3;
/** Largest page of a search (50 unless `limit` says otherwise). */
export const MAX_SEARCH_LIMIT = 100;

const FieldName = Type.String({ minLength: 1, maxLength: 200 });

/** One filter: a field by its Korean name, an operator, and a value whose type the field decides. */
export const SearchFilter = Type.Object({
  fieldName: FieldName,
  operator: Type.Union(SEARCH_OPERATORS.map((o) => Type.Literal(o))),
  value: Type.Optional(Type.Unknown()),
});
export type SearchFilter = Static<typeof SearchFilter>;

/** Body of `POST /v2/object/{targetType}/search`. */
export const SearchBody = Type.Object({
  /**
   * Groups OR, filters in a group AND: at least one group, as the live API requires (absent
   * or empty is a 400 `[filterGroupList]: 필수 입력 사항입니다.`).
   */
  filterGroupList: Type.Array(
    Type.Object({
      filters: Type.Array(SearchFilter, { minItems: 1, maxItems: MAX_FILTERS_PER_GROUP }),
    }),
    { minItems: 1, maxItems: MAX_FILTER_GROUPS },
  ),
  /** Order of the results: fields and directions, ties broken by id. Default: oldest first. */
  sortList: Type.Optional(
    Type.Array(
      Type.Object({
        fieldName: FieldName,
        direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      }),
      { maxItems: MAX_SORT_KEYS },
    ),
  ),
  /** Fields to include in each object, beside `id` and `name`. */
  fieldList: Type.Optional(Type.Array(FieldName, { maxItems: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT })),
});
export type SearchBody = Static<typeof SearchBody>;

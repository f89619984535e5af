/** Search of people, organizations, deals and leads (tag Search). */
import { Type } from '@sinclair/typebox';
import { SearchBody } from '../bodies/search.ts';
import { Id, Nullable } from '../primitives.ts';
import type { Operation } from './operation.ts';
import { PARAMETERS } from './parameters.ts';

/** One found record: `id`, `name` (its `이름`), then the fields of `fieldList` in record key order. */
export const SearchObject = Type.Object(
  { id: Id, name: Nullable(Type.String()) },
  { additionalProperties: true },
);

/** `{success: true, data: {objectList, nextCursor}}`. */
export const SearchEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        objectList: Type.Array(SearchObject),
        nextCursor: Nullable(
          Type.String({
            description:
              'Opaque; pass it back as `cursor` with the same filters and order for the next page; null on the last',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** In the order the OpenAPI document lists them. */
export const SEARCH_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    path: '/v2/object/{targetType}/search',
    operationId: 'searchObjects',
    readsOnly: true,
    summary:
      'Search people, organizations, deals or leads by filters (counts as 10 requests of the rate limit)',
    tag: 'Search',
    query: [
      {
        ...PARAMETERS.cursor,
        schema: Type.String({ minLength: 1, maxLength: 8000 }),
        description:
          'The `nextCursor` of the previous page, with the same `filterGroupList` and `sortList`; any other is 400.',
      },
    ],
    body: SearchBody,
    status: 200,
    response: SearchEnvelope,
    errorShape: 'A',
    api: true,
  },
];

import type { SearchBody } from '../../api-schema/bodies/search.ts';
import { DomainError } from '../../domain/errors.ts';
import { indexedFields, indexedName } from '../../domain/search-values.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import type { ReadSide } from '../../store/database.ts';
import { compileFilter, type RecordValues } from './filters.ts';
import { runSearch } from './run-search.ts';
import { SearchFields } from './search-fields.ts';
import type { SearchType } from './search-tables.ts';
import { searchedFields } from './searched-fields.ts';
import { compileSort, decodePlace, encodePlace, type Place } from './sort.ts';

/** Page size when the request gives no `limit` (the live API's fixed page). */
const DEFAULT_LIMIT = 50;
/** Longest search cursor: it carries the last record's sort values. */
export const MAX_SEARCH_CURSOR = 8_000;

/**
 * One search request, checked against its schema, as plain data: what a reader thread
 * takes (`src/server/read-threads.ts`) as well as the route.
 */
export interface SearchRequest {
  workspaceId: string;
  catalogVersion: number;
  cursorSecret: string;
  type: SearchType;
  body: SearchBody;
  cursor: string | undefined;
  /** When (`Date.now()`) the search gives up with a 503. */
  deadline: number;
}

/**
 * Runs a search and answers its whole body, `{"success":true,"data":{objectList,
 * nextCursor}}`, as JSON text: `objectList` of `{id, name, …chosen fields}`, `nextCursor`
 * null at the end. Throws a `DomainError` for a filter, sort, field or cursor it refuses.
 */
export async function searchPage(read: ReadSide, r: SearchRequest): Promise<string> {
  const { type, body, workspaceId, cursorSecret } = r;
  const custom = await searchedFields(read, workspaceId, type, r.catalogVersion);
  const fields = new SearchFields(type, custom);
  const indexed = new Map(indexedFields(type, custom).map((f) => [indexedName(f), f]));

  const today = new Date().toISOString().slice(0, 10);
  const groupList = body.filterGroupList;
  const groups = groupList.map((group, g) =>
    group.filters.map((filter, i) =>
      compileFilter(filter, fields, `filterGroupList[${g}].filters[${i}]`, today),
    ),
  );
  const sorted = compileSort(body.sortList, fields);
  const byCreation = sorted.length === 0;
  const order = byCreation ? compileSort([{ fieldName: '생성 날짜' }], fields) : sorted;
  const chosen = new Set(
    (body.fieldList ?? []).map((name, i) => fields.get(name, `fieldList[${i}]`).name),
  );

  // A cursor is bound to the target, the filters and the order (not to limit or fields).
  const scope = `/v2/object/${type}/search\n${JSON.stringify([
    groupList.map((group) => group.filters.map((f) => [f.fieldName, f.operator, f.value])),
    order.map((k) => [k.name, k.descending]),
  ])}`;
  let after: Place | undefined;
  if (r.cursor !== undefined) {
    const position = decodeCursor(cursorSecret, scope, r.cursor, MAX_SEARCH_CURSOR);
    after = position && decodePlace(order, position.sortKey, position.id);
    if (!after) {
      throw new DomainError(
        'invalid_cursor',
        `'cursor' 값이 올바르지 않습니다. 같은 검색 조건으로 이전 페이지가 돌려준 커서를 그대로 보내 주세요.`,
      );
    }
  }

  const fieldsRead = fields.inKeyOrder([
    '이름',
    ...groups.flatMap((filters) => filters.map((f) => f.field.name)),
    ...order.map((k) => k.name),
    ...chosen,
  ]);
  const page = await runSearch(read, workspaceId, {
    type,
    groups,
    order,
    byCreation,
    after,
    limit: body.limit ?? DEFAULT_LIMIT,
    fields: fieldsRead,
    deadline: r.deadline,
    indexed,
  });
  const objectList = page.records.map(({ id, values }) => objectOf(id, values, chosen));
  const nextCursor = page.next
    ? encodeCursor(cursorSecret, scope, { sortKey: encodePlace(page.next), id: page.next.id })
    : null;
  return JSON.stringify({ success: true, data: { objectList, nextCursor } });
}

/** `{id, name}` and the chosen fields, in the record's own key order. */
function objectOf(id: string, values: RecordValues, chosen: ReadonlySet<string>): RecordValues {
  const out: RecordValues = { id, name: values['이름'] ?? null };
  if (chosen.size === 0) return out;
  for (const key of Object.keys(values)) if (chosen.has(key)) out[key] = values[key];
  return out;
}

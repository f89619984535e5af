import type { FastifyInstance } from 'fastify';
import { SearchBody } from '../../api-schema/bodies/search.ts';
import { DomainError } from '../../domain/errors.ts';
import { indexedFields, indexedName } from '../../domain/search-values.ts';
import { bodyReader } from '../../http/body.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { compileFilter, type RecordValues } from './filters.ts';
import { runSearch } from './run-search.ts';
import { SearchFields } from './search-fields.ts';
import { SEARCH_TABLES, type SearchType } from './search-tables.ts';
import { searchedFields } from './searched-fields.ts';
import { compileSort, decodePlace, encodePlace, type Place } from './sort.ts';

/** Requests one search counts against the rate limit (the live API's figure). */
export const SEARCH_RATE_COST = 10;
/** Page size when the request gives no `limit` (the live API's fixed page). */
const DEFAULT_LIMIT = 50;
/** Longest search cursor: it carries the last record's sort values. */
const MAX_SEARCH_CURSOR = 8_000;

/**
 * `POST /v2/object/{targetType}/search` (LIVE-API.md, Object search): `filterGroupList`
 * (groups OR, filters AND), and beyond the live API `sortList`, `fieldList` and `limit`.
 * Answers `objectList` of `{id, name, …chosen fields}` and `nextCursor` (null at the end).
 */
export function registerSearchRoutes(
  app: FastifyInstance,
  { store, base, requestTimeoutMs }: RouteDeps,
): void {
  const read = bodyReader(SearchBody);
  app.post<{ Params: { targetType: string } }>(
    `${base}/v2/object/:targetType/search`,
    { config: { errorShape: 'A', rateCost: SEARCH_RATE_COST } },
    async (request, reply) => {
      const { targetType } = request.params;
      if (!Object.hasOwn(SEARCH_TABLES, targetType)) {
        throw new DomainError(
          'invalid_parameter',
          `'targetType' 값이 올바르지 않습니다: '${targetType.slice(0, 100)}' (${Object.keys(SEARCH_TABLES).join(', ')} 중 하나)`,
        );
      }
      const type = targetType as SearchType;
      const query = readQuery(request.query, ['cursor'], { cursor: MAX_SEARCH_CURSOR });
      refuseUnfiltered(request.body);
      const body = read(request.body);
      const { workspaceId, cursorSecret, catalogVersion } = request.auth;
      const custom = await searchedFields(store, workspaceId, type, catalogVersion);
      const fields = new SearchFields(type, custom);
      const indexed = new Map(indexedFields(type, custom).map((f) => [indexedName(f), f]));

      const today = new Date().toISOString().slice(0, 10);
      const groupList = body.value.filterGroupList;
      const groups = groupList.map((group, g) =>
        group.filters.map((filter, i) =>
          compileFilter(filter, fields, `filterGroupList[${g}].filters[${i}]`, today),
        ),
      );
      const sorted = compileSort(body.value.sortList, fields);
      const byCreation = sorted.length === 0;
      const order = byCreation ? compileSort([{ fieldName: '생성 날짜' }], fields) : sorted;
      const chosen = new Set(
        (body.value.fieldList ?? []).map((name, i) => fields.get(name, `fieldList[${i}]`).name),
      );

      // A cursor is bound to the target, the filters and the order (not to limit or fields).
      const scope = `/v2/object/${type}/search\n${JSON.stringify([
        groupList.map((group) => group.filters.map((f) => [f.fieldName, f.operator, f.value])),
        order.map((k) => [k.name, k.descending]),
      ])}`;
      let after: Place | undefined;
      const { cursor } = query.values;
      if (cursor !== undefined) {
        const position = decodeCursor(cursorSecret, scope, cursor, MAX_SEARCH_CURSOR);
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
      const page = await runSearch(store, workspaceId, {
        type,
        groups,
        order,
        byCreation,
        after,
        limit: body.value.limit ?? DEFAULT_LIMIT,
        fields: fieldsRead,
        deadline: Date.now() + requestTimeoutMs,
        indexed,
      });
      const objectList = page.records.map(({ id, values }) => objectOf(id, values, chosen));
      const nextCursor = page.next
        ? encodeCursor(cursorSecret, scope, { sortKey: encodePlace(page.next), id: page.next.id })
        : null;
      nameIgnored(reply, { ...query, ignored: [...query.ignored, ...body.ignored] });
      return sendJson(reply, JSON.stringify({ success: true, data: { objectList, nextCursor } }));
    },
  );
}

/** The live API's answer to a search without filters, word for word. */
export const FILTERS_REQUIRED = '[filterGroupList]: 필수 입력 사항입니다.';

/**
 * Refuses a search body without `filterGroupList`, or with an empty one, as the live API
 * does: a body that names its filters otherwise (`filterList`, a misspelling) would else get
 * every record of the type, silently. `GET /v2/{type}` lists every record.
 */
function refuseUnfiltered(body: unknown): void {
  if (body !== null && body !== undefined && (typeof body !== 'object' || Array.isArray(body)))
    return; // Not an object: the body check says so.
  const groups = (body as { filterGroupList?: unknown } | null | undefined)?.filterGroupList;
  if (groups === undefined || groups === null || (Array.isArray(groups) && groups.length === 0))
    throw new DomainError('invalid_body', FILTERS_REQUIRED);
}

/** `{id, name}` and the chosen fields, in the record's own key order. */
function objectOf(id: string, values: RecordValues, chosen: ReadonlySet<string>): RecordValues {
  const out: RecordValues = { id, name: values['이름'] ?? null };
  if (chosen.size === 0) return out;
  for (const key of Object.keys(values)) if (chosen.has(key)) out[key] = values[key];
  return out;
}

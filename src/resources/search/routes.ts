import type { FastifyInstance } from 'fastify';
import { SearchBody } from '../../api-schema/bodies/search.ts';
import { DomainError } from '../../domain/errors.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { MAX_SEARCH_CURSOR, type SearchRequest, searchPage } from './search-page.ts';
import { SEARCH_TABLES, type SearchType } from './search-tables.ts';

/** Requests one search counts against the rate limit (the live API's figure). */
export const SEARCH_RATE_COST = 10;

/**
 * `POST /v2/object/{targetType}/search` (docs/search.md): `filterGroupList`
 * (groups OR, filters AND), and beyond the live API `sortList`, `fieldList` and `limit`.
 * Answers `objectList` of `{id, name, …chosen fields}` and `nextCursor` (null at the end).
 */
export function registerSearchRoutes(
  app: FastifyInstance,
  { store, base, requestTimeoutMs, readThreads }: RouteDeps,
): void {
  const read = bodyReader(SearchBody);
  app.post<{ Params: { targetType: string } }>(
    `${base}/v2/object/:targetType/search`,
    { config: { errorShape: 'A', rateCost: SEARCH_RATE_COST, heavy: true } },
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
      const search: SearchRequest = {
        workspaceId,
        catalogVersion,
        cursorSecret,
        type,
        body: body.value,
        cursor: query.values.cursor,
        deadline: Date.now() + requestTimeoutMs,
      };
      // On a reader thread when the server has them: a search may read a whole workspace.
      const answer = readThreads
        ? ((await readThreads.run('search', search)) as string)
        : await searchPage(store, search);
      nameIgnored(reply, { ...query, ignored: [...query.ignored, ...body.ignored] });
      return sendJson(reply, answer);
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

import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { registerRecordRead } from '../../server/records.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/people` (spec 4.1) and `GET /v2/people/{peopleId}` (ENDPOINTS.md). */
export function registerPeopleRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, cache, base } = deps;
  registerPlainList(app, cache, base, {
    path: '/v2/people',
    listKey: 'peopleList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'people', 'created_at'),
  });
  registerRecordRead(app, deps, {
    path: '/v2/people/:peopleId',
    param: 'peopleId',
    table: 'people',
    key: 'people',
    notFound: { code: 'people_not_found', message: (id) => `고객을 찾을 수 없습니다: '${id}'` },
  });
}

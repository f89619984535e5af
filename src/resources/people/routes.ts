import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { registerPlainList } from '../../http/list-route.ts';
import { registerRecordRead } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { keysetList } from '../../store/keyset.ts';
import { fieldNamesOf } from '../fields/field-names.ts';

/** `GET /v2/people` and `GET /v2/people/{peopleId}` (docs/decisions.md, Reads and writes). */
export function registerPeopleRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, cache, base } = deps;
  registerPlainList(app, cache, base, {
    path: '/v2/people',
    fields: fieldNamesOf(store, 'people'),
    listKey: 'peopleList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'people', 'created_at'),
  });
  registerRecordRead(app, deps, {
    path: '/v2/people/:peopleId',
    fields: fieldNamesOf(store, 'people'),
    param: 'peopleId',
    table: 'people',
    key: 'people',
    notFound: { code: 'people_not_found', message: (id) => `고객을 찾을 수 없습니다: '${id}'` },
  });
}

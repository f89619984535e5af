import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { registerPlainList } from '../../http/list-route.ts';
import { registerRecordRead } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { keysetList } from '../../store/keyset.ts';
import { fieldNamesOf } from '../fields/field-names.ts';

/**
 * `GET /v2/organization` and `GET /v2/organization/{organizationId}` (docs/decisions.md, Reads and
 * writes).
 */
export function registerOrganizationRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, cache, base } = deps;
  registerPlainList(app, cache, base, {
    path: '/v2/organization',
    fields: fieldNamesOf(store, 'organization'),
    listKey: 'organizationList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'organizations', 'created_at'),
  });
  registerRecordRead(app, deps, {
    path: '/v2/organization/:organizationId',
    fields: fieldNamesOf(store, 'organization'),
    param: 'organizationId',
    table: 'organizations',
    key: 'organization',
    notFound: {
      code: 'organization_not_found',
      message: (id) => `회사를 찾을 수 없습니다: '${id}'`,
    },
  });
}

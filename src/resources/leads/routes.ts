import type { FastifyInstance } from 'fastify';
import { NEXT_CUROSR_AND_CURSOR } from '../../http/list-page.ts';
import { registerPlainList } from '../../http/list-route.ts';
import { registerRecordRead } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { keysetList } from '../../store/keyset.ts';
import { fieldNamesOf } from '../fields/field-names.ts';

/**
 * `GET /v2/lead` and `GET /v2/lead/{leadId}` (docs/decisions.md, Reads and writes). The lead's
 * quotes are in `quotes/routes.ts`, its activities and history with the other lists.
 */
export function registerLeadRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, cache, base } = deps;
  registerPlainList(app, cache, base, {
    path: '/v2/lead',
    fields: fieldNamesOf(store, 'lead'),
    listKey: 'leadList',
    cursorKeys: NEXT_CUROSR_AND_CURSOR,
    page: keysetList(store, 'leads', 'created_at'),
  });
  registerRecordRead(app, deps, {
    path: '/v2/lead/:leadId',
    fields: fieldNamesOf(store, 'lead'),
    param: 'leadId',
    table: 'leads',
    key: 'lead',
    notFound: { code: 'lead_not_found', message: (id) => `리드를 찾을 수 없습니다: '${id}'` },
  });
}

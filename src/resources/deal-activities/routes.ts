import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/deal/activity`: activities of deals and leads, oldest first (spec 4.4). */
export function registerDealActivityRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/deal/activity',
    listKey: 'dealActivityList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'activities', 'date', (qb) =>
      qb.where('subject_type', 'in', ['deal', 'lead']),
    ),
  });
}

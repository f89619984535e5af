import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/people/history`: changes of people, oldest first (spec 4.9). */
export function registerPeopleHistoryRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/people/history',
    listKey: 'peopleHistoryList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'history', 'created_at', (qb) =>
      qb.where('subject_type', '=', 'people'),
    ),
  });
}

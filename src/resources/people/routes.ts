import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/people`: people, oldest first (spec 4.1). */
export function registerPeopleRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/people',
    listKey: 'peopleList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'people', 'created_at'),
  });
}

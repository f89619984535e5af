import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/organization`: organizations, oldest first (spec 4.7). */
export function registerOrganizationRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/organization',
    listKey: 'organizationList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'organizations', 'created_at'),
  });
}

import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../server/app.ts';
import { registerPlainList } from '../../server/http.ts';
import { NEXT_CURSOR } from '../../server/list.ts';
import { keysetList } from '../../store/keyset.ts';

/** `GET /v2/product`: products, oldest first (spec 4.8). */
export function registerProductRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/product',
    listKey: 'productList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'products', 'created_at'),
  });
}

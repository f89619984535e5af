import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { registerPlainList } from '../../http/list-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { keysetList } from '../../store/keyset.ts';
import { fieldNamesOf } from '../fields/field-names.ts';

/** `GET /v2/product`: products, oldest first. */
export function registerProductRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  registerPlainList(app, cache, base, {
    path: '/v2/product',
    fields: fieldNamesOf(store, 'product'),
    listKey: 'productList',
    cursorKeys: NEXT_CURSOR,
    page: keysetList(store, 'products', 'created_at'),
  });
}

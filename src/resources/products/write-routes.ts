import type { FastifyInstance } from 'fastify';
import { CreateProductBody } from '../../api-schema/bodies/products.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate } from '../../http/write-routes.ts';
import { createProduct } from './commands.ts';

/** `POST /v2/product`. */
export function registerProductWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/product', key: 'product', body: CreateProductBody },
    createProduct,
  );
}

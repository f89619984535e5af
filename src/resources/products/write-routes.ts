import type { FastifyInstance } from 'fastify';
import { CreateProductBody, UpdateProductBody } from '../../api-schema/bodies/products.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerDelete, registerUpdate } from '../../http/write-routes.ts';
import { createProduct, deleteProduct, updateProduct } from './commands.ts';

/** `POST /v2/product`, `POST /v2/product/{productId}`, `POST /v2/product/{productId}/delete`. */
export function registerProductWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/product', key: 'product', body: CreateProductBody },
    createProduct,
  );
  registerUpdate(
    app,
    deps,
    { path: '/v2/product/:productId', param: 'productId', key: 'product', body: UpdateProductBody },
    updateProduct,
  );
  registerDelete(
    app,
    deps,
    { path: '/v2/product/:productId/delete', param: 'productId' },
    (w, _actor, id) => deleteProduct(w, id),
  );
}

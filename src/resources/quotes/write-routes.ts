import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate } from '../../http/write-routes.ts';
import { createQuote } from './commands.ts';
import { CreateQuoteBody } from './schema.ts';

/** `POST /v2/quote`. */
export function registerQuoteWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/quote', key: 'quote', body: CreateQuoteBody },
    createQuote,
  );
}

import type { FastifyInstance } from 'fastify';
import { CreateQuoteBody } from '../../api-schema/bodies/quotes.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate } from '../../http/write-routes.ts';
import { createQuote } from './commands.ts';

/** `POST /v2/quote`. */
export function registerQuoteWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/quote', key: 'quote', body: CreateQuoteBody },
    createQuote,
  );
}

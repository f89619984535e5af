import type { FastifyInstance } from 'fastify';
import { AddMemoBody } from '../../api-schema/bodies/notes-todos.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerPathWrite } from '../../http/write-routes.ts';
import { addNoteTo, type MemoSubject } from './commands.ts';

/** Each record type a note can be written on: its path segment and path parameter. */
const PATHS: readonly [MemoSubject, string, string][] = [
  ['people', 'people', 'peopleId'],
  ['organization', 'organization', 'organizationId'],
  ['deal', 'deal', 'dealId'],
  ['lead', 'lead', 'leadId'],
  ['customObject', 'custom-object', 'customObjectId'],
  ['product', 'product', 'productId'],
  ['quote', 'quote', 'quoteId'],
  ['todo', 'todo', 'todoId'],
];

/**
 * `POST /v2/{people|organization|deal|lead|custom-object}/{id}/memo`: a note on a record
 * (201, the note).
 */
export function registerMemoWrites(app: FastifyInstance, deps: RouteDeps): void {
  for (const [type, segment, param] of PATHS) {
    registerPathWrite(
      app,
      deps,
      { path: `/v2/${segment}/:${param}/memo`, param, key: 'memo', body: AddMemoBody, status: 201 },
      (w, actorId, id, body) => addNoteTo(w, actorId, type, id, body),
    );
  }
}

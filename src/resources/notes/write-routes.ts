import type { FastifyInstance } from 'fastify';
import { AddMemoBody } from '../../api-schema/bodies/notes-todos.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerPathWrite } from '../../http/write-routes.ts';
import { addNoteTo, type MemoSubject } from './commands.ts';

/** The path parameter of each record type a note can be written on. */
const PARAM_OF: Record<MemoSubject, string> = {
  people: 'peopleId',
  organization: 'organizationId',
  deal: 'dealId',
  lead: 'leadId',
};

/** `POST /v2/{people|organization|deal|lead}/{id}/memo`: a note on a record (201, the note). */
export function registerMemoWrites(app: FastifyInstance, deps: RouteDeps): void {
  for (const [type, param] of Object.entries(PARAM_OF) as [MemoSubject, string][]) {
    registerPathWrite(
      app,
      deps,
      { path: `/v2/${type}/:${param}/memo`, param, key: 'memo', body: AddMemoBody, status: 201 },
      (w, actorId, id, body) => addNoteTo(w, actorId, type, id, body),
    );
  }
}

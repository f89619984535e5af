import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerUpdate } from '../../http/write-routes.ts';
import { createPerson, updatePerson } from './commands.ts';
import { CreatePersonBody, UpdatePersonBody } from './schema.ts';

/** `POST /v2/people` and `POST /v2/people/{peopleId}`. */
export function registerPeopleWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/people', key: 'people', body: CreatePersonBody },
    createPerson,
  );
  registerUpdate(
    app,
    deps,
    { path: '/v2/people/:peopleId', param: 'peopleId', key: 'people', body: UpdatePersonBody },
    updatePerson,
  );
}

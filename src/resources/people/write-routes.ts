import type { FastifyInstance } from 'fastify';
import { CreatePersonBody, UpdatePersonBody } from '../../api-schema/bodies/people.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerUpdate } from '../../http/write-routes.ts';
import { createPerson, updatePerson } from './commands.ts';

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

import type { FastifyInstance } from 'fastify';
import { MergeBody } from '../../api-schema/bodies/merges.ts';
import { CreatePersonBody, UpdatePersonBody } from '../../api-schema/bodies/people.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerUpdate } from '../../http/write-routes.ts';
import { mergePeople } from '../merges/people.ts';
import { createPerson, updatePerson } from './commands.ts';

/** `POST /v2/people`, `POST /v2/people/{peopleId}` and `POST /v2/people/{peopleId}/merge`. */
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
  registerUpdate(
    app,
    deps,
    { path: '/v2/people/:peopleId/merge', param: 'peopleId', key: 'people', body: MergeBody },
    mergePeople,
  );
}

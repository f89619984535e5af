import type { FastifyInstance } from 'fastify';
import {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from '../../api-schema/bodies/organizations.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerUpdate } from '../../http/write-routes.ts';
import { createOrganization, updateOrganization } from './commands.ts';

/** `POST /v2/organization` and `POST /v2/organization/{organizationId}`. */
export function registerOrganizationWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/organization', key: 'organization', body: CreateOrganizationBody },
    createOrganization,
  );
  registerUpdate(
    app,
    deps,
    {
      path: '/v2/organization/:organizationId',
      param: 'organizationId',
      key: 'organization',
      body: UpdateOrganizationBody,
    },
    updateOrganization,
  );
}

import type { FastifyInstance } from 'fastify';
import { MergeBody } from '../../api-schema/bodies/merges.ts';
import {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from '../../api-schema/bodies/organizations.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerUpdate } from '../../http/write-routes.ts';
import { mergeOrganization } from '../merges/organizations.ts';
import { createOrganization, updateOrganization } from './commands.ts';

/**
 * `POST /v2/organization`, `POST /v2/organization/{organizationId}` and
 * `POST /v2/organization/{organizationId}/merge`.
 */
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
  registerUpdate(
    app,
    deps,
    {
      path: '/v2/organization/:organizationId/merge',
      param: 'organizationId',
      key: 'organization',
      body: MergeBody,
    },
    mergeOrganization,
  );
}

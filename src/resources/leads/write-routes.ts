import type { FastifyInstance } from 'fastify';
import { CreateLeadBody, UpdateLeadBody } from '../../api-schema/bodies/leads.ts';
import { MergeBody } from '../../api-schema/bodies/merges.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerDelete, registerUpdate } from '../../http/write-routes.ts';
import { deletePipelineRecord } from '../deals/commands.ts';
import { mergeLead } from '../merges/leads.ts';
import { createLead, updateLead } from './commands.ts';

/**
 * `POST /v2/lead`, `POST /v2/lead/{leadId}`, `POST /v2/lead/{leadId}/delete` and
 * `POST /v2/lead/{leadId}/merge`.
 */
export function registerLeadWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(app, deps, { path: '/v2/lead', key: 'lead', body: CreateLeadBody }, createLead);
  registerUpdate(
    app,
    deps,
    { path: '/v2/lead/:leadId', param: 'leadId', key: 'lead', body: UpdateLeadBody },
    updateLead,
  );
  registerDelete(app, deps, { path: '/v2/lead/:leadId/delete', param: 'leadId' }, (w, _actor, id) =>
    deletePipelineRecord(w, 'lead', id),
  );
  registerUpdate(
    app,
    deps,
    { path: '/v2/lead/:leadId/merge', param: 'leadId', key: 'lead', body: MergeBody },
    mergeLead,
  );
}

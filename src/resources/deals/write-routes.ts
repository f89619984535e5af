import type { FastifyInstance } from 'fastify';
import { CreateDealBody, UpdateDealBody } from '../../api-schema/bodies/deals.ts';
import { MergeBody } from '../../api-schema/bodies/merges.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerDelete, registerUpdate } from '../../http/write-routes.ts';
import { mergeDeal } from '../merges/deals.ts';
import { createDeal, deletePipelineRecord, updateDeal } from './commands.ts';

/**
 * `POST /v2/deal`, `POST /v2/deal/{dealId}`, `POST /v2/deal/{dealId}/delete` and
 * `POST /v2/deal/{dealId}/merge`.
 */
export function registerDealWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(app, deps, { path: '/v2/deal', key: 'deal', body: CreateDealBody }, createDeal);
  registerUpdate(
    app,
    deps,
    { path: '/v2/deal/:dealId', param: 'dealId', key: 'deal', body: UpdateDealBody },
    updateDeal,
  );
  registerDelete(app, deps, { path: '/v2/deal/:dealId/delete', param: 'dealId' }, (w, _actor, id) =>
    deletePipelineRecord(w, 'deal', id),
  );
  registerUpdate(
    app,
    deps,
    { path: '/v2/deal/:dealId/merge', param: 'dealId', key: 'deal', body: MergeBody },
    mergeDeal,
  );
}

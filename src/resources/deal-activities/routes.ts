import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerActivityList } from '../activities/routes.ts';

/**
 * `GET /v2/deal/activity`: activities of deals and leads, oldest first, with the
 * live API's filters `dealId` (a deal's or a lead's id), `types`, `startDate`, `endDate`.
 */
export function registerDealActivityRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerActivityList(app, deps, {
    path: '/v2/deal/activity',
    listKey: 'dealActivityList',
    idParam: 'dealId',
    subjectTypes: ['deal', 'lead'],
    bodyColumn: 'body',
  });
}

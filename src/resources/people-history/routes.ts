import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerHistoryList } from '../record-history/routes.ts';

/** `GET /v2/people/history`: changes of people, oldest first, filtered by `peopleId`. */
export function registerPeopleHistoryRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerHistoryList(app, deps, {
    path: '/v2/people/history',
    listKey: 'peopleHistoryList',
    subjectType: 'people',
    idParam: 'peopleId',
  });
}

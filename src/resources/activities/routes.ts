import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { ACTIVITY_FILTER_PARAMS, activityScope, readActivityFilter } from './filters.ts';
import { type ActivityListSource, activityPages, filterValues } from './queries.ts';

/** An activity list endpoint: its path, list key, id parameter and what it shows. */
export interface ActivityList extends ActivityListSource {
  path: string;
  listKey: string;
  /** The record filter's parameter, e.g. `peopleId`. */
  idParam: string;
}

/**
 * Registers an activity list (shape A errors) with `cursor`, `limit`, its id parameter,
 * `types`, `startDate` and `endDate`. A record of another workspace filters to nothing;
 * the cursor is bound to every filter value.
 */
export function registerActivityList(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
  list: ActivityList,
): void {
  const pages = activityPages(store, list);
  const known = ['cursor', 'limit', list.idParam, ...ACTIVITY_FILTER_PARAMS];
  app.get(`${base}${list.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, known);
    const filter = readActivityFilter(query.values, list.idParam);
    const values = filterValues(filter);
    return sendListPage(request, reply, cache, query, () => ({
      listKey: list.listKey,
      cursorKeys: NEXT_CURSOR,
      scope: activityScope(list.path, filter),
      fetch: (after, limit) =>
        pages(filter, after !== undefined)(request.auth.workspaceId, values, after, limit),
    }));
  });
}

/**
 * `GET /v2/people/activity`, `GET /v2/organization/activity` and `GET /v2/lead/activity`
 * (docs/decisions.md, Reads and writes): each record type's activities, oldest first.
 */
export function registerSubjectActivityRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerActivityList(app, deps, {
    path: '/v2/people/activity',
    listKey: 'peopleActivityList',
    idParam: 'peopleId',
    subjectTypes: ['people'],
    bodyColumn: 'body',
  });
  registerActivityList(app, deps, {
    path: '/v2/organization/activity',
    listKey: 'organizationActivityList',
    idParam: 'organizationId',
    subjectTypes: ['organization'],
    bodyColumn: 'body',
  });
  registerActivityList(app, deps, {
    path: '/v2/lead/activity',
    listKey: 'leadActivityList',
    idParam: 'leadId',
    subjectTypes: ['lead'],
    bodyColumn: 'lead_body',
  });
}

import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { keysetList } from '../../store/keyset.ts';

/** A history list endpoint: its path, list key, whose history, and the id parameter. */
export interface HistoryList {
  path: string;
  listKey: string;
  subjectType: 'people' | 'organization' | 'deal' | 'lead' | 'customObject';
  /** The record filter's parameter, e.g. `dealId`. */
  idParam: string;
}

/**
 * Registers a history list (shape A errors), oldest first by `createdAt` then id, with
 * `cursor`, `limit` and the id parameter; a record of another workspace filters to nothing.
 * Both forms are one range scan of a history index: `(workspace_id, subject_type,
 * created_at, id)`, or with `subject_id` before `created_at`.
 */
export function registerHistoryList(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
  list: HistoryList,
): void {
  const all = keysetList(store, 'history', 'created_at', (qb) =>
    qb.where('subject_type', '=', list.subjectType),
  );
  const ofRecord = keysetList<'subjectId'>(store, 'history', 'created_at', (qb, param) =>
    qb.where('subject_type', '=', list.subjectType).where('subject_id', '=', param('subjectId')),
  );
  app.get(`${base}${list.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit', list.idParam]);
    const raw = query.values[list.idParam];
    const id = raw === undefined ? undefined : checkedId(list.idParam, raw);
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: list.listKey,
      cursorKeys: NEXT_CURSOR,
      // Unfiltered, the path alone: cursors issued before the filter existed still work.
      scope: id === undefined ? list.path : `${list.path}\u0000${id}`,
      fetch: (after, limit) =>
        id === undefined
          ? all(ws, {}, after, limit)
          : ofRecord(ws, { subjectId: id }, after, limit),
    }));
  });
}

/**
 * `GET /v2/deal/history`, `GET /v2/lead/history` and `GET /v2/organization/history`
 * (docs/decisions.md, Reads and writes): changes of each record type, oldest first.
 */
export function registerRecordHistoryRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerHistoryList(app, deps, {
    path: '/v2/deal/history',
    listKey: 'dealHistoryList',
    subjectType: 'deal',
    idParam: 'dealId',
  });
  registerHistoryList(app, deps, {
    path: '/v2/lead/history',
    listKey: 'leadHistoryList',
    subjectType: 'lead',
    idParam: 'leadId',
  });
  registerHistoryList(app, deps, {
    path: '/v2/organization/history',
    listKey: 'organizationHistoryList',
    subjectType: 'organization',
    idParam: 'organizationId',
  });
}

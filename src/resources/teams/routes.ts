import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { renderTeam, type TeamRow } from '../../render/teams.ts';
import { keysetRows, renderedPage } from '../../store/keyset-rows.ts';
import { teammatesOf } from './queries.ts';

/** `GET /v2/team`: the workspace's teams with their members, oldest first. */
export function registerTeamRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const teams = keysetRows<TeamRow>(store, 'teams', ['id', 'name', 'description', 'created_at']);
  app.get(`${base}/v2/team`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit']);
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'teamList',
      cursorKeys: NEXT_CURSOR,
      scope: '/v2/team',
      fetch: async (after, limit) => {
        const page = await teams(ws, {}, after, limit);
        const members = await teammatesOf(
          store.reader,
          ws,
          page.rows.map((t) => t.id),
        );
        return renderedPage(page, (row) => renderTeam(row, members.get(row.id) ?? []));
      },
    }));
  });
}

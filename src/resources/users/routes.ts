import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderMe, renderUser, type UserRow } from '../../render/users.ts';
import { keysetRows, renderedPage } from '../../store/keyset-rows.ts';
import { prepareQuery } from '../../store/prepared.ts';

const USER_COLUMNS = ['id', 'name', 'status', 'email', 'role', 'created_at', 'updated_at'] as const;

/** `GET /v2/user` (the workspace's users, oldest first), `GET /v2/user/me` and `GET /v2/me`. */
export function registerUserRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const users = keysetRows<UserRow>(store, 'users', USER_COLUMNS);
  app.get(`${base}/v2/user`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit']);
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'userList',
      cursorKeys: NEXT_CURSOR,
      scope: '/v2/user',
      fetch: async (after, limit) =>
        renderedPage(await users(request.auth.workspaceId, {}, after, limit), renderUser),
    }));
  });

  const me = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('users as u')
      .innerJoin('workspaces as w', 'w.id', 'u.workspace_id')
      .select([...USER_COLUMNS.map((c) => `u.${c}` as const), 'w.name as room_name'])
      .where('u.workspace_id', '=', p('ws'))
      .where('u.id', '=', p('id')),
  );
  const sendMe = async (request: FastifyRequest, reply: FastifyReply) => {
    nameIgnored(reply, readQuery(request.query, []));
    const { workspaceId, userId } = request.auth;
    const [values] = await store.rows(me({ ws: workspaceId, id: userId }));
    // Only a user removed from the database by hand leaves its tokens without a user.
    if (!values) throw new DomainError('not_found', '토큰의 사용자를 찾을 수 없습니다.');
    const row = Object.fromEntries(USER_COLUMNS.map((c, i) => [c, values[i]])) as UserRow;
    const user = renderMe(row, { id: workspaceId, name: String(values[USER_COLUMNS.length]) });
    return sendJson(reply, JSON.stringify({ success: true, data: { user } }));
  };
  // `GET /v2/me` answers the same: importers written for the live API call that path.
  for (const path of ['/v2/user/me', '/v2/me'])
    app.get(`${base}${path}`, { config: { errorShape: 'A' } }, sendMe);
}

import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { renderTodo } from '../../render/todos.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import { ownedTodoPages, todoFactsOf, todoPages } from './queries.ts';

/**
 * `GET /v2/todo`: the workspace's todos, oldest first, rendered per page; `ownerId` keeps
 * those of one 담당자.
 */
export function registerTodoRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const todos = todoPages(store);
  const owned = ownedTodoPages(store);
  app.get(`${base}/v2/todo`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit', 'ownerId']);
    const { ownerId } = query.values;
    if (ownerId !== undefined && !isValidId(ownerId))
      throw new DomainError(
        'invalid_parameter',
        `'ownerId' 파라미터 형식이 올바르지 않습니다: '${ownerId.slice(0, 100)}'`,
      );
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'todoList',
      cursorKeys: NEXT_CURSOR,
      // Without the filter, the scope the cursors had before there was one.
      scope: ownerId === undefined ? '/v2/todo' : `/v2/todo\u0000${ownerId}`,
      fetch: async (after, limit) => {
        const page =
          ownerId === undefined
            ? await todos(ws, {}, after, limit)
            : await owned(ws, { ownerId }, after, limit);
        const factsOf = await todoFactsOf(store.reader, ws, page.rows);
        return renderedPage(page, (row) => renderTodo(row, factsOf(row)));
      },
    }));
  });
}

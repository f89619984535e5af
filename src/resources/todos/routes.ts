import type { FastifyInstance } from 'fastify';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { renderTodo } from '../../render/todos.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import { todoFactsOf, todoPages } from './queries.ts';

/** `GET /v2/todo`: the workspace's todos, oldest first, rendered per page. */
export function registerTodoRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const todos = todoPages(store);
  app.get(`${base}/v2/todo`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit']);
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'todoList',
      cursorKeys: NEXT_CURSOR,
      scope: '/v2/todo',
      fetch: async (after, limit) => {
        const page = await todos(ws, {}, after, limit);
        const factsOf = await todoFactsOf(store.reader, ws, page.rows);
        return renderedPage(page, (row) => renderTodo(row, factsOf(row)));
      },
    }));
  });
}

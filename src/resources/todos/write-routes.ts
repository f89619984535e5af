import type { FastifyInstance } from 'fastify';
import { CreateTodoBody, UpdateTodoBody } from '../../api-schema/bodies/notes-todos.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { registerCreate, registerDelete, registerUpdate } from '../../http/write-routes.ts';
import { createTodo, deleteTodo, updateTodo } from './commands.ts';

/** `POST /v2/todo`, `POST /v2/todo/{todoId}` (completing included), `/delete`. */
export function registerTodoWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(app, deps, { path: '/v2/todo', key: 'todo', body: CreateTodoBody }, createTodo);
  registerUpdate(
    app,
    deps,
    { path: '/v2/todo/:todoId', param: 'todoId', key: 'todo', body: UpdateTodoBody },
    updateTodo,
  );
  registerDelete(app, deps, { path: '/v2/todo/:todoId/delete', param: 'todoId' }, (w, _a, id) =>
    deleteTodo(w, id),
  );
}

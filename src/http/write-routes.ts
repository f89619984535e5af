import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { isValidId } from '../domain/ids.ts';
import type { Written } from '../domain/records.ts';
import type { RouteDeps } from '../http/route-deps.ts';
import { type WorkspaceWrite, writeWorkspace } from '../store/write.ts';
import { bodyReader } from './body.ts';
import { readQuery } from './query.ts';
import { sendWritten } from './send.ts';

/** A write endpoint: its path under the base, the key of its answer, and its body schema. */
interface WriteRoute<S extends TObject> {
  path: string;
  /** Key under `data` of the answer (`people`, `deal`, ...). */
  key: string;
  body: S;
}

/** The path id of a record route, checked (`'peopleId' 형식이 올바르지 않습니다`). */
function pathId(request: FastifyRequest, param: string): string {
  const id = (request.params as Record<string, string>)[param]!;
  if (!isValidId(id)) {
    throw new DomainError(
      'invalid_parameter',
      `'${param}' 형식이 올바르지 않습니다: '${id.slice(0, 100)}'`,
    );
  }
  return id;
}

/** Query parameters a write ignores (it has none), to be named with the ignored body keys. */
function ignoredQuery(request: FastifyRequest): string[] {
  return readQuery(request.query, []).ignored;
}

/**
 * Registers a create: `POST path` with a JSON body, run as one write transaction in the
 * token's workspace, answered 201 with `{id, name, createdAt}`.
 */
export function registerCreate<S extends TObject>(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  route: WriteRoute<S>,
  run: (w: WorkspaceWrite, actorId: string, body: S['static']) => Promise<Written>,
): void {
  const read = bodyReader(route.body);
  app.post(`${base}${route.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const ignored = ignoredQuery(request);
    const body = read(request.body);
    const { workspaceId, userId } = request.auth;
    const written = await writeWorkspace(store, workspaceId, (w) => run(w, userId, body.value), {
      actor: { source: 'API', sourceId: userId },
    });
    return sendWritten(reply, 201, route.key, written, [...ignored, ...body.ignored]);
  });
}

/**
 * Registers an update: `POST path` (with `:param`, the record's id) answered 200 with
 * `{id, name, updatedAt}`; an unknown record is a 404.
 */
export function registerUpdate<S extends TObject>(
  app: FastifyInstance,
  deps: RouteDeps,
  route: WriteRoute<S> & { param: string },
  run: (w: WorkspaceWrite, actorId: string, id: string, body: S['static']) => Promise<Written>,
): void {
  registerPathWrite(app, deps, { ...route, status: 200 }, run);
}

/** Registers a delete: `POST path` (with `:param`), no body, answered `{"success": true}`. */
export function registerDelete(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  route: { path: string; param: string },
  run: (w: WorkspaceWrite, actorId: string, id: string) => Promise<void>,
): void {
  app.post(`${base}${route.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const id = pathId(request, route.param);
    const ignored = ignoredQuery(request);
    const body = request.body;
    const bodyKeys =
      body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    const { workspaceId, userId } = request.auth;
    await writeWorkspace(store, workspaceId, (w) => run(w, userId, id), {
      actor: { source: 'API', sourceId: userId },
    });
    return sendWritten(reply, 200, '', undefined, [...ignored, ...bodyKeys]);
  });
}

/**
 * Registers a write to a record named by the path that answers with what it made (a note
 * on the record: `POST /v2/deal/{dealId}/memo`), under `key`, with `status`.
 */
export function registerPathWrite<S extends TObject>(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  route: WriteRoute<S> & { param: string; status: 200 | 201 },
  run: (w: WorkspaceWrite, actorId: string, id: string, body: S['static']) => Promise<unknown>,
): void {
  const read = bodyReader(route.body);
  app.post(`${base}${route.path}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const id = pathId(request, route.param);
    const ignored = ignoredQuery(request);
    const body = read(request.body);
    const { workspaceId, userId } = request.auth;
    const made = await writeWorkspace(store, workspaceId, (w) => run(w, userId, id, body.value), {
      actor: { source: 'API', sourceId: userId },
    });
    return sendWritten(reply, route.status, route.key, made, [...ignored, ...body.ignored]);
  });
}

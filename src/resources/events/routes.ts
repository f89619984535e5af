import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import {
  EVENT_OBJECT_TYPES,
  type EventObjectType,
  isEventObjectType,
} from '../../domain/events.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { readLimit, readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { eventsAfter } from './queries.ts';

/**
 * `GET /v2/event` (docs/decisions.md, Events and webhooks): the workspace's events oldest first.
 * `nextCursor` is never null: at the end it is where to poll from next, and `hasMore` says whether
 * more wait now.
 */
export function registerEventRoutes(app: FastifyInstance, { store, base }: RouteDeps): void {
  app.get(`${base}/v2/event`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit', 'objectType']);
    const objectType = readObjectType(query.values.objectType);
    const limit = readLimit(query.values.limit);
    const { workspaceId, cursorSecret } = request.auth;
    const scope = `/v2/event\u0000${objectType ?? ''}`;
    const after =
      query.values.cursor === undefined ? 0 : positionOf(cursorSecret, scope, query.values.cursor);
    const page = await eventsAfter(store, workspaceId, after, objectType, limit);
    const next = encodeCursor(cursorSecret, scope, { sortKey: String(page.last), id: '' });
    nameIgnored(reply, query);
    return sendJson(
      reply,
      `{"success":true,"data":{"eventList":[${page.events.join(',')}],"nextCursor":${JSON.stringify(next)},"hasMore":${page.more}}}`,
    );
  });
}

function readObjectType(raw: string | undefined): EventObjectType | undefined {
  if (raw === undefined) return undefined;
  if (isEventObjectType(raw)) return raw;
  throw new DomainError(
    'invalid_parameter',
    `'objectType'은 ${Object.keys(EVENT_OBJECT_TYPES).join(', ')} 중 하나여야 합니다: '${raw.slice(0, 100)}'`,
  );
}

function positionOf(secret: string, scope: string, cursor: string): number {
  const position = decodeCursor(secret, scope, cursor);
  const seq = position && /^[0-9]{1,15}$/.test(position.sortKey) ? Number(position.sortKey) : NaN;
  if (!Number.isSafeInteger(seq)) {
    throw new DomainError(
      'invalid_cursor',
      `'cursor' 값이 올바르지 않습니다. 이전 응답이 돌려준 커서를 그대로 보내 주세요.`,
    );
  }
  return seq;
}

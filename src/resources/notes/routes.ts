import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { DEFAULT_MEMO_TYPES, MEMO_TYPE_IDS } from '../../domain/memo-types.ts';
import { parseDateBound } from '../../domain/time.ts';
import { encodeCursor } from '../../http/cursor.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { type NoteRow, renderMemo } from '../../render/notes.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import { MEMO_FILTERS, type MemoFilter, memoById, memoPages } from './queries.ts';

/**
 * `GET /v2/memo` (notes, oldest first, with filters: `customObjectId` keeps a custom object's),
 * `GET /v2/memo/{memoId}` and
 * `GET /v2/memo/type-list` (a static path: the router prefers it to `{memoId}`).
 */
export function registerMemoRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const typeList = JSON.stringify({ success: true, data: { typeList: DEFAULT_MEMO_TYPES } });
  app.get(`${base}/v2/memo/type-list`, { config: { errorShape: 'A' } }, async (request, reply) => {
    nameIgnored(reply, readQuery(request.query, []));
    return sendJson(reply, typeList);
  });

  const pages = memoPages(store);
  app.get(`${base}/v2/memo`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit', ...MEMO_FILTERS]);
    const filters = readMemoFilters(query.values);
    const present = MEMO_FILTERS.filter((name) => filters[name] !== undefined);
    const { workspaceId: ws, cursorSecret } = request.auth;
    const list = pages(present);
    const scope = memoScope(filters);
    // Each note's `cursorId` is the cursor of the list after it, as this list issues them.
    const render = (row: NoteRow) =>
      renderMemo(row, encodeCursor(cursorSecret, scope, { sortKey: row.created_at, id: row.id }));
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'memoList',
      cursorKeys: NEXT_CURSOR,
      scope,
      fetch: async (after, limit) =>
        renderedPage(await list(ws, filters as Record<MemoFilter, string>, after, limit), render),
    }));
  });

  const byId = memoById(store);
  app.get<{ Params: { memoId: string } }>(
    `${base}/v2/memo/:memoId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const { memoId } = request.params;
      if (!isValidId(memoId))
        throw new DomainError(
          'invalid_parameter',
          `'memoId' 형식이 올바르지 않습니다: '${memoId.slice(0, 100)}'`,
        );
      nameIgnored(reply, readQuery(request.query, []));
      const row = await byId(request.auth.workspaceId, memoId);
      if (!row) throw new DomainError('not_found', `메모를 찾을 수 없습니다: '${memoId}'`);
      return sendJson(reply, JSON.stringify({ success: true, data: { memo: renderMemo(row) } }));
    },
  );
}

/** The filters that came after the first ones: each binds a cursor only when given. */
const LATER_FILTERS: readonly MemoFilter[] = ['typeId', 'customObjectId'];

/**
 * What a cursor of `GET /v2/memo` is bound to: the filters. `typeId` and `customObjectId`
 * came later, and are added only when given (each after a mark of its own), so that the
 * cursors handed out before them stay good.
 */
function memoScope(filters: Partial<Record<MemoFilter, string>>): string {
  const parts = [
    '/v2/memo',
    ...MEMO_FILTERS.filter((name) => !LATER_FILTERS.includes(name)).map(
      (name) => filters[name] ?? '',
    ),
  ];
  if (filters.typeId !== undefined) parts.push(filters.typeId);
  if (filters.customObjectId !== undefined) parts.push('customObjectId', filters.customObjectId);
  return parts.join('\u0000');
}

/**
 * The memo filters given, checked: ids must be ids, `typeId` one of the note types, dates `YYYY-MM-DD` or ISO 8601 with an
 * offset (as bounds: start inclusive, end exclusive), and the start not after the end.
 */
function readMemoFilters(
  values: Record<string, string | undefined>,
): Partial<Record<MemoFilter, string>> {
  const out: Partial<Record<MemoFilter, string>> = {};
  for (const name of [
    'ownerId',
    'dealId',
    'leadId',
    'peopleId',
    'organizationId',
    'customObjectId',
  ] as const) {
    const value = values[name];
    if (value === undefined) continue;
    if (!isValidId(value))
      throw new DomainError(
        'invalid_parameter',
        `'${name}' 파라미터 형식이 올바르지 않습니다: '${value.slice(0, 100)}'`,
      );
    out[name] = value;
  }
  for (const [name, side] of [
    ['startDate', 'start'],
    ['endDate', 'end'],
  ] as const) {
    const value = values[name];
    if (value === undefined) continue;
    const bound = parseDateBound(value, side);
    if (bound === undefined)
      throw new DomainError(
        'invalid_parameter',
        `'${name}' 파라미터는 YYYY-MM-DD 날짜이거나 오프셋이 있는 ISO 8601 시각이어야 합니다: '${value.slice(0, 100)}'`,
      );
    out[name] = bound;
  }
  const typeId = values.typeId;
  if (typeId !== undefined) {
    if (!MEMO_TYPE_IDS.includes(typeId))
      throw new DomainError(
        'invalid_parameter',
        `'typeId' 파라미터는 노트 유형의 _id(GET /v2/memo/type-list) 중 하나여야 합니다: '${typeId.slice(0, 100)}' (${MEMO_TYPE_IDS.join(', ')})`,
      );
    out.typeId = typeId;
  }
  if (out.startDate !== undefined && out.endDate !== undefined && out.startDate >= out.endDate)
    throw new DomainError(
      'invalid_parameter',
      `'startDate' 파라미터가 'endDate' 파라미터보다 늦습니다: '${values.startDate}' > '${values.endDate}'`,
    );
  return out;
}

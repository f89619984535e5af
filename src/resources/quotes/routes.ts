import type { FastifyInstance } from 'fastify';
import { DomainError, type DomainErrorCode } from '../../domain/errors.ts';
import { checkedId, recordExists, sendStoredRecords } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import type { Body } from '../../model/tables.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** Whose quotes a route lists. */
interface QuoteOwner {
  path: string;
  param: string;
  table: 'deals' | 'leads';
  column: 'deal_id' | 'lead_id';
  notFound: { code: DomainErrorCode; message: (id: string) => string };
}

const OWNERS: QuoteOwner[] = [
  {
    path: '/v2/lead/:leadId/quote',
    param: 'leadId',
    table: 'leads',
    column: 'lead_id',
    notFound: { code: 'lead_not_found', message: (id) => `리드를 찾을 수 없습니다: '${id}'` },
  },
  {
    path: '/v2/deal/:dealId/quote',
    param: 'dealId',
    table: 'deals',
    column: 'deal_id',
    notFound: { code: 'deal_not_found', message: (id) => `딜을 찾을 수 없습니다: '${id}'` },
  },
];

/**
 * `GET /v2/lead/{leadId}/quote` and `GET /v2/deal/{dealId}/quote` (docs/decisions.md, Reads and
 * writes): the record's quotes, oldest first, as stored, under `data.quoteList` with no cursor. A
 * record the workspace does not have is 404 (shape A).
 */
export function registerQuoteRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, base } = deps;
  for (const owner of OWNERS) {
    const exists = recordExists(store, owner.table);
    const quotesOf = prepareQuery<'ws' | 'id'>((p) =>
      store.reader
        .selectFrom('quotes')
        .select('body')
        .where('workspace_id', '=', p('ws'))
        .where(owner.column, '=', p('id'))
        .orderBy('created_at')
        .orderBy('id'),
    );
    app.get<{ Params: Record<string, string> }>(
      `${base}${owner.path}`,
      { config: { errorShape: 'A' } },
      async (request, reply) => {
        const id = checkedId(owner.param, request.params[owner.param] ?? '');
        const ws = request.auth.workspaceId;
        if (!(await exists(ws, id))) {
          throw new DomainError(owner.notFound.code, owner.notFound.message(id));
        }
        const rows = await store.rows(quotesOf({ ws, id }));
        return sendStoredRecords(
          reply,
          request.query,
          'quoteList',
          rows.map((r) => r[0] as Body),
        );
      },
    );
  }
}

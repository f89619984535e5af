import type { FastifyInstance } from 'fastify';
import { isValidId } from '../../domain/ids.ts';
import type { RouteDeps } from '../../server/app.ts';
import { ApiError } from '../../server/errors.ts';
import { nameIgnored, registerPlainList, sendJson } from '../../server/http.ts';
import { NEXT_CUROSR_AND_CURSOR } from '../../server/list.ts';
import { readQuery } from '../../server/query.ts';
import { keysetList } from '../../store/keyset.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** `GET /v2/lead` (spec 4.5) and `GET /v2/lead/{leadId}/quote` (spec 4.6). */
export function registerLeadRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  registerPlainList(app, cache, base, {
    path: '/v2/lead',
    listKey: 'leadList',
    cursorKeys: NEXT_CUROSR_AND_CURSOR,
    page: keysetList(store, 'leads', 'created_at'),
  });

  const leadExists = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  const quotesOfLead = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('quotes')
      .select('body')
      .where('workspace_id', '=', p('ws'))
      .where('lead_id', '=', p('id'))
      .orderBy('created_at')
      .orderBy('id'),
  );

  app.get<{ Params: { leadId: string } }>(
    `${base}/v2/lead/:leadId/quote`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const { leadId } = request.params;
      if (!isValidId(leadId))
        throw new ApiError(
          'invalid_parameter',
          `'leadId' 형식이 올바르지 않습니다: '${leadId.slice(0, 100)}'`,
        );
      const key = { ws: request.auth.workspaceId, id: leadId };
      if ((await store.rows(leadExists(key))).length === 0) {
        throw new ApiError('lead_not_found', `리드를 찾을 수 없습니다: '${leadId}'`);
      }
      const rows = await store.rows(quotesOfLead(key));
      const parts = rows.map((r) => (Buffer.isBuffer(r[0]) ? r[0] : Buffer.from(r[0] as string)));
      const head = Buffer.from('{"success":true,"data":{"quoteList":[');
      const tail = Buffer.from(']}}');
      const body: Buffer[] = [head];
      parts.forEach((p, i) => {
        if (i > 0) body.push(Buffer.from(','));
        body.push(p);
      });
      body.push(tail);
      nameIgnored(reply, readQuery(request.query, []));
      return sendJson(reply, Buffer.concat(body));
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { NEXT_CUROSR_AND_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { singleDealExtras, withSingleDealExtras } from '../../render/deals.ts';
import { fieldNamesOf } from '../fields/field-names.ts';
import { dealPages, filterValues, refsOf, resolveDealFilter, singleDealQuery } from './queries.ts';

const FILTER_MESSAGES = {
  unknown_pipeline: (p: string | undefined) =>
    `'pipelineName' 파라미터의 파이프라인을 찾을 수 없습니다: '${p}'`,
  unknown_stage: (_p: string | undefined, s: string | undefined) =>
    `'pipelineStageName' 파라미터의 파이프라인 단계를 찾을 수 없습니다: '${s}'`,
  stage_not_in_pipeline: (p: string | undefined, s: string | undefined) =>
    `'pipelineStageName' 파라미터의 단계 '${s}'는 파이프라인 '${p}'에 없습니다.`,
};

/** `GET /v2/deal` and `GET /v2/deal/{dealId}`. */
export function registerDealRoutes(app: FastifyInstance, { store, cache, base }: RouteDeps): void {
  const pages = dealPages(store);
  const singleDeal = singleDealQuery(store);
  const fields = fieldNamesOf(store, 'deal');

  app.get(`${base}/v2/deal`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, [
      'cursor',
      'limit',
      'pipelineName',
      'pipelineStageName',
      'fieldList',
    ]);
    const { pipelineName, pipelineStageName } = query.values;
    return sendListPage(
      request,
      reply,
      cache,
      query,
      async () => {
        const ws = request.auth.workspaceId;
        const filter = await resolveDealFilter(store.reader, ws, pipelineName, pipelineStageName);
        if (typeof filter === 'string') {
          throw new DomainError(
            'unknown_pipeline',
            FILTER_MESSAGES[filter](pipelineName, pipelineStageName),
          );
        }
        const list = pages(filter);
        const values = filterValues(filter);
        return {
          listKey: 'dealList',
          cursorKeys: NEXT_CUROSR_AND_CURSOR,
          scope: `/v2/deal\u0000${pipelineName ?? ''}\u0000${pipelineStageName ?? ''}`,
          fetch: (after, limit) => list(ws, values, after, limit),
        };
      },
      fields,
    );
  });

  app.get<{ Params: { dealId: string } }>(
    `${base}/v2/deal/:dealId`,
    { config: { errorShape: 'B' } },
    async (request, reply) => {
      const { dealId } = request.params;
      if (!isValidId(dealId))
        throw new DomainError(
          'invalid_parameter',
          `'dealId' 형식이 올바르지 않습니다: '${dealId.slice(0, 100)}'`,
        );
      nameIgnored(reply, readQuery(request.query, []));
      const ws = request.auth.workspaceId;
      const row = await singleDeal(ws, dealId);
      if (!row) throw new DomainError('deal_not_found', `딜을 찾을 수 없습니다: '${dealId}'`);
      const followers = await refsOf(store.reader, ws, 'users', row.follower_ids);
      const participants = await refsOf(store.reader, ws, 'people', row.participant_ids);
      const listRecord = JSON.parse(row.body.toString()) as Record<string, unknown>;
      const record = withSingleDealExtras(
        listRecord,
        singleDealExtras(row, followers, participants, now()),
      );
      return sendJson(reply, JSON.stringify({ success: true, data: { deal: [record] } }));
    },
  );
}

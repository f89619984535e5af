import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { renderSubmission, renderWebForm } from '../../render/web-forms.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import { submissionPages, submitCounts, webFormExists, webFormPages } from './queries.ts';

/** `GET /v2/webForm` and `GET /v2/webForm/{webFormId}/submit`, oldest first. */
export function registerWebFormRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  const forms = webFormPages(store);
  app.get(`${base}/v2/webForm`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit']);
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'webFormList',
      cursorKeys: NEXT_CURSOR,
      scope: '/v2/webForm',
      fetch: async (after, limit) => {
        const page = await forms(ws, {}, after, limit);
        const counts = await submitCounts(
          store,
          ws,
          page.rows.map((f) => f.id),
        );
        return renderedPage(page, (row) => renderWebForm(row, counts.get(row.id) ?? 0));
      },
    }));
  });

  const submissions = submissionPages(store);
  const exists = webFormExists(store);
  app.get<{ Params: { webFormId: string } }>(
    `${base}/v2/webForm/:webFormId/submit`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const { webFormId } = request.params;
      if (!isValidId(webFormId))
        throw new DomainError(
          'invalid_parameter',
          `'webFormId' 형식이 올바르지 않습니다: '${webFormId.slice(0, 100)}'`,
        );
      const query = readQuery(request.query, ['cursor', 'limit']);
      const ws = request.auth.workspaceId;
      return sendListPage(request, reply, cache, query, async () => {
        if (!(await exists(ws, webFormId)))
          throw new DomainError('not_found', `웹폼을 찾을 수 없습니다: '${webFormId}'`);
        return {
          listKey: 'webFormSubmitList',
          cursorKeys: NEXT_CURSOR,
          scope: `/v2/webForm/submit\u0000${webFormId}`,
          fetch: async (after, limit) =>
            renderedPage(
              await submissions(ws, { form: webFormId }, after, limit),
              renderSubmission,
            ),
        };
      });
    },
  );
}

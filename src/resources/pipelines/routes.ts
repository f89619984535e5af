import type { FastifyInstance } from 'fastify';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderAllPipelines, renderPipelines } from '../../render/pipelines.ts';
import { allPipelinesQuery, pipelineQuery } from './queries.ts';

/**
 * `GET /v2/deal/pipeline` and `GET /v2/lead/pipeline`: the workspace's pipelines of that
 * kind with their stages, no cursor; `GET /v2/pipeline`: all of them. Static paths, so the router prefers them to
 * `/v2/deal/:dealId`.
 */
export function registerPipelineRoutes(app: FastifyInstance, { store, base }: RouteDeps): void {
  const read = pipelineQuery(store);
  for (const kind of ['deal', 'lead'] as const) {
    app.get(
      `${base}/v2/${kind}/pipeline`,
      { config: { errorShape: 'A' } },
      async (request, reply) => {
        nameIgnored(reply, readQuery(request.query, []));
        const { pipelines, stages } = await read(request.auth.workspaceId, kind);
        const pipelineList = renderPipelines(pipelines, stages);
        return sendJson(reply, JSON.stringify({ success: true, data: { pipelineList } }));
      },
    );
  }

  // `GET /v2/pipeline`: every pipeline at once, in the live API's `_id` keys (docs/decisions.md,
  // Other resources).
  const readAll = allPipelinesQuery(store);
  app.get(`${base}/v2/pipeline`, { config: { errorShape: 'A' } }, async (request, reply) => {
    nameIgnored(reply, readQuery(request.query, []));
    const { pipelines, stages } = await readAll(request.auth.workspaceId);
    const pipelineList = renderAllPipelines(pipelines, stages);
    return sendJson(reply, JSON.stringify({ success: true, data: { pipelineList } }));
  });
}

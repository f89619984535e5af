import type { FastifyInstance } from 'fastify';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderPipelines } from '../../render/pipelines.ts';
import { pipelineQuery } from './queries.ts';

/**
 * `GET /v2/deal/pipeline` and `GET /v2/lead/pipeline`: the workspace's pipelines of that
 * kind with their stages, no cursor. Static paths, so the router prefers them to
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
}

import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import {
  renderEnrollment,
  renderSequence,
  renderStep,
  renderTimelineEvent,
} from '../../render/sequences.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import {
  enrollmentById,
  enrollmentPage,
  hasTimeline,
  sequenceById,
  sequencePage,
  stepPage,
  stepPosition,
  timelinePage,
} from './queries.ts';

/**
 * The five sequence reads of the live API (docs/decisions.md, Other resources): `GET /v2/sequence`,
 * `GET /v2/sequence/{sequenceId}` (`null` for a sequence the workspace lacks, as the live API
 * answers), its steps and enrollments (empty for such a sequence), and an enrollment's
 * timeline (400 for an enrollment the workspace lacks, or one with no step run yet, in the
 * live API's words).
 */
export function registerSequenceRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  const db = store.reader;
  app.get(`${base}/v2/sequence`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['cursor', 'limit']);
    const ws = request.auth.workspaceId;
    return sendListPage(request, reply, cache, query, () => ({
      listKey: 'sequenceList',
      cursorKeys: NEXT_CURSOR,
      scope: '/v2/sequence',
      fetch: async (after, limit) =>
        renderedPage(await sequencePage(db, ws, after, limit), renderSequence),
    }));
  });

  app.get<{ Params: { sequenceId: string } }>(
    `${base}/v2/sequence/:sequenceId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('sequenceId', request.params.sequenceId);
      nameIgnored(reply, readQuery(request.query, []));
      const row = await sequenceById(db, request.auth.workspaceId, id);
      const sequence = row ? renderSequence(row) : null;
      return sendJson(reply, JSON.stringify({ success: true, data: { sequence } }));
    },
  );

  app.get<{ Params: { sequenceId: string } }>(
    `${base}/v2/sequence/:sequenceId/step`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('sequenceId', request.params.sequenceId);
      const query = readQuery(request.query, ['cursor', 'limit']);
      const ws = request.auth.workspaceId;
      return sendListPage(request, reply, cache, query, () => ({
        listKey: 'stepList',
        cursorKeys: NEXT_CURSOR,
        scope: `/v2/sequence/step\u0000${id}`,
        fetch: async (after, limit) =>
          renderedPage(await stepPage(db, ws, id, after, limit), renderStep, stepPosition),
      }));
    },
  );

  app.get<{ Params: { sequenceId: string } }>(
    `${base}/v2/sequence/:sequenceId/enrollment`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('sequenceId', request.params.sequenceId);
      const query = readQuery(request.query, ['cursor', 'limit']);
      const ws = request.auth.workspaceId;
      return sendListPage(request, reply, cache, query, () => ({
        listKey: 'sequenceEnrollmentList',
        cursorKeys: NEXT_CURSOR,
        scope: `/v2/sequence/enrollment\u0000${id}`,
        fetch: async (after, limit) =>
          renderedPage(await enrollmentPage(db, ws, id, after, limit), renderEnrollment, (row) => ({
            sortKey: row.enrolled_at,
            id: row.id,
          })),
      }));
    },
  );

  app.get<{ Params: { enrollId: string } }>(
    `${base}/v2/sequence/enrollment/:enrollId/timeline`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('enrollId', request.params.enrollId);
      const query = readQuery(request.query, ['cursor', 'limit']);
      const ws = request.auth.workspaceId;
      return sendListPage(request, reply, cache, query, async () => {
        if (!(await enrollmentById(db, ws, id)))
          throw new DomainError('invalid_parameter', 'sequenceEnroll이 존재하지 않습니다.');
        if (!(await hasTimeline(db, ws, id)))
          throw new DomainError('invalid_parameter', 'sequenceEnrollStep이 존재하지 않습니다.');
        return {
          listKey: 'timelineList',
          cursorKeys: NEXT_CURSOR,
          scope: `/v2/sequence/enrollment/timeline\u0000${id}`,
          fetch: async (after, limit) =>
            renderedPage(
              await timelinePage(db, ws, id, after, limit),
              renderTimelineEvent,
              (row) => ({
                sortKey: row.date,
                id: row.id,
              }),
            ),
        };
      });
    },
  );
}

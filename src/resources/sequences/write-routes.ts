import type { FastifyInstance } from 'fastify';
import { EnrollBody } from '../../api-schema/bodies/sequences.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { sendWritten } from '../../http/send.ts';
import { registerDelete } from '../../http/write-routes.ts';
import { writeWorkspace } from '../../store/write.ts';
import { enrollPerson, unenroll } from './commands.ts';

/**
 * `POST /v2/sequence/{sequenceId}/enrollment` (`{peopleId}`; 201 with the enrollment) and
 * `POST /v2/sequence/enrollment/{enrollId}/delete`: enroll and unenroll a person, beyond the
 * live API (which documents neither).
 */
export function registerSequenceWrites(app: FastifyInstance, deps: RouteDeps): void {
  const { store, base } = deps;
  const read = bodyReader(EnrollBody);
  app.post<{ Params: { sequenceId: string } }>(
    `${base}/v2/sequence/:sequenceId/enrollment`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const sequenceId = checkedId('sequenceId', request.params.sequenceId);
      const ignored = readQuery(request.query, []).ignored;
      const body = read(request.body);
      const { workspaceId, userId } = request.auth;
      const enrollment = await writeWorkspace(
        store,
        workspaceId,
        (w) => enrollPerson(w, sequenceId, body.value.peopleId),
        { actor: { source: 'API', sourceId: userId } },
      );
      return sendWritten(reply, 201, 'sequenceEnrollment', enrollment, [
        ...ignored,
        ...body.ignored,
      ]);
    },
  );
  registerDelete(
    app,
    deps,
    { path: '/v2/sequence/enrollment/:enrollId/delete', param: 'enrollId' },
    (w, _actor, id) => unenroll(w, id),
  );
}

import type { FastifyInstance } from 'fastify';
import {
  CreateCustomObjectBody,
  UpdateCustomObjectBody,
} from '../../api-schema/bodies/custom-objects.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { sendWrittenData } from '../../http/send.ts';
import { registerCreate, registerDelete } from '../../http/write-routes.ts';
import { writeWorkspace } from '../../store/write.ts';
import { createCustomObject, deleteCustomObject, updateCustomObject } from './commands.ts';

/**
 * `POST /v2/custom-object` (201 `data.customObject {id, name, createdAt}`) and
 * `POST /v2/custom-object/{customObjectId}` (200 `data {customObjectDefinition,
 * customObject}`, the live API's answer of an update) and
 * `POST /v2/custom-object/{customObjectId}/delete` (`{"success": true}`, this service's own, as a
 * deal's delete).
 */
export function registerCustomObjectWrites(app: FastifyInstance, deps: RouteDeps): void {
  registerCreate(
    app,
    deps,
    { path: '/v2/custom-object', key: 'customObject', body: CreateCustomObjectBody },
    createCustomObject,
  );
  const { store, base } = deps;
  const read = bodyReader(UpdateCustomObjectBody);
  app.post<{ Params: { customObjectId: string } }>(
    `${base}/v2/custom-object/:customObjectId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('customObjectId', request.params.customObjectId);
      const ignored = readQuery(request.query, []).ignored;
      const body = read(request.body);
      const { workspaceId, userId } = request.auth;
      const data = await writeWorkspace(
        store,
        workspaceId,
        (w) => updateCustomObject(w, userId, id, body.value),
        { actor: { source: 'API', sourceId: userId } },
      );
      return sendWrittenData(reply, 200, data, [...ignored, ...body.ignored]);
    },
  );
  registerDelete(
    app,
    deps,
    { path: '/v2/custom-object/:customObjectId/delete', param: 'customObjectId' },
    (w, _actor, id) => deleteCustomObject(w, id),
  );
}

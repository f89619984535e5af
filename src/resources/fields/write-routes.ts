import type { FastifyInstance } from 'fastify';
import { CreateFieldBody, UpdateFieldBody } from '../../api-schema/bodies/fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { isValidId } from '../../domain/ids.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { sendWritten } from '../../http/send.ts';
import { writeWorkspace } from '../../store/write.ts';
import { createField, updateField } from './commands.ts';
import { recordTypeOfPath } from './path-types.ts';

/**
 * `POST /v2/field/{type}` (201, `data.field`) and `POST /v2/field/{type}/{fieldId}` (200):
 * each one write, re-rendering the records of the type that show the field.
 */
export function registerFieldWrites(app: FastifyInstance, { store, base }: RouteDeps): void {
  const readCreate = bodyReader(CreateFieldBody);
  app.post<{ Params: { type: string } }>(
    `${base}/v2/field/:type`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const recordType = recordTypeOfPath(request.params.type);
      const ignored = readQuery(request.query, []).ignored;
      const body = readCreate(request.body);
      const { workspaceId, userId } = request.auth;
      const field = await writeWorkspace(
        store,
        workspaceId,
        (w) => createField(w, recordType, body.value),
        { actor: { source: 'API', sourceId: userId } },
      );
      return sendWritten(reply, 201, 'field', field, [...ignored, ...body.ignored]);
    },
  );

  const readUpdate = bodyReader(UpdateFieldBody);
  app.post<{ Params: { type: string; fieldId: string } }>(
    `${base}/v2/field/:type/:fieldId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const recordType = recordTypeOfPath(request.params.type);
      const { fieldId } = request.params;
      if (!isValidId(fieldId))
        throw new DomainError(
          'invalid_parameter',
          `'fieldId' 형식이 올바르지 않습니다: '${fieldId.slice(0, 100)}'`,
        );
      const ignored = readQuery(request.query, []).ignored;
      const body = readUpdate(request.body);
      const { workspaceId, userId } = request.auth;
      const field = await writeWorkspace(
        store,
        workspaceId,
        (w) => updateField(w, recordType, fieldId, body.value),
        { actor: { source: 'API', sourceId: userId } },
      );
      return sendWritten(reply, 200, 'field', field, [...ignored, ...body.ignored]);
    },
  );
}

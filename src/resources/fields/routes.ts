import type { FastifyInstance } from 'fastify';
import type {
  CustomFieldDefinition,
  CustomFieldType,
  SelectOption,
} from '../../domain/custom-fields.ts';
import { BUILT_IN_FIELDS } from '../../domain/field-catalogue.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderFieldList } from '../../render/fields.ts';
import { stageKeysOfWorkspace } from '../../store/catalog.ts';
import { prepareQuery } from '../../store/prepared.ts';
import { recordTypeOfPath } from './path-types.ts';

/** `GET /v2/field/{type}`: the built-in then the custom fields of a record type. */
export function registerFieldRoutes(app: FastifyInstance, { store, base }: RouteDeps): void {
  const customFields = prepareQuery<'ws' | 'type'>((p) =>
    store.reader
      .selectFrom('custom_fields')
      .select(['id', 'name', 'type', 'required', 'options'])
      .where('workspace_id', '=', p('ws'))
      .where('record_type', '=', p('type'))
      .orderBy('position')
      .orderBy('id'),
  );
  app.get<{ Params: { type: string } }>(
    `${base}/v2/field/:type`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const recordType = recordTypeOfPath(request.params.type);
      nameIgnored(reply, readQuery(request.query, []));
      const rows = await store.rows(
        customFields({ ws: request.auth.workspaceId, type: recordType }),
      );
      const custom = rows.map(
        ([id, name, fieldType, required, options]): CustomFieldDefinition => ({
          id: String(id),
          recordType,
          name: String(name),
          type: fieldType as CustomFieldType,
          required: Number(required) === 1,
          options: options === null ? null : (JSON.parse(String(options)) as SelectOption[]),
        }),
      );
      const stages =
        recordType === 'deal' || recordType === 'lead'
          ? ((await stageKeysOfWorkspace(store.reader, request.auth.workspaceId)).get(recordType) ??
            [])
          : [];
      const fieldList = renderFieldList(BUILT_IN_FIELDS[recordType], custom, stages);
      return sendJson(reply, JSON.stringify({ success: true, data: { fieldList } }));
    },
  );
}

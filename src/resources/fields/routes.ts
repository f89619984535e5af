import type { FastifyInstance } from 'fastify';
import type {
  CustomFieldDefinition,
  CustomFieldType,
  SelectOption,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { BUILT_IN_FIELDS } from '../../domain/field-catalogue.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { type FieldRecord, renderFieldList } from '../../render/fields.ts';
import { stageKeysOfWorkspace } from '../../store/catalog.ts';
import type { Store } from '../../store/database.ts';
import { prepareQuery } from '../../store/prepared.ts';
import { definitionNamed, definitionsOf } from '../custom-objects/definitions.ts';
import { recordTypeOfPath } from './path-types.ts';

/**
 * `GET /v2/field/{type}`: the built-in then the custom fields of a record type. For custom
 * objects, those of each definition in turn (or of the one `customObjectDefinitionId`
 * names), each field with its `customObjectDefinitionId`.
 */
export function registerFieldRoutes(app: FastifyInstance, { store, base }: RouteDeps): void {
  const customFields = prepareQuery<'ws' | 'type'>((p) =>
    store.reader
      .selectFrom('custom_fields')
      .select([
        'id',
        'name',
        'type',
        'required',
        'options',
        'custom_object_definition_id',
        'formula',
      ])
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
      const query = readQuery(request.query, ['customObjectDefinitionId']);
      if (recordType !== 'customObject' && query.values.customObjectDefinitionId !== undefined)
        throw new DomainError(
          'invalid_parameter',
          "'customObjectDefinitionId'는 custom-object 필드 목록에만 쓸 수 있습니다.",
        );
      nameIgnored(reply, query);
      const ws = request.auth.workspaceId;
      const rows = await store.rows(customFields({ ws, type: recordType }));
      const custom = rows.map(
        ([
          id,
          name,
          fieldType,
          required,
          options,
          definitionId,
          formula,
        ]): CustomFieldDefinition => ({
          id: String(id),
          recordType,
          name: String(name),
          type: fieldType as CustomFieldType,
          required: Number(required) === 1,
          options: options === null ? null : (JSON.parse(String(options)) as SelectOption[]),
          customObjectDefinitionId: String(definitionId),
          ...(formula === null ? {} : { formula: String(formula) }),
        }),
      );
      const stages =
        recordType === 'deal' || recordType === 'lead'
          ? ((await stageKeysOfWorkspace(store.reader, ws)).get(recordType) ?? [])
          : [];
      const fieldList =
        recordType === 'customObject'
          ? await customObjectFields(store, ws, query.values.customObjectDefinitionId, custom)
          : renderFieldList(BUILT_IN_FIELDS[recordType], custom, stages);
      return sendJson(reply, JSON.stringify({ success: true, data: { fieldList } }));
    },
  );
}

/**
 * The fields of custom objects: for each definition (or the one named), its built-in
 * fields then its own, each with its `customObjectDefinitionId`.
 */
async function customObjectFields(
  store: Store,
  workspaceId: string,
  definitionId: string | undefined,
  custom: readonly CustomFieldDefinition[],
): Promise<(FieldRecord & { customObjectDefinitionId: string })[]> {
  const definitions =
    definitionId === undefined
      ? await definitionsOf(store.reader, workspaceId)
      : [
          (await definitionNamed(
            store.reader,
            workspaceId,
            checkedId('customObjectDefinitionId', definitionId),
            undefined,
          ))!,
        ];
  return definitions.flatMap((d) =>
    renderFieldList(
      BUILT_IN_FIELDS.customObject,
      custom.filter((f) => f.customObjectDefinitionId === d.id),
    ).map((field) => ({ ...field, customObjectDefinitionId: d.id })),
  );
}

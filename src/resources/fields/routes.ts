import type { FastifyInstance } from 'fastify';
import type {
  CustomFieldDefinition,
  CustomFieldType,
  SelectOption,
} from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { BUILT_IN_FIELDS, type FieldRecordType } from '../../domain/field-catalogue.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { renderFieldList } from '../../render/fields.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The `{type}` path values of the field list, and the record type each names. */
const TYPE_OF_PATH = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  'quote-product': 'quoteProduct',
  todo: 'todo',
} as const satisfies Record<string, FieldRecordType>;

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
      const { type } = request.params;
      if (!Object.hasOwn(TYPE_OF_PATH, type))
        throw new DomainError(
          'invalid_parameter',
          `'type' 값이 올바르지 않습니다: '${type.slice(0, 100)}' (${Object.keys(TYPE_OF_PATH).join(', ')} 중 하나)`,
        );
      nameIgnored(reply, readQuery(request.query, []));
      const recordType = TYPE_OF_PATH[type as keyof typeof TYPE_OF_PATH];
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
      const fieldList = renderFieldList(BUILT_IN_FIELDS[recordType], custom);
      return sendJson(reply, JSON.stringify({ success: true, data: { fieldList } }));
    },
  );
}

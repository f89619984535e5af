import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { chooseFields, readFieldChoice } from '../../http/field-choice.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { nameIgnored, sendJson } from '../../http/send.ts';
import { keysetList } from '../../store/keyset.ts';
import { prepareQuery } from '../../store/prepared.ts';
import { registerActivityList } from '../activities/routes.ts';
import { customObjectFieldNames } from '../fields/field-names.ts';
import { registerHistoryList } from '../record-history/routes.ts';
import { CUSTOM_OBJECT_NOT_FOUND } from './commands.ts';
import { definitionNamed } from './definitions.ts';

const LIST_PATH = '/v2/custom-object';

/**
 * The custom object reads (docs/decisions.md, Other resources):
 * `GET /v2/custom-object-definitions`, the records (all, or of one definition named by id and/or
 * name), one record, and their activities and history. The records and the record take
 * `?fieldList=` as the other record reads do: the names of the listed definition's fields, or of
 * any definition's for a list of all; one record, its own definition's.
 */
export function registerCustomObjectRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, cache, base } = deps;
  const definitions = prepareQuery<'ws'>((p) =>
    store.reader
      .selectFrom('custom_object_definitions')
      .select(['id', 'name'])
      .where('workspace_id', '=', p('ws'))
      .orderBy('position')
      .orderBy('id'),
  );
  app.get(
    `${base}/v2/custom-object-definitions`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      nameIgnored(reply, readQuery(request.query, []));
      const rows = await store.rows(definitions({ ws: request.auth.workspaceId }));
      const customObjectDefinitionList = rows.map(([id, name]) => ({
        id: String(id),
        name: String(name),
      }));
      return sendJson(
        reply,
        JSON.stringify({ success: true, data: { customObjectDefinitionList } }),
      );
    },
  );

  // Both are walks of an index: the workspace's, or the definition's, by creation then id.
  const all = keysetList(store, 'custom_objects', 'created_at');
  const ofDefinition = keysetList<'definitionId'>(store, 'custom_objects', 'created_at', (qb, p) =>
    qb.where('definition_id', '=', p('definitionId')),
  );
  const fieldNames = customObjectFieldNames(store);
  const anyFieldNames = fieldNames();
  app.get(`${base}${LIST_PATH}`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, [
      'cursor',
      'limit',
      'customObjectDefinitionId',
      'customObjectDefinitionName',
      'fieldList',
    ]);
    const { customObjectDefinitionId: id, customObjectDefinitionName: name } = query.values;
    const ws = request.auth.workspaceId;
    const definition = await definitionNamed(
      store.reader,
      ws,
      id === undefined ? undefined : checkedId('customObjectDefinitionId', id),
      name,
    );
    return sendListPage(
      request,
      reply,
      cache,
      query,
      () => ({
        listKey: 'customObjectList',
        cursorKeys: NEXT_CURSOR,
        scope: definition ? `${LIST_PATH}\u0000${definition.id}` : LIST_PATH,
        fetch: (after, limit) =>
          definition
            ? ofDefinition(ws, { definitionId: definition.id }, after, limit)
            : all(ws, {}, after, limit),
      }),
      definition ? fieldNames(definition.id) : anyFieldNames,
    );
  });

  registerActivityList(app, deps, {
    path: '/v2/custom-object/activity',
    listKey: 'customObjectActivityList',
    idParam: 'customObjectId',
    subjectTypes: ['customObject'],
    bodyColumn: 'body',
  });
  registerHistoryList(app, deps, {
    path: '/v2/custom-object/history',
    listKey: 'customObjectHistoryList',
    subjectType: 'customObject',
    idParam: 'customObjectId',
  });

  /**
   * A field chosen for one record must be one its definition has: a field of another
   * definition is a 400 naming it, as an unknown one is (the record never shows it).
   */
  const checkOwnFields = async (
    body: Buffer | string,
    chosen: ReadonlySet<string>,
    ws: string,
  ): Promise<void> => {
    const record = JSON.parse(body.toString()) as { customObjectDefinitionId?: unknown };
    const own = await fieldNames(String(record.customObjectDefinitionId))(ws);
    const other = [...chosen].find((name) => !own.has(name));
    if (other !== undefined)
      throw new DomainError(
        'invalid_parameter',
        `'fieldList' 값이 올바르지 않습니다: 이 커스텀 오브젝트의 정의에 없는 필드 '${other.slice(0, 100)}' (GET /v2/field/custom-object?customObjectDefinitionId=가 필드 이름을 알려 줍니다)`,
      );
  };

  const bodyOf = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom('custom_objects')
      .select('body')
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  app.get<{ Params: { customObjectId: string } }>(
    `${base}${LIST_PATH}/:customObjectId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('customObjectId', request.params.customObjectId);
      const query = readQuery(request.query, ['fieldList']);
      nameIgnored(reply, query);
      const ws = request.auth.workspaceId;
      const chosen = await readFieldChoice(query.values.fieldList, ws, anyFieldNames);
      const [row] = await store.rows(bodyOf({ ws, id }));
      const body = row?.[0] as Buffer | string | null | undefined;
      if (body === undefined || body === null)
        throw new DomainError('not_found', `${CUSTOM_OBJECT_NOT_FOUND}: '${id}'`);
      if (chosen) await checkOwnFields(body, chosen, ws);
      // The stored record as it is, spliced into the envelope as one object (not an array).
      const answer = Buffer.concat([
        Buffer.from('{"success":true,"data":{"customObject":'),
        Buffer.isBuffer(body) ? body : Buffer.from(body),
        Buffer.from('}}'),
      ]);
      return sendJson(reply, chosen ? chooseFields(answer, 'customObject', chosen) : answer);
    },
  );
}

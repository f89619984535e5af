import type { FastifyInstance } from 'fastify';
import { DomainError, type DomainErrorCode } from '../../domain/errors.ts';
import { NEXT_CURSOR } from '../../http/list-page.ts';
import { sendListPage } from '../../http/list-route.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import type { Page } from '../../store/keyset.ts';
import { renderedPage } from '../../store/keyset-rows.ts';
import {
  ASSOCIATION_TARGET_TYPES,
  type AssociationTarget,
  CUSTOM_TO_TYPES,
  type CustomTo,
  customAssociations,
  PRIMARY_TO_TYPES,
  type PrimaryTo,
  primaryPage,
  recordExists,
} from './queries.ts';

/** The 404 of a record the workspace does not have, by its type. */
const NOT_FOUND: Record<AssociationTarget, { code: DomainErrorCode; what: string }> = {
  people: { code: 'people_not_found', what: '고객을' },
  organization: { code: 'organization_not_found', what: '회사를' },
  deal: { code: 'deal_not_found', what: '딜을' },
  lead: { code: 'lead_not_found', what: '리드를' },
  'custom-object': { code: 'not_found', what: '커스텀 오브젝트를' },
};

/** A path value that must be one of `values`, or a 400 naming them. */
function oneOf<T extends string>(name: string, value: string, values: readonly T[]): T {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new DomainError(
    'invalid_parameter',
    `'${name}' 값이 올바르지 않습니다: '${value.slice(0, 100)}' (${values.join(', ')} 중 하나)`,
  );
}

type Params = { targetType: string; targetId: string; toTargetType: string };

/**
 * The live API's two association reads (docs/decisions.md, Other resources), oldest first with a
 * cursor: `GET /v2/object/{targetType}/{targetId}/association/{toTargetType}/primary`
 * (`associationIdList`: the ids linked by the records' own keys, or the notes on the record) and
 * `…/custom` (`associationItemList` of `{id, label}`: records linked by a custom Ref field, `label`
 * the field's name). A record the workspace lacks is a 404.
 */
export function registerAssociationRoutes(
  app: FastifyInstance,
  { store, cache, base }: RouteDeps,
): void {
  const db = store.reader;
  const path = `${base}/v2/object/:targetType/:targetId/association/:toTargetType`;

  /** The path's record, checked: its type, its id, and that the workspace has it. */
  const target = async (params: Params, workspaceId: string) => {
    const type = oneOf('targetType', params.targetType, ASSOCIATION_TARGET_TYPES);
    const id = checkedId('targetId', params.targetId);
    return { type, id, exists: () => recordExists(db, workspaceId, type, id) };
  };
  const missing = (type: AssociationTarget, id: string) =>
    new DomainError(NOT_FOUND[type].code, `${NOT_FOUND[type].what} 찾을 수 없습니다: '${id}'`);

  app.get<{ Params: Params }>(
    `${path}/primary`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const ws = request.auth.workspaceId;
      const from = await target(request.params, ws);
      const to = oneOf<PrimaryTo>('toTargetType', request.params.toTargetType, PRIMARY_TO_TYPES);
      const query = readQuery(request.query, ['cursor', 'limit']);
      return sendListPage(request, reply, cache, query, async () => {
        if (!(await from.exists())) throw missing(from.type, from.id);
        return {
          listKey: 'associationIdList',
          cursorKeys: NEXT_CURSOR,
          scope: ['/v2/object/association/primary', from.type, from.id, to].join('\u0000'),
          fetch: async (after, limit): Promise<Page> =>
            renderedPage(
              await primaryPage(db, ws, from.type, from.id, to, after, limit),
              (r) => r.id,
            ),
        };
      });
    },
  );

  app.get<{ Params: Params }>(
    `${path}/custom`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const ws = request.auth.workspaceId;
      const from = await target(request.params, ws);
      const to = oneOf<CustomTo>('toTargetType', request.params.toTargetType, CUSTOM_TO_TYPES);
      const query = readQuery(request.query, ['cursor', 'limit']);
      return sendListPage(request, reply, cache, query, async () => {
        if (!(await from.exists())) throw missing(from.type, from.id);
        return {
          listKey: 'associationItemList',
          cursorKeys: NEXT_CURSOR,
          scope: ['/v2/object/association/custom', from.type, from.id, to].join('\u0000'),
          fetch: async (after, limit): Promise<Page> => {
            // A record has few custom links: all of them are read, the page taken after
            // the cursor's place.
            const all = await customAssociations(db, ws, from.type, from.id, to);
            const rest = after
              ? all.filter(
                  (a) =>
                    a.sortKey > after.sortKey || (a.sortKey === after.sortKey && a.id > after.id),
                )
              : all;
            return renderedPage(
              { rows: rest.slice(0, limit), more: rest.length > limit },
              (a) => ({ id: a.id, label: a.label }),
              (a) => ({ sortKey: a.sortKey, id: a.id }),
            );
          },
        };
      });
    },
  );
}

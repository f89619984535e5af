/**
 * `POST /v3/object/read`: the stored records of many ids at once, in the order asked, each
 * once; ids the workspace does not have are left out. With `fieldList`, each record is cut
 * to `id` and those keys, in the record's own key order.
 */

import type { BatchReadType } from '../../api-schema/bodies/batch.ts';
import { DomainError } from '../../domain/errors.ts';
import { DEAL } from '../../domain/record-types/deals.ts';
import { storedRecordsEnvelope } from '../../http/record-route.ts';
import type { Body } from '../../model/tables.ts';
import { stageKeysOfWorkspace } from '../../store/catalog.ts';
import type { ReadSide } from '../../store/database.ts';
import { fixedKeysOf } from '../custom-fields/fixed-keys.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { stageFieldNames } from '../fields/field-names.ts';

/** The table of each record type a batch read takes. */
export const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  product: 'products',
  quote: 'quotes',
  customObject: 'custom_objects',
} as const satisfies Record<BatchReadType, string>;

/**
 * Keys only the single-deal read (`GET /v2/deal/{dealId}`) has: computed at read time, not
 * part of the stored deal record a batch read serves.
 */
export const SINGLE_DEAL_KEYS: readonly string[] = (DEAL.singleRecordKeys ?? []).map((k) => k.key);

/** The lengths an id list of a batch read is padded to. */
const ID_LIST_SIZES = [1, 10, 50, 100, 250, 500] as const;

/** The stored bodies of the records with these ids, in the order of `ids`, each once. */
export async function storedBodies(
  store: ReadSide,
  type: BatchReadType,
  workspaceId: string,
  ids: readonly string[],
): Promise<Body[]> {
  const unique = [...new Set(ids)];
  // Through `rows` (a cached prepared statement, rows as arrays), with the id list padded to
  // one of a few lengths by repeating its last id: a handful of statements per table, not
  // one per id count crowding the connection's prepared statements.
  const size = ID_LIST_SIZES.find((n) => n >= unique.length) ?? unique.length;
  const padded = [...unique, ...Array<string>(size - unique.length).fill(unique.at(-1)!)];
  const rows = await store.rows(
    store.reader
      .selectFrom(TABLE_OF[type])
      .select(['id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', padded),
  );
  const byId = new Map<string, Body>();
  for (const [id, body] of rows) if (body !== null) byId.set(id as string, body as Body);
  const bodies: Body[] = [];
  for (const id of unique) {
    const body = byId.get(id);
    if (body !== undefined) bodies.push(body);
  }
  return bodies;
}

/**
 * `fieldList` checked against the record type's keys (built-in, a deal's or lead's stage
 * timing keys, then the workspace's custom fields; a custom object's: of any definition): an
 * unknown name, or one that only the single-deal read has, is a 400 naming it.
 */
export async function checkedFieldNames(
  store: ReadSide,
  type: BatchReadType,
  workspaceId: string,
  names: readonly string[],
): Promise<Set<string>> {
  const custom = await customFieldsOf(store.reader, workspaceId, type);
  const stages =
    type === 'deal' || type === 'lead'
      ? stageFieldNames(await stageKeysOfWorkspace(store.reader, workspaceId), type)
      : [];
  const known = new Set([...fixedKeysOf(type), ...stages, ...custom.map((d) => d.name)]);
  for (const name of names) {
    if (type === 'deal' && SINGLE_DEAL_KEYS.includes(name)) {
      throw new DomainError(
        'invalid_body',
        `'fieldList': '${name}'은(는) 딜 하나를 읽을 때(GET /v2/deal/{dealId})만 있는 필드입니다.`,
      );
    }
    if (!known.has(name)) {
      throw new DomainError(
        'invalid_body',
        `'fieldList': 알 수 없는 필드입니다: '${name.slice(0, 100)}'`,
      );
    }
  }
  return new Set(names);
}

/** A stored record cut to `id` and the chosen keys, in its own key order. */
export function projectRecord(body: Body, names: ReadonlySet<string>): string {
  const record = JSON.parse(body.toString()) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'id' || names.has(key)) out[key] = value;
  }
  return JSON.stringify(out);
}

/** A batch read as plain data: what a reader thread takes (`src/server/read-threads.ts`) as well as the route. */
export interface BatchReadRequest {
  workspaceId: string;
  type: BatchReadType;
  idList: string[];
  fieldList?: string[] | undefined;
}

/** The whole answer of a batch read, `{"success":true,"data":{"objectList":[…]}}`, as JSON bytes. */
export async function batchReadAnswer(read: ReadSide, r: BatchReadRequest): Promise<Buffer> {
  const names = r.fieldList
    ? await checkedFieldNames(read, r.type, r.workspaceId, r.fieldList)
    : undefined;
  const bodies = await storedBodies(read, r.type, r.workspaceId, r.idList);
  const records = names ? bodies.map((b) => projectRecord(b, names)) : bodies;
  return storedRecordsEnvelope('objectList', records);
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError, type DomainErrorCode } from '../domain/errors.ts';
import { isValidId } from '../domain/ids.ts';
import type { RouteDeps } from '../http/route-deps.ts';
import type { Body } from '../model/tables.ts';
import type { Store } from '../store/database.ts';
import { prepareQuery } from '../store/prepared.ts';
import { chooseFields, type FieldNames, readFieldChoice } from './field-choice.ts';
import { readQuery } from './query.ts';
import { nameIgnored, sendJson } from './send.ts';

const COMMA = Buffer.from(',');
const TAIL = Buffer.from(']}}');

/**
 * `{"success":true,"data":{"<key>":[…]}}` around stored record bodies, in the order given,
 * spliced as they are (no parse or stringify of the records).
 */
export function storedRecordsEnvelope(key: string, bodies: readonly Body[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"success":true,"data":{"${key}":[`)];
  bodies.forEach((body, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(Buffer.isBuffer(body) ? body : Buffer.from(body));
  });
  parts.push(TAIL);
  return Buffer.concat(parts);
}

/** Sends stored record bodies under `data.<key>`, naming the query parameters it ignored. */
export function sendStoredRecords(
  reply: FastifyReply,
  query: unknown,
  key: string,
  bodies: readonly Body[],
): FastifyReply {
  nameIgnored(reply, readQuery(query, []));
  return sendJson(reply, storedRecordsEnvelope(key, bodies));
}

/**
 * A record id from a path or query parameter, or a 400 naming the parameter (docs/decisions.md,
 * Wire format).
 */
export function checkedId(name: string, value: string): string {
  if (!isValidId(value)) {
    throw new DomainError(
      'invalid_parameter',
      `'${name}' 형식이 올바르지 않습니다: '${value.slice(0, 100)}'`,
    );
  }
  return value;
}

/** Tables whose rows keep their record's stored body. */
type RecordTable = 'people' | 'organizations' | 'deals' | 'leads';

/**
 * A reader of one record's stored body in a workspace, or undefined when the workspace has
 * no such record (another workspace's record included).
 */
export function storedBodyById(store: Store, table: RecordTable) {
  const query = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom(table)
      .select('body')
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  return async (workspaceId: string, id: string): Promise<Body | undefined> => {
    const [row] = await store.rows(query({ ws: workspaceId, id }));
    return row ? (row[0] as Body) : undefined;
  };
}

/** A check that a workspace has a record of `table` with an id. */
export function recordExists(store: Store, table: RecordTable) {
  const query = prepareQuery<'ws' | 'id'>((p) =>
    store.reader
      .selectFrom(table)
      .select('id')
      .where('workspace_id', '=', p('ws'))
      .where('id', '=', p('id')),
  );
  return async (workspaceId: string, id: string): Promise<boolean> =>
    (await store.rows(query({ ws: workspaceId, id }))).length > 0;
}

/** One record read by its path id: `GET {path}/{id}` answers `data.<key>: [record]`. */
export interface RecordRead {
  /** Path under the base, with the id parameter, e.g. `/v2/people/:peopleId`. */
  path: string;
  /** Name of the path parameter, e.g. `peopleId`. */
  param: string;
  table: RecordTable;
  key: string;
  notFound: { code: DomainErrorCode; message: (id: string) => string };
  /** The record's field names: the read then takes `?fieldList=`. */
  fields?: FieldNames;
}

/**
 * Registers a single-record read (shape A errors): the stored list record, byte for byte,
 * as an array of one; 400 for a malformed id, 404 for an id the workspace does not have.
 */
export function registerRecordRead(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  read: RecordRead,
): void {
  const bodyOf = storedBodyById(store, read.table);
  app.get<{ Params: Record<string, string> }>(
    `${base}${read.path}`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId(read.param, request.params[read.param] ?? '');
      const query = readQuery(request.query, read.fields ? ['fieldList'] : []);
      const { workspaceId } = request.auth;
      const chosen =
        read.fields && (await readFieldChoice(query.values.fieldList, workspaceId, read.fields));
      const body = await bodyOf(workspaceId, id);
      if (body === undefined || body === null) {
        throw new DomainError(read.notFound.code, read.notFound.message(id));
      }
      nameIgnored(reply, query);
      const answer = storedRecordsEnvelope(read.key, [body]);
      return sendJson(reply, chosen ? chooseFields(answer, read.key, chosen) : answer);
    },
  );
}

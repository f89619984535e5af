import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ASSOCIATION_TYPES,
  AssociationListBody,
  type AssociationType,
  associationType,
  BatchCreateBody,
  BatchReadBody,
  BatchTypeBody,
  BatchUpdateBody,
  batchObjectType,
} from '../../api-schema/bodies/batch.ts';
import type { CustomFieldDefinition } from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { bodyReader } from '../../http/body.ts';
import { readQuery } from '../../http/query.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { JSON_TYPE, nameIgnored, sendJson } from '../../http/send.ts';
import { renderPipelines } from '../../render/pipelines.ts';
import { writeWorkspace } from '../../store/write.ts';
import { customFieldsOf } from '../fields/field-list.ts';
import { pipelineQuery } from '../pipelines/queries.ts';
import { associationsOf } from './associations.ts';
import { type BatchReadRequest, batchReadAnswer } from './reads.ts';
import { createBatch, refusedAt, updateBatch } from './writes.ts';

/**
 * What one call costs against the workspace's rate limit (the limit counts requests:
 * docs/decisions.md, Rate limits): a batch read or write does the work of up to hundreds of calls,
 * so it counts 10, as the live API's search does; the type lists count 1.
 */
export const BATCH_RATE_COST = 10;

/** Names the query parameters (none are known) and top-level body keys a call ignored. */
function nameIgnoredKeys(request: FastifyRequest, reply: FastifyReply, keys: string[]): void {
  const query = readQuery(request.query, []);
  nameIgnored(reply, { values: {}, ignored: [...query.ignored, ...keys] });
}

/**
 * A reader of a batch body (its schema, and no U+0000 in any text: `bodyReader`). A
 * refusal inside `inputList[i]` says so first and carries `index`, as the refusals of the
 * writes themselves do.
 */
function batchBodyReader<S extends TObject>(schema: S) {
  const read = bodyReader(schema);
  return (body: unknown) => {
    try {
      return read(body);
    } catch (error) {
      const index = /^'inputList\[(\d+)\]/.exec((error as Error).message)?.[1];
      if (index === undefined || !(error instanceof DomainError)) throw error;
      // `'inputList[3].data' ...` reads `inputList[3]: 'data' ...`.
      const message = error.message.replace(`'inputList[${index}].`, `'`);
      throw refusedAt(Number(index), new DomainError(error.code, message));
    }
  };
}

/**
 * The batch operations (`/v3`): `POST /v3/object/read`, `/v3/object/create`,
 * `/v3/object/update`, `/v3/pipeline/list` and `/v3/association/list`, each over the
 * records of `objectType`: `고객`, `회사`, `딜`, `리드` as the live API names them, or
 * `people`, `organization`, `deal`, `lead` (`/v3/association/list` also `커스텀 오브젝트`,
 * `customObject`).
 */
export function registerBatchRoutes(
  app: FastifyInstance,
  { store, base, readThreads }: RouteDeps,
): void {
  const options = { config: { errorShape: 'A' as const, rateCost: BATCH_RATE_COST } };
  const readBody = batchBodyReader(BatchReadBody);
  const createBody = batchBodyReader(BatchCreateBody);
  const updateBody = batchBodyReader(BatchUpdateBody);
  const typeBody = batchBodyReader(BatchTypeBody);
  const pipelines = pipelineQuery(store);

  // A read of up to 500 records is one of the workspace's heavy calls (workspace-gate.ts).
  const readOptions = { config: { ...options.config, heavy: true } };
  app.post(`${base}/v3/object/read`, readOptions, async (request, reply) => {
    const { value, ignored } = readBody(request.body);
    nameIgnoredKeys(request, reply, ignored);
    const read: BatchReadRequest = {
      workspaceId: request.auth.workspaceId,
      type: batchObjectType(value.objectType),
      idList: value.idList,
      fieldList: value.fieldList,
    };
    // On a reader thread when the server has them: 500 records are read and joined there.
    const answer = readThreads
      ? bytesOf(await readThreads.run('batchRead', read))
      : await batchReadAnswer(store, read);
    return sendJson(reply, answer);
  });

  for (const [path, read, run, status] of [
    ['/v3/object/create', createBody, createBatch, 201],
    ['/v3/object/update', updateBody, updateBatch, 200],
  ] as const) {
    app.post(`${base}${path}`, options, async (request, reply) => {
      const { value, ignored } = read(request.body);
      nameIgnoredKeys(request, reply, ignored);
      const { workspaceId, userId } = request.auth;
      const objectList = await writeWorkspace(
        store,
        workspaceId,
        (w) => run(w, userId, value as never),
        { actor: { source: 'API', sourceId: userId } },
      );
      return reply
        .code(status)
        .header('Content-Type', JSON_TYPE)
        .send(JSON.stringify({ success: true, data: { objectList } }));
    });
  }

  const listOptions = { config: { errorShape: 'A' as const } };
  app.post(`${base}/v3/pipeline/list`, listOptions, async (request, reply) => {
    const { value, ignored } = typeBody(request.body);
    nameIgnoredKeys(request, reply, ignored);
    const kind = batchObjectType(value.objectType);
    if (kind !== 'deal' && kind !== 'lead') {
      throw new DomainError(
        'invalid_body',
        `'objectType': 파이프라인은 딜(deal)과 리드(lead)에만 있습니다: '${value.objectType}'`,
      );
    }
    const rows = await pipelines(request.auth.workspaceId, kind);
    const pipelineList = renderPipelines(rows.pipelines, rows.stages);
    return sendJson(reply, JSON.stringify({ success: true, data: { pipelineList } }));
  });

  const associationBody = batchBodyReader(AssociationListBody);
  app.post(`${base}/v3/association/list`, listOptions, async (request, reply) => {
    const { value, ignored } = associationBody(request.body);
    nameIgnoredKeys(request, reply, ignored);
    const custom = new Map<AssociationType, readonly CustomFieldDefinition[]>();
    for (const type of ASSOCIATION_TYPES) {
      custom.set(type, await customFieldsOf(store.reader, request.auth.workspaceId, type));
    }
    const associationList = associationsOf(associationType(value.objectType), custom);
    return sendJson(reply, JSON.stringify({ success: true, data: { associationList } }));
  });
}

/** Bytes as a reader thread's answer carries them (a copied `Buffer` arrives as a `Uint8Array`). */
function bytesOf(answer: unknown): Buffer {
  const bytes = answer as Uint8Array;
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

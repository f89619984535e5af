import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { MAX_FILE_BYTES } from '../../domain/file-types.ts';
import { isValidId } from '../../domain/ids.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { readLimit, readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { JSON_TYPE, nameIgnored, sendJson } from '../../http/send.ts';
import { registerDelete } from '../../http/write-routes.ts';
import { contentDisposition, renderFileListItem } from '../../render/files.ts';
import { writeWorkspace } from '../../store/write.ts';
import {
  deleteFile,
  FILE_OBJECT_TYPES,
  type FileObjectType,
  fileNotFound,
  finishUpload,
  targetExists,
  targetNotFound,
} from './commands.ts';
import { fileBytes, readyFile, recordFilePage } from './queries.ts';
import { MAX_FIELD_BYTES, readUploadForm } from './upload.ts';
import { discardUpload, sweepStaleUploads } from './writes.ts';

/**
 * Files (docs/decisions.md, Other resources): `POST /v2/file` (multipart upload), `GET /v2/file` (a
 * record's files), `GET /v2/file/{fileId}/content` (the bytes; ours) and
 * `POST /v2/file/{fileId}/delete`.
 */
export function registerFileRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, base } = deps;
  // The multipart parser only where files are uploaded: elsewhere a form is still a 415.
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        // One byte past the bound, so that the upload sees that it is too large and stops.
        fileSize: MAX_FILE_BYTES + 1,
        files: 2,
        fields: 20,
        fieldSize: MAX_FIELD_BYTES,
        parts: 30,
      },
      throwFileSizeLimit: false,
    });
    scope.post(`${base}/v2/file`, { config: { errorShape: 'A' } }, async (request, reply) => {
      const query = readQuery(request.query, []);
      const { workspaceId, userId } = request.auth;
      await sweepStaleUploads(store, workspaceId);
      const form = await readUploadForm(request, store, workspaceId, userId);
      try {
        await writeWorkspace(
          store,
          workspaceId,
          (w) =>
            finishUpload(w, userId, {
              fileId: form.file.fileId,
              size: form.file.size,
              chunkCount: form.file.chunkCount,
              target: form.target,
              memo: form.memo,
            }),
          { actor: { source: 'API', sourceId: userId } },
        );
      } catch (error) {
        await discardUpload(store, workspaceId, form.file.fileId);
        throw error;
      }
      nameIgnored(reply, { values: {}, ignored: [...query.ignored, ...form.ignored] });
      return reply
        .code(201)
        .header('Content-Type', JSON_TYPE)
        .send(
          JSON.stringify({ success: true, data: { id: form.file.fileId, name: form.file.name } }),
        );
    });
  });

  app.get(`${base}/v2/file`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, ['objectType', 'objectId', 'cursor', 'limit']);
    const { objectType, objectId, cursor } = query.values;
    const target = listTarget(objectType, objectId);
    const limit = readLimit(query.values.limit);
    const { workspaceId, cursorSecret } = request.auth;
    const scope = `/v2/file\u0000${target.objectType}\u0000${target.objectId}`;
    let after: { sortKey: string; id: string } | undefined;
    if (cursor !== undefined) {
      after = decodeCursor(cursorSecret, scope, cursor);
      if (!after) {
        throw new DomainError(
          'invalid_cursor',
          `'cursor' 값이 올바르지 않습니다. 이전 페이지가 돌려준 커서를 그대로 보내 주세요.`,
        );
      }
    }
    const page = await recordFilePage(store.reader, workspaceId, target, after, limit);
    // A record that is not in the workspace is a 404 (an empty list says it has no files).
    if (page.rows.length === 0 && !(await targetExists(store.reader, workspaceId, target)))
      throw targetNotFound(target);
    const last = page.rows[page.rows.length - 1];
    const data: Record<string, unknown> = { fileList: page.rows.map(renderFileListItem) };
    // As the live API: no `nextCursor` key on the last page.
    if (page.more && last) {
      data.nextCursor = encodeCursor(cursorSecret, scope, {
        sortKey: last.created_at,
        id: last.id,
      });
    }
    nameIgnored(reply, query);
    return sendJson(reply, JSON.stringify({ success: true, data }));
  });

  app.get<{ Params: { fileId: string } }>(
    `${base}/v2/file/:fileId/content`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('fileId', request.params.fileId);
      nameIgnored(reply, readQuery(request.query, []));
      const { workspaceId } = request.auth;
      const file = await readyFile(store.reader, workspaceId, id);
      if (!file) throw fileNotFound(id);
      return reply
        .header('Content-Type', file.content_type)
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition(file.name))
        .header('X-Content-Type-Options', 'nosniff')
        .send(Readable.from(fileBytes(store.reader, workspaceId, file), { objectMode: false }));
    },
  );

  registerDelete(app, deps, { path: '/v2/file/:fileId/delete', param: 'fileId' }, (w, _actor, id) =>
    deleteFile(w, id),
  );
}

/** `objectType` and `objectId` of a list, both required. */
function listTarget(
  objectType: string | undefined,
  objectId: string | undefined,
): { objectType: FileObjectType; objectId: string } {
  if (objectType === undefined || objectId === undefined) {
    const missing = objectType === undefined ? 'objectType' : 'objectId';
    throw new DomainError('invalid_parameter', `'${missing}' 파라미터가 필요합니다.`);
  }
  if (!(FILE_OBJECT_TYPES as readonly string[]).includes(objectType)) {
    throw new DomainError(
      'invalid_parameter',
      `'objectType' 파라미터는 ${FILE_OBJECT_TYPES.join(', ')} 중 하나여야 합니다: '${objectType.slice(0, 100)}'`,
    );
  }
  if (!isValidId(objectId)) {
    throw new DomainError(
      'invalid_parameter',
      `'objectId' 형식이 올바르지 않습니다: '${objectId.slice(0, 100)}'`,
    );
  }
  return { objectType: objectType as FileObjectType, objectId };
}

import type { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import {
  contentMatches,
  extensionOf,
  FILE_EXTENSIONS,
  fileKindOf,
  MAX_FILE_BYTES,
  SNIFF_BYTES,
} from '../../domain/file-types.ts';
import { isValidId } from '../../domain/ids.ts';
import { discardBody, REFUSED_BODY_BOUNDS } from '../../http/discard-body.ts';
import { HttpError } from '../../http/errors.ts';
import { unstorableChar, unstorableMessage } from '../../http/nul-text.ts';
import type { Store } from '../../store/database.ts';
import {
  FILE_OBJECT_TYPES,
  type FileObjectType,
  type FileTarget,
  targetExists,
  targetNotFound,
} from './commands.ts';
import { beginUpload, CHUNK_BYTES, discardUpload, insertChunk } from './writes.ts';

/** What a form may carry besides the file: its fields' text, at most this long. */
export const MAX_FIELD_BYTES = 64 * 1024;

/** The longest file name kept. */
const MAX_NAME_LENGTH = 255;

/** Whether `text` holds a C0 control character or DEL, which no file name keeps. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The form's text fields the upload reads. */
const FIELDS = ['objectType', 'objectId', 'memo'] as const;

/** A file whose bytes are stored, not yet attached (see `finishUpload`). */
export interface StoredUpload {
  fileId: string;
  name: string;
  size: number;
  chunkCount: number;
}

/** An upload's form, read: the stored file, where it goes, its memo, and the fields ignored. */
export interface UploadForm {
  file: StoredUpload;
  target: FileTarget | undefined;
  memo: string | undefined;
  ignored: string[];
}

const TOO_LARGE = `파일은 ${MAX_FILE_BYTES / 1024 / 1024} MB를 넘을 수 없습니다.`;

function invalid(message: string): DomainError {
  return new DomainError('invalid_body', message);
}

/**
 * Reads a `multipart/form-data` upload: the text fields as they come, and the one file,
 * whose bytes go to the store chunk by chunk as they arrive (never more than a chunk and
 * what the network hands over at once in memory). The file is refused when it is empty,
 * larger than 25 MB (counted as it arrives: the upload stops at the bound), of a type not
 * taken, or when its content is not what its extension says. On any refusal the stored
 * part is removed and the rest of the body is read and dropped before the answer goes.
 */
export async function readUploadForm(
  request: FastifyRequest,
  store: Store,
  workspaceId: string,
  ownerId: string,
): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new HttpError(
      'unsupported_media_type',
      '파일은 Content-Type: multipart/form-data 로 보내 주세요 (file, objectType, objectId, memo).',
    );
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_FILE_BYTES + MAX_FIELD_BYTES * FIELDS.length + 64 * 1024) {
    await refuse(request, undefined);
    throw new HttpError('body_too_large', TOO_LARGE);
  }
  const fields: Partial<Record<(typeof FIELDS)[number], string>> = {};
  const ignored: string[] = [];
  let file: StoredUpload | undefined;
  let current: MultipartFile | undefined;
  try {
    for await (const part of request.parts() as AsyncIterable<Multipart>) {
      if (part.type === 'field') {
        const name = part.fieldname as (typeof FIELDS)[number];
        if (!FIELDS.includes(name)) {
          ignored.push(part.fieldname);
          continue;
        }
        if (fields[name] !== undefined) throw invalid(`'${name}' 값은 한 번만 보낼 수 있습니다.`);
        if (part.valueTruncated || typeof part.value !== 'string')
          throw invalid(`'${name}' 값이 너무 깁니다.`);
        // Decoded from UTF-8, a field holds no lone surrogate; U+0000 it can.
        const char = unstorableChar(part.value);
        if (char !== undefined) throw invalid(unstorableMessage(name, char));
        fields[name] = part.value;
        continue;
      }
      current = part;
      if (part.fieldname !== 'file')
        throw invalid(`파일은 'file' 필드로 보내 주세요: '${part.fieldname.slice(0, 100)}'`);
      if (file) throw invalid('파일은 요청 하나에 하나만 올릴 수 있습니다.');
      // Checked before the bytes are read: a form that names no record, a bad one, or one
      // not in the workspace, is refused without storing anything (the upload's write
      // checks the record again).
      const target = targetOf(fields, false);
      if (target && !(await targetExists(store.reader, workspaceId, target)))
        throw targetNotFound(target);
      file = await storeFile(store, workspaceId, ownerId, part);
      current = undefined;
    }
  } catch (error) {
    if (file) await discardUpload(store, workspaceId, file.fileId);
    await refuse(request, current?.file);
    throw translated(error);
  }
  try {
    if (!file) throw invalid(`'file' 필드에 올릴 파일을 보내 주세요.`);
    const target = targetOf(fields, true);
    if (fields.memo !== undefined && fields.memo.length > 10_000)
      throw invalid(`'memo' 값이 너무 깁니다 (10000자까지).`);
    return { file, target, memo: fields.memo, ignored };
  } catch (error) {
    if (file) await discardUpload(store, workspaceId, file.fileId);
    throw error;
  }
}

/** The multipart plugin's own refusals (a malformed form, too many parts) as 400s. */
function translated(error: unknown): unknown {
  if (error instanceof DomainError || error instanceof HttpError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) {
    return invalid('multipart/form-data 본문이 올바르지 않습니다.');
  }
  if (error instanceof Error && /multipart|boundary|terminated early/i.test(error.message)) {
    return invalid('multipart/form-data 본문이 올바르지 않습니다.');
  }
  return error;
}

/**
 * Stops reading the form and drops the rest of the body (within the bounds of a refused
 * body), so that the client, still sending, reads the answer; a body cut short closes the
 * connection.
 */
async function refuse(request: FastifyRequest, file: Readable | undefined): Promise<void> {
  request.raw.unpipe();
  if (file && !file.readableEnded) file.destroy();
  const ended = await discardBody(request.raw, REFUSED_BODY_BOUNDS);
  if (!ended) request.raw.once('end', () => {}).resume();
}

/**
 * `objectType` and `objectId`, both or neither; with `complete`, a form that has only one
 * of them is refused (before the file, only what is given is checked).
 */
function targetOf(
  fields: Partial<Record<(typeof FIELDS)[number], string>>,
  complete: boolean,
): FileTarget | undefined {
  const { objectType, objectId } = fields;
  if (objectType !== undefined && !(FILE_OBJECT_TYPES as readonly string[]).includes(objectType)) {
    throw invalid(
      `'objectType' 값은 ${FILE_OBJECT_TYPES.join(', ')} 중 하나여야 합니다: '${objectType.slice(0, 100)}'`,
    );
  }
  if (objectId !== undefined && !isValidId(objectId)) {
    throw invalid(`'objectId' 형식이 올바르지 않습니다: '${objectId.slice(0, 100)}'`);
  }
  if (objectType === undefined && objectId === undefined) return undefined;
  if (objectType === undefined || objectId === undefined) {
    if (!complete) return undefined;
    throw invalid('objectType 과 objectId 는 함께 전달해야 합니다.');
  }
  return { objectType: objectType as FileObjectType, objectId };
}

/** Stores the form's file, checked, as an `uploading` file; removes what it stored on a refusal. */
async function storeFile(
  store: Store,
  workspaceId: string,
  ownerId: string,
  part: MultipartFile,
): Promise<StoredUpload> {
  const name = part.filename.trim();
  if (name === '') throw invalid(`'file'의 파일 이름이 필요합니다.`);
  // Control characters (a name given as `filename*=utf-8''…` may carry CR, LF, ESC) would
  // go on into the list, the download's header and e-mail attachments.
  if (name.length > MAX_NAME_LENGTH || hasControlCharacter(name))
    throw invalid(
      `'file'의 파일 이름이 올바르지 않습니다 (${MAX_NAME_LENGTH}자까지, 제어 문자 없이).`,
    );
  const kind = fileKindOf(name);
  if (!kind) {
    throw new DomainError(
      'unsupported_file_type',
      `이 형식의 파일은 올릴 수 없습니다: '${name.slice(0, 100)}' (${FILE_EXTENSIONS.join(', ')})`,
    );
  }
  const fileId = await beginUpload(store, workspaceId, {
    name,
    contentType: kind.contentType,
    ownerId,
  });
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let sniffed = false;
  const sniff = (head: Buffer, complete: boolean) => {
    sniffed = true;
    if (!contentMatches(kind, head, complete)) {
      throw new DomainError(
        'unsupported_file_type',
        `파일 내용이 확장자(.${extensionOf(name)})와 맞지 않습니다: '${name.slice(0, 100)}'`,
      );
    }
  };
  const flush = async (bytes: number) => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    await insertChunk(store, workspaceId, fileId, seq++, all.subarray(0, bytes));
    const rest = all.subarray(bytes);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
  };
  try {
    for await (const data of part.file as AsyncIterable<Buffer>) {
      size += data.length;
      // The plugin stops one byte past the bound (its limit is set so): one byte more
      // than 25 MB is enough to refuse, and nothing past it is read into memory.
      if (size > MAX_FILE_BYTES) throw new HttpError('body_too_large', TOO_LARGE);
      pending.push(data);
      pendingBytes += data.length;
      if (!sniffed && pendingBytes >= SNIFF_BYTES) sniff(Buffer.concat(pending), false);
      while (pendingBytes >= CHUNK_BYTES) await flush(CHUNK_BYTES);
    }
    if ((part.file as { truncated?: boolean }).truncated)
      throw new HttpError('body_too_large', TOO_LARGE);
    if (size === 0) throw invalid(`빈 파일은 올릴 수 없습니다: '${name.slice(0, 100)}'`);
    if (!sniffed) sniff(Buffer.concat(pending), true);
    if (pendingBytes > 0) await flush(pendingBytes);
    return { fileId, name, size, chunkCount: seq };
  } catch (error) {
    await discardUpload(store, workspaceId, fileId);
    throw error;
  }
}

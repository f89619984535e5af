import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse as parseDisposition } from 'content-disposition';
import { z } from 'zod';
import { query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { apiCallOf } from './tool-call.ts';
import { WRITES, written } from './write-tools.ts';

/** Record types with files, as the tools name them, and as `objectType` of the API does. */
const FILE_TYPES = {
  people: 'people',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  'custom-object': 'customObject',
} as const;
type FileType = keyof typeof FILE_TYPES;
const fileType = z.enum(Object.keys(FILE_TYPES) as [FileType, ...FileType[]]);

/** The most characters of a text file `get_file` shows. */
const MAX_TEXT_CHARS = 100_000;

/** The largest image `get_file` shows (as an image the model sees). */
const MAX_IMAGE_BYTES = 1024 * 1024;

/** `list_files`: its description, input schema and annotations, built once. */
const LIST_FILES_TOOL = {
  title: "List a record's files",
  description: 'The files attached to a record, oldest first (id, name, createdAt, owner).',
  inputSchema: { type: fileType, id: recordId, cursor: cursorArg },
  annotations: READS,
};

/** `get_file`: its description, input schema and annotations, built once. */
const GET_FILE_TOOL = {
  title: 'Read a file',
  description: `A file's name, contentType and size, and its content if text (first ${MAX_TEXT_CHARS} characters) or an image up to 1 MB.`,
  inputSchema: { id: recordId },
  annotations: READS,
};

/** `upload_file`: its description, input schema and annotations, built once. */
const UPLOAD_FILE_TOOL = {
  title: 'Upload a file',
  description:
    'Upload a file (jpg png gif webp pdf zip doc(x) xls(x) ppt(x) txt csv: the extension decides, the content must match), on the record of type and id if given. Its id goes to send_email attachmentIds. At most about 700 KB over HTTP (1 MiB a call).',
  inputSchema: {
    name: z.string().min(1).max(255).describe('file name with its extension, e.g. 견적서.pdf'),
    contentBase64: z.base64().min(1).describe("the file's bytes, base64"),
    type: fileType.optional(),
    id: recordId.optional(),
    memo: z.string().min(1).optional().describe('a note added to the record with the file'),
  },
  annotations: WRITES,
};

/** One page of a list, as the tools answer it. */
function page(records: unknown, nextCursor: string | null | undefined) {
  return { records, nextCursor: nextCursor ?? null, hasMore: Boolean(nextCursor) };
}

/** The file's name from a download's `Content-Disposition` (`filename*` decoded). */
function fileName(disposition: string | undefined): string | null {
  if (disposition === undefined) return null;
  try {
    return parseDisposition(disposition).parameters.filename ?? null;
  } catch {
    return null;
  }
}

/** What `get_file` answers of a download: the facts, and the content a model can take. */
function fileResult(id: string, bytes: Buffer, headers: Record<string, string | undefined>) {
  const contentType = headers['content-type'] ?? 'application/octet-stream';
  const facts = {
    id,
    name: fileName(headers['content-disposition']),
    contentType,
    size: bytes.length,
  };
  if (contentType.startsWith('text/')) {
    const text = bytes.toString('utf8');
    const shown = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
    const result: CallToolResult = answer({ ...facts, truncated: shown.length < text.length });
    result.content.push({ type: 'text', text: shown });
    return result;
  }
  if (contentType.startsWith('image/') && bytes.length <= MAX_IMAGE_BYTES) {
    const result: CallToolResult = answer(facts);
    const mimeType = contentType.split(';')[0]!.trim();
    result.content.push({ type: 'image', data: bytes.toString('base64'), mimeType });
    return result;
  }
  return answer({ ...facts, content: 'not shown: a kind (or a size) the tool does not show' });
}

/** A `multipart/form-data` body of an upload, built by the platform's `FormData`. */
async function uploadForm(fields: Record<string, string | undefined>, name: string, bytes: Buffer) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, value);
  form.set('file', new Blob([bytes]), name);
  const request = new Request('http://upload.invalid/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return { payload, contentType: request.headers.get('content-type')! };
}

/** Registers the reads of files: a record's list, one file. */
export function registerFileReads(server: McpServer): void {
  server.registerTool('list_files', LIST_FILES_TOOL, async ({ type, id, cursor }, extra) => {
    const call = apiCallOf(extra);
    const path = `/v2/file${query({ objectType: FILE_TYPES[type], objectId: id, cursor })}`;
    const res = await call('GET', path);
    if (!succeeded(res)) return apiError(res);
    return answer(page(res.json.data.fileList, res.json.data.nextCursor));
  });

  server.registerTool('get_file', GET_FILE_TOOL, async ({ id }, extra) => {
    const call = apiCallOf(extra);
    const res = await call('GET', `/v2/file/${encodeURIComponent(id)}/content`, undefined, {
      raw: true,
    });
    if (!succeeded(res) || !res.raw) return apiError(res);
    return fileResult(id, res.raw.bytes, res.raw.headers);
  });
}

/** Registers `upload_file`. */
export function registerFileWrites(server: McpServer): void {
  server.registerTool('upload_file', UPLOAD_FILE_TOOL, async (args, extra) => {
    const call = apiCallOf(extra);
    const { name, contentBase64, type, id, memo } = args;
    const objectType = type === undefined ? undefined : FILE_TYPES[type];
    const form = await uploadForm(
      { objectType, objectId: id, memo },
      name,
      Buffer.from(contentBase64, 'base64'),
    );
    const res = await call('POST', '/v2/file', undefined, { form });
    if (!succeeded(res)) return apiError(res);
    return written(res, res.ignored);
  });
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type ApiCall, query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
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

/** One page of a list, as the tools answer it. */
function page(records: unknown, nextCursor: string | null | undefined) {
  return { records, nextCursor: nextCursor ?? null, hasMore: Boolean(nextCursor) };
}

/** `list_sequences`: its description, input schema and annotations, built once. */
const LIST_SEQUENCES_TOOL = {
  title: 'List sequences',
  description: 'The sequences, or with sequenceId its enrollments (each id is _id).',
  inputSchema: { sequenceId: recordId.optional(), cursor: cursorArg },
  annotations: READS,
};

/** `list_files`: its description, input schema and annotations, built once. */
const LIST_FILES_TOOL = {
  title: "List a record's files",
  description: 'The files attached to a record, oldest first.',
  inputSchema: {
    type: z.enum(Object.keys(FILE_TYPES) as [FileType, ...FileType[]]),
    id: recordId,
    cursor: cursorArg,
  },
  annotations: READS,
};

/** `enroll_in_sequence`: its description, input schema and annotations, built once. */
const ENROLL_TOOL = {
  title: 'Enroll a person in a sequence',
  description: 'Enroll a person in a sequence; delete_record enrollment undoes it.',
  inputSchema: { sequenceId: recordId, peopleId: recordId },
  annotations: WRITES,
};

/** Registers the reads of sequences and of a record's files. */
export function registerSequenceFileReads(server: McpServer, call: ApiCall): void {
  server.registerTool('list_sequences', LIST_SEQUENCES_TOOL, async ({ sequenceId, cursor }) => {
    const path =
      sequenceId === undefined
        ? '/v2/sequence'
        : `/v2/sequence/${encodeURIComponent(sequenceId)}/enrollment`;
    const res = await call('GET', `${path}${query({ cursor })}`);
    if (!succeeded(res)) return apiError(res);
    const key = sequenceId === undefined ? 'sequenceList' : 'sequenceEnrollmentList';
    return answer(page(res.json.data[key], res.json.data.nextCursor));
  });

  server.registerTool('list_files', LIST_FILES_TOOL, async ({ type, id, cursor }) => {
    const path = `/v2/file${query({ objectType: FILE_TYPES[type], objectId: id, cursor })}`;
    const res = await call('GET', path);
    if (!succeeded(res)) return apiError(res);
    return answer(page(res.json.data.fileList, res.json.data.nextCursor));
  });
}

/** Registers `enroll_in_sequence` (unenrolling is `delete_record` of an enrollment). */
export function registerSequenceWrites(server: McpServer, call: ApiCall): void {
  server.registerTool('enroll_in_sequence', ENROLL_TOOL, async ({ sequenceId, peopleId }) => {
    const path = `/v2/sequence/${encodeURIComponent(sequenceId)}/enrollment`;
    const res = await call('POST', path, { peopleId });
    if (!succeeded(res)) return apiError(res);
    return written(res, res.ignored);
  });
}

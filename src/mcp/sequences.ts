import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ApiCall, query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded } from './results.ts';
import { WRITES, written } from './write-tools.ts';

/** `list_sequences`: its description, input schema and annotations, built once. */
const LIST_SEQUENCES_TOOL = {
  title: 'List sequences',
  description: 'The sequences, or with sequenceId its enrollments (each id is _id).',
  inputSchema: { sequenceId: recordId.optional(), cursor: cursorArg },
  annotations: READS,
};

/** `enroll_in_sequence`: its description, input schema and annotations, built once. */
const ENROLL_TOOL = {
  title: 'Enroll a person in a sequence',
  description: 'Enroll a person in a sequence; delete_record enrollment undoes it.',
  inputSchema: { sequenceId: recordId, peopleId: recordId },
  annotations: WRITES,
};

/** Registers `list_sequences`. */
export function registerSequenceReads(server: McpServer, call: ApiCall): void {
  server.registerTool('list_sequences', LIST_SEQUENCES_TOOL, async ({ sequenceId, cursor }) => {
    const path =
      sequenceId === undefined
        ? '/v2/sequence'
        : `/v2/sequence/${encodeURIComponent(sequenceId)}/enrollment`;
    const res = await call('GET', `${path}${query({ cursor })}`);
    if (!succeeded(res)) return apiError(res);
    const key = sequenceId === undefined ? 'sequenceList' : 'sequenceEnrollmentList';
    const nextCursor = res.json.data.nextCursor ?? null;
    return answer({ records: res.json.data[key], nextCursor, hasMore: Boolean(nextCursor) });
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

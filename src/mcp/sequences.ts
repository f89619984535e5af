import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded, toolError } from './results.ts';
import { apiCallOf } from './tool-call.ts';
import { WRITES, written } from './write-tools.ts';

/** `list_sequences`: its description, input schema and annotations, built once. */
const LIST_SEQUENCES_TOOL = {
  title: 'List sequences',
  description:
    'The sequences; with sequenceId its enrollments (each id is _id), or with steps: true its steps; with enrollmentId what happened in that enrollment (e-mails sent, opened, clicked, replied; emailId for get_email).',
  inputSchema: {
    sequenceId: recordId.optional(),
    steps: z.boolean().optional(),
    enrollmentId: recordId.optional(),
    cursor: cursorArg,
  },
  annotations: READS,
};

/** The API path and list key of what `list_sequences` was asked for. */
function listOf(args: {
  sequenceId?: string | undefined;
  steps?: boolean | undefined;
  enrollmentId?: string | undefined;
}) {
  const { sequenceId, steps, enrollmentId } = args;
  if (enrollmentId !== undefined) {
    const path = `/v2/sequence/enrollment/${encodeURIComponent(enrollmentId)}/timeline`;
    return { path, key: 'timelineList' };
  }
  if (sequenceId === undefined) return { path: '/v2/sequence', key: 'sequenceList' };
  const sequence = `/v2/sequence/${encodeURIComponent(sequenceId)}`;
  return steps
    ? { path: `${sequence}/step`, key: 'stepList' }
    : { path: `${sequence}/enrollment`, key: 'sequenceEnrollmentList' };
}

/** `enroll_in_sequence`: its description, input schema and annotations, built once. */
const ENROLL_TOOL = {
  title: 'Enroll a person in a sequence',
  description: 'Enroll a person in a sequence; delete_record enrollment undoes it.',
  inputSchema: { sequenceId: recordId, peopleId: recordId },
  annotations: WRITES,
};

/** Registers `list_sequences`. */
export function registerSequenceReads(server: McpServer): void {
  server.registerTool('list_sequences', LIST_SEQUENCES_TOOL, async ({ cursor, ...args }, extra) => {
    const call = apiCallOf(extra);
    if (args.enrollmentId !== undefined && (args.sequenceId !== undefined || args.steps)) {
      return toolError({
        message: "'enrollmentId' goes alone: the enrollment whose timeline to read",
      });
    }
    if (args.steps && args.sequenceId === undefined) {
      return toolError({ message: "'steps' needs 'sequenceId': the sequence whose steps to list" });
    }
    const { path, key } = listOf(args);
    const res = await call('GET', `${path}${query({ cursor })}`);
    if (!succeeded(res)) return apiError(res);
    const nextCursor = res.json.data.nextCursor ?? null;
    return answer({ records: res.json.data[key], nextCursor, hasMore: Boolean(nextCursor) });
  });
}

/** Registers `enroll_in_sequence` (unenrolling is `delete_record` of an enrollment). */
export function registerSequenceWrites(server: McpServer): void {
  server.registerTool(
    'enroll_in_sequence',
    ENROLL_TOOL,
    async ({ sequenceId, peopleId }, extra) => {
      const call = apiCallOf(extra);
      const path = `/v2/sequence/${encodeURIComponent(sequenceId)}/enrollment`;
      const res = await call('POST', path, { peopleId });
      if (!succeeded(res)) return apiError(res);
      return written(res, res.ignored);
    },
  );
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { query } from './api.ts';
import { READS } from './read-tools.ts';
import { cursorArg, NOTED_TYPES, recordId } from './record-types.ts';
import { answer, apiError, succeeded, toolError } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** `list_notes`: its description, input schema and annotations, built once. */
const LIST_NOTES_TOOL = {
  title: 'List notes',
  description:
    "Notes (메모) oldest first: the workspace's, or with type and id one record's. A reply has parentId (the note it answers); add_note with parentId replies.",
  inputSchema: {
    type: z.enum(NOTED_TYPES).optional(),
    id: recordId.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('page size (default 50)'),
    cursor: cursorArg,
  },
  annotations: READS,
};

/** One page of notes, as the tools answer it. */
function page(records: unknown[], nextCursor: string | null | undefined): CallToolResult {
  return answer({ records, nextCursor: nextCursor ?? null, hasMore: Boolean(nextCursor) });
}

/** The `GET /v2/memo` filter that keeps one record's notes, by the tool's record type. */
function noteFilter(type: (typeof NOTED_TYPES)[number], id: string): Record<string, string> {
  return { [type === 'custom-object' ? 'customObjectId' : `${type}Id`]: id };
}

/** Registers `list_notes`. */
export function registerNoteTools(server: McpServer): void {
  server.registerTool('list_notes', LIST_NOTES_TOOL, async ({ type, id, limit, cursor }, extra) => {
    const call = apiCallOf(extra);
    if ((type === undefined) !== (id === undefined)) {
      return toolError({ message: "'type' and 'id' go together: the record whose notes to list" });
    }
    if (type !== undefined && cursor === undefined) {
      // The list answers an unknown id with nothing: say it is unknown instead.
      const record = await call('GET', `/v2/${type}/${encodeURIComponent(id!)}`);
      if (!succeeded(record)) return apiError(record);
    }
    const filter = type === undefined ? {} : noteFilter(type, id!);
    const res = await call('GET', `/v2/memo${query({ ...filter, limit, cursor })}`);
    if (!succeeded(res)) return apiError(res);
    return page(res.json.data.memoList, res.json.data.nextCursor);
  });
}

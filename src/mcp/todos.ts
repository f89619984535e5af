import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type ApiCall, query } from './api.ts';
import { READS } from './read-tools.ts';
import { CORE_TYPES, type CoreType, cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded, toolError } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** Pages of the workspace's todos one call reads at most while looking for a record's. */
const PAGES_PER_CALL = 10;

/** A record-todos cursor: the API cursor of the next page, and how many todos are left. */
interface RecordCursor {
  c: string;
  l: number | null;
}

function encodeCursor(cursor: RecordCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): RecordCursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString()) as RecordCursor;
    const left = value.l === null || (Number.isInteger(value.l) && value.l > 0);
    return typeof value.c === 'string' && left ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One record's todos. The API lists the workspace's todos only, so they are read a page of
 * 100 at a time and those of the record kept, until the record's `전체 TODO` are found (a
 * lead has no such count: to the end) or `PAGES_PER_CALL` pages are read; the cursor then
 * says where to go on.
 */
async function recordTodos(
  call: ApiCall,
  type: CoreType,
  id: string,
  cursor: string | undefined,
): Promise<CallToolResult> {
  let position: { c: string | null; l: number | null };
  if (cursor === undefined) {
    const res = await call('GET', `/v2/${type}/${encodeURIComponent(id)}`);
    if (!succeeded(res)) return apiError(res);
    const total = (res.json.data[type] as Record<string, unknown>[])[0]?.['전체 TODO'];
    position = { c: null, l: typeof total === 'number' ? total : null };
  } else {
    const decoded = decodeCursor(cursor);
    if (!decoded) {
      return toolError({ message: "'cursor' is not a todo cursor: pass nextCursor unchanged" });
    }
    position = decoded;
  }
  const records: Record<string, unknown>[] = [];
  const key = `${type}Id`;
  for (let pages = 0; pages < PAGES_PER_CALL; pages++) {
    if (position.l !== null && records.length >= position.l) break;
    const res = await call('GET', `/v2/todo${query({ limit: 100, cursor: position.c })}`);
    if (!succeeded(res)) return apiError(res);
    const todos = res.json.data.todoList as Record<string, unknown>[];
    records.push(...todos.filter((todo) => todo[key] === id));
    position.c = res.json.data.nextCursor ?? null;
    if (position.c === null) break;
  }
  const left = position.l === null ? null : position.l - records.length;
  const more = position.c !== null && (left === null || left > 0);
  return answer({
    records,
    nextCursor: more ? encodeCursor({ c: position.c!, l: left }) : null,
    hasMore: more,
  });
}

/** `list_todos`: its description, input schema and annotations, built once. */
const LIST_TODOS_TOOL = {
  title: 'List todos',
  description:
    "The workspace's todos (할 일) oldest first, or with type and id one record's todos (a page may be empty while hasMore is true).",
  inputSchema: {
    type: z.enum(CORE_TYPES).optional(),
    id: recordId.optional(),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('page size without id (default 50)'),
    cursor: cursorArg,
  },
  annotations: READS,
};

/** Registers `list_todos`. */
export function registerTodoTools(server: McpServer): void {
  server.registerTool('list_todos', LIST_TODOS_TOOL, async ({ type, id, limit, cursor }, extra) => {
    const call = apiCallOf(extra);
    if ((type === undefined) !== (id === undefined)) {
      return toolError({ message: "'type' and 'id' go together: the record whose todos to list" });
    }
    if (type !== undefined && id !== undefined) return recordTodos(call, type, id, cursor);
    const res = await call('GET', `/v2/todo${query({ limit, cursor })}`);
    if (!succeeded(res)) return apiError(res);
    const nextCursor = res.json.data.nextCursor ?? null;
    return answer({ records: res.json.data.todoList, nextCursor, hasMore: Boolean(nextCursor) });
  });
}

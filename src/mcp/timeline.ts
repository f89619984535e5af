import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type ApiCall, query } from './api.ts';
import { READS } from './read-tools.ts';
import { CORE_TYPES, type CoreType, cursorArg, recordId } from './record-types.ts';
import { answer, apiError, succeeded, toolError } from './results.ts';
import { apiCallOf } from './tool-call.ts';

/** The three lists a timeline merges, in the order they break ties. */
const SOURCES = [
  { kind: 'activity', at: 'date' },
  { kind: 'note', at: 'createdAt' },
  { kind: 'history', at: 'createdAt' },
] as const;
type Kind = (typeof SOURCES)[number]['kind'];

/** Where a list stands: the API cursor of the page being read, and how many of it were given. */
interface Position {
  c: string | null;
  s: number;
}

/** A timeline cursor: each list's position, or null once it is read to its end. */
type TimelineCursor = Record<Kind, Position | null>;

/** The API path of one list of a record's timeline, from its cursor. */
function pathOf(kind: Kind, type: CoreType, id: string, cursor: string | null): string {
  const idKey = `${type}Id`;
  if (kind === 'note') return `/v2/memo${query({ [idKey]: id, cursor })}`;
  const list = kind === 'activity' ? 'activity' : 'history';
  return `/v2/${type}/${list}${query({ [idKey]: id, cursor })}`;
}

function listKeyOf(kind: Kind, type: CoreType): string {
  if (kind === 'note') return 'memoList';
  return `${type}${kind === 'activity' ? 'Activity' : 'History'}List`;
}

function encodeCursor(cursor: TimelineCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function isPosition(value: unknown): value is Position | null {
  if (value === null) return true;
  const p = value as Position;
  return (
    typeof p === 'object' &&
    (p.c === null || typeof p.c === 'string') &&
    Number.isInteger(p.s) &&
    p.s >= 0 &&
    p.s <= 1000
  );
}

function decodeCursor(text: string): TimelineCursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString()) as TimelineCursor;
    return SOURCES.every(({ kind }) => isPosition(value[kind])) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** One list being merged: where it stands, what is left of its page, and its next page. */
interface Stream {
  kind: Kind;
  at: string;
  position: Position;
  items: Record<string, unknown>[];
  next: string | null;
}

/**
 * A record's timeline: its activities, notes and history merged oldest first, `limit` at a
 * time. Each list is read with the API's own cursors; the timeline's cursor holds, per list,
 * the cursor of the page it stands in and how much of that page was given.
 */
export async function readTimeline(
  call: ApiCall,
  args: { type: CoreType; id: string; limit: number; cursor?: string | undefined },
): Promise<CallToolResult> {
  const { type, id, limit } = args;
  const start: TimelineCursor | undefined = args.cursor
    ? decodeCursor(args.cursor)
    : { activity: { c: null, s: 0 }, note: { c: null, s: 0 }, history: { c: null, s: 0 } };
  if (!start) {
    return toolError({ message: "'cursor' is not a timeline cursor: pass nextCursor unchanged" });
  }
  if (!args.cursor) {
    // The lists answer an unknown id with nothing: say it is unknown instead.
    const record = await call('GET', `/v2/${type}/${encodeURIComponent(id)}`);
    if (!succeeded(record)) return apiError(record);
  }
  const streams: Stream[] = [];
  const load = async (stream: Stream) => {
    const res = await call('GET', pathOf(stream.kind, type, id, stream.position.c));
    if (!succeeded(res)) return res;
    const list = res.json.data[listKeyOf(stream.kind, type)] as Record<string, unknown>[];
    stream.items = list.slice(stream.position.s);
    stream.next = res.json.data.nextCursor ?? null;
    return undefined;
  };
  for (const { kind, at } of SOURCES) {
    const position = start[kind];
    if (!position) continue;
    const stream: Stream = { kind, at, position: { ...position }, items: [], next: null };
    const failed = await load(stream);
    if (failed) return apiError(failed);
    streams.push(stream);
  }
  const entries: Record<string, unknown>[] = [];
  while (entries.length < limit) {
    for (const stream of streams) {
      if (stream.items.length === 0 && stream.next) {
        stream.position = { c: stream.next, s: 0 };
        const failed = await load(stream);
        if (failed) return apiError(failed);
      }
    }
    let first: Stream | undefined;
    for (const stream of streams) {
      if (stream.items.length === 0) continue;
      if (!first || timeOf(stream) < timeOf(first)) first = stream;
    }
    if (!first) break;
    const item = first.items.shift()!;
    first.position.s += 1;
    entries.push({ kind: first.kind, at: item[first.at], ...item });
  }
  const next: TimelineCursor = { activity: null, note: null, history: null };
  for (const stream of streams) {
    if (stream.items.length > 0) next[stream.kind] = stream.position;
    else if (stream.next) next[stream.kind] = { c: stream.next, s: 0 };
  }
  const more = Object.values(next).some((p) => p !== null);
  return answer({ entries, nextCursor: more ? encodeCursor(next) : null, hasMore: more });
}

function timeOf(stream: Stream): number {
  return Date.parse(String(stream.items[0]![stream.at]));
}

/** `get_timeline`: its description, input schema and annotations, built once. */
const GET_TIMELINE_TOOL = {
  title: 'Record timeline',
  description:
    "A person's, organization's, deal's or lead's activities, notes and field history merged oldest first; each entry has kind (activity, note, history) and at (its time).",
  inputSchema: {
    type: z.enum(CORE_TYPES),
    id: recordId,
    limit: z.number().int().min(1).max(200).optional().describe('entries per page (default 50)'),
    cursor: cursorArg,
  },
  annotations: READS,
};

/** Registers `get_timeline`. */
export function registerTimelineTool(server: McpServer): void {
  server.registerTool(
    'get_timeline',
    GET_TIMELINE_TOOL,
    async ({ type, id, limit, cursor }, extra) =>
      readTimeline(apiCallOf(extra), { type, id, limit: limit ?? 50, cursor }),
  );
}

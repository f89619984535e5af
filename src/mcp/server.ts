import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiCall } from './api.ts';
import { registerEmailReads, registerEmailWrites } from './emails.ts';
import { registerFileReads, registerFileWrites } from './files.ts';
import { registerNoteTools } from './notes.ts';
import { registerReadTools } from './read-tools.ts';
import { registerRecordingReads } from './recordings.ts';
import { registerSequenceReads, registerSequenceWrites } from './sequences.ts';
import { registerTimelineTool } from './timeline.ts';
import { registerTodoTools } from './todos.ts';
import { withApiCall } from './tool-call.ts';
import { listedTools } from './tool-list.ts';
import type { ToolMeter } from './tool-meter.ts';
import { registerWebhookReads, registerWebhookWrites } from './webhooks.ts';
import { registerWriteTools } from './write-tools.ts';

/** What the assistant is told of the server as it connects. */
const INSTRUCTIONS =
  "salescrm: a sales CRM (people, organizations, deals, leads, products, quotes, todos, notes, custom objects, sequences, files, e-mails, webhooks). Field names are Korean, as the records show them: call list_fields first to learn a type's fields and how to write them. Lists are paged: pass nextCursor back while hasMore is true. Every call is an ordinary API call of this workspace's token (history, webhooks, rate limit).";

const VERSION: string = createRequire(import.meta.url)('../../package.json').version;

/**
 * The MCP server of one caller: the read tools, and unless the token is read-only the write
 * tools, each calling the API as that caller. `tools/list` is answered from the list of the
 * token's kind, made once a process.
 */
export function createMcpServer(options: {
  call: ApiCall;
  readOnly: boolean;
  /** Counts each tool call's API calls apart (`/mcp`'s rate limit). */
  meter?: ToolMeter;
}): McpServer {
  const server = toolServer(options.call, options.readOnly, options.meter);
  // The SDK's own handler turns every tool's zod input into JSON Schema on every
  // `tools/list`: 17 tools took about 1.5 ms, so a batch of 100 about 150 ms of CPU.
  server.server.setRequestHandler(ListToolsRequestSchema, () => toolList(options.readOnly));
  return server;
}

/** The server with its tools registered, `tools/list` answered by the SDK's own handler. */
export function toolServer(call: ApiCall, readOnly: boolean, meter?: ToolMeter): McpServer {
  const server = new McpServer(
    { name: 'salescrm', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  givesApiCall(server, call, meter);
  registerReadTools(server);
  registerTimelineTool(server);
  registerTodoTools(server);
  registerNoteTools(server);
  registerSequenceReads(server);
  registerFileReads(server);
  registerEmailReads(server);
  registerRecordingReads(server);
  registerWebhookReads(server);
  if (!readOnly) {
    registerWriteTools(server);
    registerSequenceWrites(server);
    registerFileWrites(server);
    registerEmailWrites(server);
    registerWebhookWrites(server);
  }
  return server;
}

/**
 * Makes every tool registered on `server` from now on get, with each call, its API caller in
 * the SDK's context of the call (`apiCallOf(extra)`): `call`, or with a `meter` a caller of
 * that tool call's own, which the meter counts apart from the others of its batch.
 */
function givesApiCall(server: McpServer, call: ApiCall, meter: ToolMeter | undefined): void {
  const register = server.registerTool.bind(server);
  // The SDK's signature is generic over each tool's schemas; the wrapper passes them through.
  // It calls a tool with its arguments, when it has an input schema, and then its context.
  const giving = (name: string, config: never, callback: (...args: unknown[]) => unknown) =>
    register(name, config, ((...args: unknown[]) => {
      const extra = args.pop() as object;
      const run = (caller: ApiCall) => callback(...args, withApiCall(extra, caller));
      return meter ? meter.run(call, run) : run(call);
    }) as never);
  server.registerTool = giving as unknown as typeof server.registerTool;
}

const toolLists = new Map<boolean, Promise<ListToolsResult>>();

/** The `tools/list` answer of a kind of token (read-only or not), made by the SDK once. */
export function toolList(readOnly: boolean): Promise<ListToolsResult> {
  let list = toolLists.get(readOnly);
  if (!list) {
    list = listedTools(toolServer(listingOnly, readOnly));
    toolLists.set(readOnly, list);
    // A list that could not be made is made again by the next caller, not kept failing.
    list.catch(() => toolLists.delete(readOnly));
  }
  return list;
}

/** The API of a server that only lists its tools: never called. */
const listingOnly: ApiCall = () => {
  throw new Error('a server made to list its tools calls no API');
};

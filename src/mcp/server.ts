import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiCall } from './api.ts';
import { registerReadTools } from './read-tools.ts';
import { registerSequenceFileReads, registerSequenceWrites } from './sequences-files.ts';
import { registerTimelineTool } from './timeline.ts';
import { registerTodoTools } from './todos.ts';
import { registerWriteTools } from './write-tools.ts';

/** What the assistant is told of the server as it connects. */
const INSTRUCTIONS =
  "salescrm: a sales CRM (people, organizations, deals, leads, products, quotes, todos, custom objects). Field names are Korean, as the records show them: call list_fields first to learn a type's fields and how to write them. Lists are paged: pass nextCursor back while hasMore is true. Every call is an ordinary API call of this workspace's token (history, webhooks, rate limit).";

const VERSION: string = createRequire(import.meta.url)('../../package.json').version;

/**
 * The MCP server of one caller: the read tools, and unless the token is read-only the write
 * tools, each calling the API as that caller.
 */
export function createMcpServer(options: { call: ApiCall; readOnly: boolean }): McpServer {
  const server = new McpServer(
    { name: 'salescrm', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  registerReadTools(server, options.call);
  registerTimelineTool(server, options.call);
  registerTodoTools(server, options.call);
  registerSequenceFileReads(server, options.call);
  if (!options.readOnly) {
    registerWriteTools(server, options.call);
    registerSequenceWrites(server, options.call);
  }
  return server;
}

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { unstorableText } from '../http/nul-text.ts';
import { injectCall } from './api.ts';
import { MAX_BATCH, messageCost } from './message-cost.ts';
import { createMcpServer } from './server.ts';
import { ToolMeter } from './tool-meter.ts';

/** The workspace's rate limit as `/mcp` counts against it (the server's limiter, given by it). */
export interface McpRateLimit {
  /** Counts `cost` requests, puts the limit's headers on the reply, and past it throws the 429. */
  charge(workspaceId: string, cost: number, reply: FastifyReply): Promise<void>;
  /** Counts `cost` requests of a request already answered. */
  count(workspaceId: string, cost: number): Promise<void>;
}

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (no session: each request
 * brings its bearer token, and a server is made for it). The app's auth hook has checked the
 * token; every message counts against the workspace's rate limit (message-cost.ts), a tool
 * call as the API calls it makes with the same token.
 */
export function registerMcpRoute(
  app: FastifyInstance,
  base: string,
  limit: McpRateLimit | undefined,
): void {
  app.post(`${base}/mcp`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const workspaceId = request.auth.workspaceId;
    // Refused before a message is read, and counted as one request.
    if (Array.isArray(request.body) && request.body.length > MAX_BATCH) {
      await limit?.charge(workspaceId, 1, reply);
      const message = `Invalid Request: a batch holds at most ${MAX_BATCH} messages`;
      return reply.code(400).send(rpcError(null, -32600, message));
    }
    const cost = messageCost(request.body);
    if (cost.upfront > 0) await limit?.charge(workspaceId, cost.upfront, reply);
    const meter = new ToolMeter();
    try {
      // JSON-RPC 2.0: an empty batch is an invalid request (the transport would answer 202).
      if (Array.isArray(request.body) && request.body.length === 0) {
        return reply.code(400).send(rpcError(null, -32600, 'Invalid Request: an empty batch'));
      }
      // U+0000 or a lone surrogate anywhere is refused, as in every other body (the stores do
      // not keep it alike): a tool's name or argument with one was answered 200, an unknown
      // tool or an API error.
      const bad = unstorableText(request.body);
      if (bad !== undefined) {
        const message = `Invalid params: ${bad.char} in ${bad.path || 'the message'}`;
        return reply.code(400).send(rpcError(requestId(request.body), -32602, message));
      }
      const call = injectCall(app, base, request.headers.authorization ?? '');
      const server = createMcpServer({ call, readOnly: request.auth.readOnly, meter });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      keepHeaders(reply);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } finally {
      // Tool calls that made no API call (an unknown tool, arguments of the wrong shape, a
      // request refused before they ran) cost one each, whatever the others of the batch
      // made: counted once it is answered, for the requests that follow.
      const uncounted = meter.unpaid(cost.toolCalls);
      if (uncounted > 0) await limit?.count(workspaceId, uncounted);
    }
  });
}

/** Writes the headers set on the reply (request id, the limit's) on the hijacked response. */
function keepHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

/** A JSON-RPC 2.0 error answer. */
function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id of a single JSON-RPC request (null for a batch, a notification or no id). */
function requestId(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { id } = body as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { unstorableText } from '../http/nul-text.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { injectCall } from './api.ts';
import { createMcpServer } from './server.ts';

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (no session: each request
 * brings its bearer token, and a server is made for it). The app's auth hook has checked the
 * token; each tool call is an API call with the same token, counted by the rate limit.
 */
export function registerMcpRoute(app: FastifyInstance, base: string): void {
  app.post(`${base}/mcp`, { config: { errorShape: 'A' } }, async (request, reply) => {
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
    const authorization = request.headers.authorization ?? '';
    const server = createMcpServer({
      call: injectCall(app, base, authorization),
      readOnly: request.auth.readOnly,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    // The transport writes the answer: the reply's headers are not sent, the raw ones are.
    reply.raw.setHeader('X-Request-Id', request.id);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
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

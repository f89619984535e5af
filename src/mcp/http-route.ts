import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { nulTextPath } from '../http/nul-text.ts';
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
      return reply.code(400).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: an empty batch' },
      });
    }
    // U+0000 anywhere is refused, as in every other body (PostgreSQL keeps no text with it):
    // a tool's name or argument with one was answered 200, an unknown tool or an API error.
    const nul = nulTextPath(request.body);
    if (nul !== undefined) {
      const body = request.body as { id?: unknown } | null;
      const id = body && !Array.isArray(body) && ['string', 'number'].includes(typeof body.id);
      return reply.code(400).send({
        jsonrpc: '2.0',
        id: id ? body.id : null,
        error: { code: -32602, message: `Invalid params: U+0000 in ${nul || 'the message'}` },
      });
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
    reply.raw.setHeader('X-Request-Id', request.id);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}

/** The MCP endpoint (docs/mcp.md): JSON-RPC over Streamable HTTP, with the API's tokens. */
import { Type } from '@sinclair/typebox';
import type { Operation } from './operation.ts';

/** A JSON-RPC 2.0 message of the Model Context Protocol. */
const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    method: Type.Optional(Type.String()),
    params: Type.Optional(Type.Unknown()),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

/**
 * A refusal of the MCP layer itself (a message that is not JSON-RPC, an unknown method, a
 * missing `Accept`): a JSON-RPC error response, as the protocol requires. Errors before it
 * (token, media type, body size) are in shape A.
 */
export const JsonRpcError = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    error: Type.Object({
      code: Type.Integer(),
      message: Type.String(),
      data: Type.Optional(Type.Unknown()),
    }),
  },
  { additionalProperties: false, description: 'A JSON-RPC 2.0 error response' },
);

/** In the order the OpenAPI document lists them. */
export const MCP_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    path: '/mcp',
    operationId: 'mcp',
    summary:
      'The MCP server for AI assistants (Streamable HTTP, stateless, JSON answers): tools that read and write this workspace as the token; every message counts against the rate limit (a tool call as the API calls it makes), a batch holds at most 100; a read-only token gets only the read tools',
    tag: 'MCP',
    query: [],
    body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage)]),
    status: 200,
    response: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage)]),
    errorShape: 'A',
    api: false,
    mcp: true,
  },
];

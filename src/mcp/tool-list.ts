import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The answer a server's own `tools/list` handler gives, asked once over an in-process
 * transport (then the server is closed): the SDK's JSON Schemas of the tools' zod inputs,
 * byte for byte what a client would be sent. Frozen, since every answer then shares it.
 */
export async function listedTools(server: McpServer): Promise<ListToolsResult> {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const answer = new Promise<JSONRPCMessage>((resolve) => {
    ours.onmessage = resolve;
  });
  await server.connect(theirs);
  await ours.start();
  await ours.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const message = await answer;
  await server.close();
  if (!('result' in message)) throw new Error(`tools/list failed: ${JSON.stringify(message)}`);
  return deepFreeze(message.result as ListToolsResult);
}

/** Freezes a JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

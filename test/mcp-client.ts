/** What the MCP tests share: the tools a token is offered, and an SDK client to call them. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read tool answers as JSON
export type Json = any;

/** The tools every token is offered. */
export const READ_TOOLS = [
  'get_email',
  'get_file',
  'get_recording',
  'get_records',
  'get_timeline',
  'list_fields',
  'list_files',
  'list_notes',
  'list_pipelines',
  'list_quotes',
  'list_records',
  'list_sequences',
  'list_todos',
  'list_users',
  'list_webhooks',
  'search_records',
];

/** The tools a token that may write is offered too. */
export const WRITE_TOOLS = [
  'add_note',
  'create_quote',
  'create_record',
  'create_webhook',
  'delete_record',
  'enroll_in_sequence',
  'send_email',
  'update_record',
  'upload_file',
];

/** A connected SDK client over Streamable HTTP to `url`/mcp with a bearer token. */
export async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'salescrm-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool; its text parsed, and whether it is a tool error. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; json: Json }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = result.content[0]!.text;
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { isError: result.isError === true, json };
}

/** How many messages one JSON-RPC batch may hold (the SDK's transport refuses more too). */
export const MAX_BATCH = 100;

/** What the messages of one `/mcp` request cost against the workspace's rate limit. */
export interface MessageCost {
  /**
   * Counted before any message runs: one for each message that is not a tool call (a
   * request such as `initialize` or `tools/list`, a notification, a response), and one for
   * a request with no message at all.
   */
  upfront: number;
  /**
   * The tool calls, which cost what they cost before `/mcp` counted messages: the API calls
   * they make, each counted as the API counts it (a search 10). Those that make none are
   * counted one each once the request is answered, so that no message is free.
   */
  toolCalls: number;
}

/** The cost of a request's body: one message, or a batch of them. */
export function messageCost(body: unknown): MessageCost {
  const messages = Array.isArray(body) ? body : [body];
  const toolCalls = messages.filter(isToolCall).length;
  return { upfront: Math.max(messages.length - toolCalls, toolCalls === 0 ? 1 : 0), toolCalls };
}

/** A `tools/call` request (with an id: a notification of that name calls nothing). */
function isToolCall(message: unknown): boolean {
  if (message === null || typeof message !== 'object') return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return method === 'tools/call' && (typeof id === 'string' || typeof id === 'number');
}

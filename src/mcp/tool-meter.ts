import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tool call under way, for every meter of the process: one storage, never one a meter.
 * Node.js 20 keeps each `AsyncLocalStorage` that has run in a list that every new promise of
 * the process walks, for as long as the process lives. With one a `/mcp` request, each request
 * made every later promise slower: a list read took 2.1 ms, and 8.8 ms once the server had
 * answered 2,000 tool calls (docs/benchmarks.md, The MCP server).
 */
const TOOL_CALL = new AsyncLocalStorage<{ calls: number }>();

/**
 * Which tool calls of one `/mcp` request paid for themselves: a tool call costs the API calls
 * it makes, and one that makes none (an unknown tool, arguments of the wrong shape, a tool
 * that refused before calling) costs one. Each tool's callback runs in a scope of its own
 * (`wrap`), where `apiCall` counts, so that a call that made many does not pay for one of
 * the same batch that made none.
 */
export class ToolMeter {
  private started = 0;
  private idle = 0;

  /** `callback`, counted: each run is a tool call that got as far as its tool. */
  wrap<A extends unknown[], R>(callback: (...args: A) => R | Promise<R>) {
    return async (...args: A): Promise<R> => {
      this.started += 1;
      const made = { calls: 0 };
      try {
        return await TOOL_CALL.run(made, () => callback(...args));
      } finally {
        if (made.calls === 0) this.idle += 1;
      }
    };
  }

  /** Counts an API call of the tool call under way. */
  apiCall(): void {
    const made = TOOL_CALL.getStore();
    if (made) made.calls += 1;
  }

  /** Of the request's `toolCalls`, those that made no API call, which cost one each. */
  unpaid(toolCalls: number): number {
    return Math.max(0, toolCalls - this.started) + this.idle;
  }
}

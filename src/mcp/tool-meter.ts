import type { ApiCall } from './api.ts';

/**
 * Which tool calls of one `/mcp` request paid for themselves: a tool call costs the API calls
 * it makes, and one that makes none (an unknown tool, arguments of the wrong shape, a tool
 * that refused before calling) costs one. Each tool call that reaches its tool runs with an
 * API caller of its own (`run`), which counts what that call makes, so that a call that made
 * many does not pay for one of the same batch that made none.
 */
export class ToolMeter {
  private started = 0;
  private idle = 0;

  /** Runs one tool call with a caller of its own, counting the API calls it makes through `call`. */
  async run<R>(call: ApiCall, toolCall: (counted: ApiCall) => R | Promise<R>): Promise<R> {
    this.started += 1;
    let made = 0;
    const counted: ApiCall = (...args) => {
      made += 1;
      return call(...args);
    };
    try {
      return await toolCall(counted);
    } finally {
      if (made === 0) this.idle += 1;
    }
  }

  /** Of the request's `toolCalls`, those that made no API call, which cost one each. */
  unpaid(toolCalls: number): number {
    return Math.max(0, toolCalls - this.started) + this.idle;
  }
}

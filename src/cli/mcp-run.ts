/** What `salescrm mcp` does (`mcp.ts` declares it; imported when it runs). */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config.ts';
import { injectCall } from '../mcp/api.ts';
import { createMcpServer } from '../mcp/server.ts';
import { buildApp } from '../server/app.ts';
import { tokenAuthenticator } from '../server/auth.ts';
import { sharedRateLimiter } from '../server/redis-rate-limit.ts';
import { UsageError } from './command.ts';
import { withStore } from './with-store.ts';

/**
 * `salescrm mcp --token TOKEN`: the MCP server on stdin and stdout, for a desktop assistant
 * that starts it. Every tool call runs in this process through the API (its validation,
 * history and webhook events, and rate limit) as the token; stdout carries only the
 * protocol. Ends when the assistant closes stdin.
 */
export async function runMcp(config: Config, { token }: { token: string }): Promise<number> {
  if (token === '') throw new UsageError('mcp needs a token: --token TOKEN or SALESCRM_TOKEN');
  return withStore(config, async (store) => {
    const authorization = `Bearer ${token}`;
    let readOnly: boolean;
    try {
      readOnly = (await tokenAuthenticator(store)(authorization)).readOnly;
    } catch (error) {
      console.error(`salescrm: mcp: ${(error as Error).message}`);
      return 1;
    }
    // With REDIS_URL, tool calls count against the same limit as the servers' requests.
    const limiter = await sharedRateLimiter(config);
    const app = await buildApp({
      store,
      // One local client, whose calls wait for each other: nothing to shed (a process busy
      // starting would refuse its first calls).
      config: { ...config, logRequests: false, overloadDelayMs: 0 },
      rateLimiter: limiter,
    });
    await app.ready();
    const server = createMcpServer({
      call: injectCall(app, config.basePath, authorization),
      readOnly,
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(transport);
    await closed;
    await server.close();
    await app.close();
    await limiter?.close();
    return 0;
  });
}

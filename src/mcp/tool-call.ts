import type { ApiCall } from './api.ts';

/** Where a tool call's API caller rides in the SDK's context of the call (its `extra`). */
const API_CALL = Symbol('apiCall');

/** The SDK's context of one tool call as a tool gets it: with the call's API caller. */
interface WithApiCall {
  readonly [API_CALL]?: ApiCall;
}

/**
 * `extra` (the SDK's context of one tool call) with `call` as the call's API caller. Each
 * tool call gets its own, so that what one call makes is counted apart from the others of
 * its batch without an `AsyncLocalStorage`: once one has run, Node.js 20 runs its promise
 * hooks for every promise of the process, and after a single tool call the server's list
 * reads came 28 % fewer a second (docs/benchmarks.md, The MCP server).
 */
export function withApiCall<E extends object>(extra: E, call: ApiCall): E {
  return { ...extra, [API_CALL]: call };
}

/** The API caller of the tool call whose context `extra` is (`toolServer` put it there). */
export function apiCallOf(extra: unknown): ApiCall {
  const call = (extra as WithApiCall | undefined)?.[API_CALL];
  if (!call)
    throw new Error('a tool ran without its API caller: register tools through toolServer');
  return call;
}

import type { Store } from '../store/database.ts';
import type { PageCache } from './page-cache.ts';

/** Who a request acts as, and the workspace it sees. */
export interface AuthContext {
  workspaceId: string;
  userId: string;
  tokenId: string;
  /** The workspace's data version when the request arrived. */
  dataVersion: number;
  /** The workspace's catalog version (its custom fields, names, webhooks) when the request arrived. */
  catalogVersion: number;
  cursorSecret: string;
  /** The token may only read: every write route answers 403. */
  readOnly: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every `/v2` route. */
    auth: AuthContext;
    /** Ends a heavy call's turn in its workspace (set while it holds one). */
    leaveGate: (() => void) | null;
  }
  interface FastifyContextConfig {
    /** The error body shape of the route (docs/decisions.md, Error shapes); A when unset. */
    errorShape?: 'A' | 'B';
    /** Requests one call counts against the rate limit (1 when unset). */
    rateCost?: number;
    /**
     * A call that may read a whole workspace (a search, a batch read, an association
     * walk): a workspace runs only a few at once, and queues or refuses the rest
     * (`src/server/workspace-gate.ts`).
     */
    heavy?: boolean;
  }
}

/** What every resource's routes are built with. */
export interface RouteDeps {
  store: Store;
  /** Rendered list pages; undefined when the cache is off. */
  cache: PageCache | undefined;
  /** Prefix of the API paths (BASE_PATH), '' by default. */
  base: string;
  /** Milliseconds a long read may run before it stops and answers 503 (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /**
   * Reader threads that run a named read task off the event loop (`src/server/read-threads.ts`);
   * undefined runs reads on the event loop.
   */
  readThreads?: ReadTaskRunner;
}

/** Runs a read task by name on another thread: its input and answer are plain data. */
export interface ReadTaskRunner {
  run(task: string, input: unknown): Promise<unknown>;
}

import { tooManyRequests } from '../http/errors.ts';

/** The message of a heavy call refused because its workspace has too many under way. */
const WORKSPACE_BUSY_MESSAGE =
  '이 워크스페이스에서 처리 중인 검색·일괄 조회가 너무 많습니다. 잠시 후 다시 시도해 주세요.';

/** Seconds a refused call is told to wait. */
const RETRY_AFTER_SECONDS = 1;

interface Lane {
  running: number;
  waiting: (() => void)[];
  /** The `Authorization` headers its calls came with (`causing`). */
  clients: Set<string>;
}

/**
 * Each workspace's fair share of the server's heavy calls (a search, a batch read, an
 * association walk: a call that may read a whole workspace): at most `running` of one
 * workspace run at once, up to `waiting` more wait their turn in order, and past that a
 * call is refused with `429` and `Retry-After`, in that workspace alone. So one workspace
 * that sends many searches at once queues behind itself, not in front of the others, and
 * what the server sheds under load is its calls first (`busy`).
 */
export class WorkspaceGate {
  private readonly lanes = new Map<string, Lane>();
  /** The `Authorization` headers with heavy calls under way. */
  private readonly clients = new Set<string>();

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  /**
   * Waits for `workspaceId`'s turn; resolves with the function that ends the call (call it
   * once, when the answer has gone or the client has left). Throws a `429` `HttpError` when
   * the workspace's queue is full.
   */
  async enter(workspaceId: string, client?: string): Promise<() => void> {
    let lane = this.lanes.get(workspaceId);
    if (!lane) {
      lane = { running: 0, waiting: [], clients: new Set() };
      this.lanes.set(workspaceId, lane);
    }
    if (client !== undefined) {
      lane.clients.add(client);
      this.clients.add(client);
    }
    if (lane.running >= this.running) {
      if (lane.waiting.length >= this.waiting) {
        throw tooManyRequests(RETRY_AFTER_SECONDS, WORKSPACE_BUSY_MESSAGE);
      }
      await new Promise<void>((resolve) => lane!.waiting.push(resolve));
    } else {
      lane.running++;
    }
    const own = lane;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = own.waiting.shift();
      // The slot passes to the next in line as it is: `running` stays.
      if (next) return next();
      own.running--;
      if (own.running > 0) return;
      this.lanes.delete(workspaceId);
      for (const c of own.clients) this.clients.delete(c);
    };
  }

  /** True while `workspaceId` has heavy calls running or waiting. */
  busy(workspaceId: string): boolean {
    return this.lanes.has(workspaceId);
  }

  /**
   * For load shedding, which answers before a request is authenticated: true when a request
   * with this `Authorization` header comes from a workspace with heavy calls under way (the
   * likely cause of the load), false when it does not while others do, undefined when no
   * workspace has any (the load is everyone's).
   */
  causing(authorization: string | undefined): boolean | undefined {
    if (this.lanes.size === 0) return undefined;
    return authorization !== undefined && this.clients.has(authorization);
  }

  /** Heavy calls of `workspaceId` running and waiting now. */
  load(workspaceId: string): { running: number; waiting: number } {
    const lane = this.lanes.get(workspaceId);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }
}

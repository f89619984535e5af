/**
 * The source of a pull: another server of this API (the live service, or a salescrm), read
 * with the SDK's transport (its retries of `5xx`, network errors and `429`, waiting what
 * `Retry-After` or the `N초` of the reason says), paced by `Pacer`, and only ever with `GET`.
 */
import { AuthenticationError, CrmApiError, NotFoundError } from '../../client/errors.ts';
import type { FetchLike, FetchResponse, QueryValues } from '../../client/transport.ts';
import { Transport } from '../../client/transport.ts';
import { Pacer } from './pace.ts';

/** What a pull asked of its source. */
export interface SourceCounts {
  requests: number;
  /** Answers `429` (each waited out, then asked again). */
  rateLimited: number;
  /** Answers `5xx` and failed connections (asked again after a backoff). */
  retried: number;
}

/** How to reach the source. */
export interface SourceOptions {
  /** The API's base: the part before `/v2`. */
  url: string;
  token: string;
  /** Requests a second at most, for a source that sends no `RateLimit-*` headers (0: none). */
  pace?: number;
  /** Tries of one request before the pull gives up (default 8). */
  maxRetries?: number;
  /** A fetch of its own (tests). */
  fetch?: typeof fetch;
}

/** A failure that ends the pull, in one line. */
export class PullError extends Error {}

/** The source's API, read page by page. */
export class Source {
  readonly counts: SourceCounts = { requests: 0, rateLimited: 0, retried: 0 };
  readonly pacer: Pacer;
  private readonly transport: Transport;
  private readonly paced: FetchLike;
  private readonly token: string;

  constructor(options: SourceOptions) {
    this.pacer = new Pacer(options.pace ?? 0);
    const base = options.fetch ?? globalThis.fetch;
    const paced: FetchLike = async (url, init) => {
      if (init.method !== 'GET') throw new PullError(`a pull sends no ${init.method}: ${url}`);
      await this.pacer.before();
      this.counts.requests++;
      let response: Response;
      try {
        response = await base(url, init as RequestInit);
      } catch (error) {
        this.counts.retried++;
        throw error;
      }
      this.pacer.after(response.headers);
      if (response.status === 429) this.counts.rateLimited++;
      else if (response.status >= 500) this.counts.retried++;
      return response as unknown as FetchResponse;
    };
    this.paced = paced;
    this.token = options.token;
    this.transport = new Transport({
      baseUrl: options.url,
      token: options.token,
      fetch: paced,
      maxRetries: options.maxRetries ?? 8,
      maxRetryAfterMs: 120_000,
    });
  }

  /** `GET path`: the envelope's `data`. */
  async get<T = Record<string, unknown>>(path: string, query?: QueryValues): Promise<T> {
    try {
      return await this.transport.request<T>('GET', path, { query });
    } catch (error) {
      if (error instanceof AuthenticationError)
        throw new PullError(`the source refused the token (401): ${error.message}`);
      throw error;
    }
  }

  /** One page of a list: its records under `key`, and the cursor of the next page. */
  async page(
    path: string,
    key: string,
    cursor: string | null,
    query: QueryValues = {},
  ): Promise<{ items: Record<string, unknown>[]; next: string | null }> {
    const data = await this.get<Record<string, unknown>>(path, {
      ...query,
      limit: 100,
      cursor: cursor ?? undefined,
    });
    const items = data?.[key];
    if (!Array.isArray(items)) throw new PullError(`${path}: the answer has no '${key}' list`);
    const next = data.nextCursor ?? data.nextCurosr;
    return { items, next: typeof next === 'string' && next !== '' ? next : null };
  }

  /**
   * One `GET path` as it answers, paced and counted, not retried and its body not read: a
   * file's bytes, streamed (`download.ts` retries it).
   */
  async open(path: string, signal: AbortSignal = new AbortController().signal): Promise<Response> {
    const answer = await this.paced(this.transport.url(path), {
      method: 'GET',
      headers: { Authorization: `Bearer ${this.token}`, Accept: '*/*' },
      signal,
    });
    return answer as unknown as Response;
  }

  /**
   * Checks that the URL serves this API with this token: its user and workspace
   * (`GET /v2/user/me`), or one line saying what is wrong.
   */
  async me(): Promise<{ userId: string; userName: string; roomId: string; roomName: string }> {
    let data: { user?: { id?: unknown; name?: unknown; room?: { id?: unknown; name?: unknown } } };
    try {
      data = await this.get('/v2/user/me');
    } catch (error) {
      if (error instanceof PullError) throw error;
      // A status of 0 is no answer at all (`ConnectionError`): unreachable, said below.
      if (
        error instanceof NotFoundError ||
        (error instanceof CrmApiError && error.status > 0 && error.status < 500)
      )
        throw new PullError(
          `${this.transport.baseUrl} does not serve this API (GET /v2/user/me answered ${error.status})`,
        );
      throw new PullError(
        `${this.transport.baseUrl} cannot be read: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    const user = data?.user;
    if (typeof user?.id !== 'string' || typeof user.room?.id !== 'string')
      throw new PullError(
        `${this.transport.baseUrl} does not serve this API (GET /v2/user/me has no user)`,
      );
    return {
      userId: user.id,
      userName: String(user.name ?? ''),
      roomId: user.room.id,
      roomName: String(user.room.name ?? ''),
    };
  }
}

export { CrmApiError, NotFoundError };

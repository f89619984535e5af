import {
  ConnectionError,
  CrmApiError,
  errorFromResponse,
  RateLimitError,
  ServerError,
} from './errors.ts';

/** The part of a fetch answer the client reads. */
export interface FetchResponse {
  status: number;
  headers: { forEach(fn: (value: string, name: string) => void): void };
  text(): Promise<string>;
  /** The answer's bytes (a download); a fetch without it cannot download files. */
  arrayBuffer?(): Promise<ArrayBuffer>;
}

/** A `fetch`: the global one by default; inject another (a proxy agent, a test double). */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    /** JSON text, or a form (a file upload: the fetch sets its Content-Type). */
    body?: string | FormData;
    signal: AbortSignal;
  },
) => Promise<FetchResponse>;

/** Per-call options, accepted by every method of the client. */
export interface CallOptions {
  /** Cancels the call (and its retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** How the transport talks to the server. */
export interface TransportOptions {
  baseUrl: string;
  token: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  maxRetries?: number;
  /** First backoff delay; doubled per retry (with jitter), capped at `maxRetryDelayMs`. */
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs?: number;
}

/** What a request sends besides its method and path. */
export interface RequestOptions extends CallOptions {
  query?: QueryValues;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as `multipart/form-data` instead of a JSON body. */
  form?: FormData;
  /** More headers (`Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** A file as `download` answers it. */
export interface Download {
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its media type, as served. */
  contentType: string;
  /** Its name, from `Content-Disposition` (UTF-8 names decoded). */
  name: string | undefined;
}

/** A query string's values: undefined ones are left out, arrays become comma lists. */
export type QueryValues = Record<string, string | number | readonly string[] | undefined>;

/** Error codes of a connection that failed before any byte of the request was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const RETRIED_5XX = new Set([500, 502, 503, 504]);

/**
 * Whether a failed call may be sent again. Reads (GET) are retried on a connection error,
 * 429 and 500/502/503/504. Writes (POST) only when the server cannot have acted on them: a
 * connection refused or a name that did not resolve (nothing was sent), 429 (the server
 * checks the rate limit before it reads the body) and 503 (the server was unavailable; its
 * own 503 comes from a write transaction that could not start or was rolled back). A write
 * that timed out or got 500/502/504 may have been applied, so it is not repeated.
 */
export function isRetryable(error: CrmApiError, method: string): boolean {
  const write = method !== 'GET';
  if (error instanceof ConnectionError)
    return write ? !error.timedOut && NOT_SENT_CODES.has(error.code ?? '') : true;
  if (error instanceof RateLimitError) return true;
  if (error instanceof ServerError)
    return write ? error.status === 503 : RETRIED_5XX.has(error.status);
  return false;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The system error code somewhere in an error's cause chain (undici nests it). */
function systemCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Sends calls with the token, parses the envelope, retries what is safe to retry. */
export class Transport {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('CrmClient: baseUrl is required');
    if (!options.token) throw new TypeError('CrmClient: token is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    const globalFetch = globalThis.fetch as unknown as FetchLike | undefined;
    const fetchImpl = options.fetch ?? globalFetch;
    if (!fetchImpl) throw new TypeError('CrmClient: no global fetch; pass options.fetch');
    // A bare global fetch must not be called as a method of this object (browsers refuse).
    this.#fetch = options.fetch ?? ((url, init) => globalFetch!(url, init));
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#baseDelayMs = options.retryBaseDelayMs ?? 500;
    this.#maxDelayMs = options.maxRetryDelayMs ?? 8_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  }

  /** The full URL of a path (`/v2/...`) with its query. */
  url(path: string, query?: QueryValues): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      params.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Calls the API and answers the envelope's `data`; throws a `CrmApiError` otherwise. */
  async request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.#send(method, path, options, false)) as T;
  }

  /** Downloads a file's bytes (`GET path`), with its media type and name. */
  async download(path: string, options: CallOptions = {}): Promise<Download> {
    return (await this.#send('GET', path, options, true)) as Download;
  }

  async #send(
    method: 'GET' | 'POST',
    path: string,
    options: RequestOptions,
    bytes: boolean,
  ): Promise<unknown> {
    const url = this.url(path, options.query);
    const body =
      options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const maxRetries = options.maxRetries ?? this.#maxRetries;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(method, url, body, options, bytes);
      } catch (error) {
        if (!(error instanceof CrmApiError) || attempt >= maxRetries) throw error;
        if (!isRetryable(error, method)) throw error;
        const delay = this.#delay(error, attempt);
        if (delay === undefined) throw error;
        await sleep(delay, options.signal);
      }
    }
  }

  /** Milliseconds before retry `attempt + 1`: `Retry-After` when given, else backoff. */
  #delay(error: CrmApiError, attempt: number): number | undefined {
    const after =
      error instanceof RateLimitError || error instanceof ServerError
        ? error.retryAfter
        : undefined;
    if (after !== undefined) {
      const ms = after * 1000;
      return ms <= this.#maxRetryAfterMs ? ms : undefined;
    }
    // Exponential backoff with "equal jitter": half fixed, half random.
    const cap = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** attempt);
    return cap / 2 + Math.random() * (cap / 2);
  }

  /** One attempt: send, read the whole answer, map failures onto the error tree. */
  async #once(
    method: string,
    url: string,
    body: string | FormData | undefined,
    options: RequestOptions,
    bytes: boolean,
  ): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const failed = (error: unknown): unknown => {
      if (signal?.aborted) return signal.reason;
      if (timedOut)
        return new ConnectionError(`no answer within ${timeoutMs} ms: ${method} ${url}`, {
          timedOut: true,
          cause: error,
        });
      const code = systemCode(error);
      return new ConnectionError(`connection failed${code ? ` (${code})` : ''}: ${method} ${url}`, {
        timedOut: false,
        code,
        cause: error,
      });
    };
    try {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${this.#token}`,
        Accept: 'application/json',
        ...(typeof body === 'object' ? {} : { 'Content-Type': 'application/json' }),
        ...options.headers,
      };
      let response: FetchResponse;
      let text: string;
      let content: Uint8Array | undefined;
      try {
        response = await this.#fetch(url, {
          method,
          headers,
          signal: controller.signal,
          ...(body === undefined ? {} : { body }),
        });
        if (bytes && response.status >= 200 && response.status <= 299) {
          if (!response.arrayBuffer) throw new TypeError('this fetch cannot read bytes');
          content = new Uint8Array(await response.arrayBuffer());
          text = '';
        } else {
          text = await response.text();
        }
      } catch (error) {
        throw failed(error);
      }
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        answerHeaders[name.toLowerCase()] = value;
      });
      if (content) {
        return {
          bytes: content,
          contentType: answerHeaders['content-type'] ?? 'application/octet-stream',
          name: fileNameOf(answerHeaders['content-disposition']),
        } satisfies Download;
      }
      let json: unknown = text;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): kept as text in the error's body.
      }
      if (response.status < 200 || response.status > 299)
        throw errorFromResponse(response.status, answerHeaders, json);
      const envelope = json as { success?: unknown; data?: unknown } | undefined;
      if (envelope === null || typeof envelope !== 'object' || envelope.success !== true)
        throw new CrmApiError({
          status: response.status,
          message: `unexpected answer to ${method} ${url}: not a success envelope`,
          requestId: answerHeaders['x-request-id'],
          body: json,
          headers: answerHeaders,
        });
      return envelope.data;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The file name of a `Content-Disposition`: its UTF-8 `filename*` (RFC 5987), else `filename`. */
export function fileNameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // Malformed: the plain name below.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1];
}

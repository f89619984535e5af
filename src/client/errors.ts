/**
 * The client's errors: one tree by HTTP status, so a caller can `instanceof` the case it
 * handles. Both error bodies of the API map onto it: shape A `{success: false, message,
 * reason}` and shape B `{error}` (the single deal).
 */

/** What the client knows about a failed call. */
export interface CrmApiErrorInit {
  status: number;
  message: string;
  /** `X-Request-Id` of the answer, to quote when reporting a problem. */
  requestId?: string | undefined;
  /** The answer's body: parsed JSON, or the text when it was not JSON. */
  body?: unknown;
  /** The answer's headers, lower-case names. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** Any failure of a call to the API: an error answer, or no answer at all. */
export class CrmApiError extends Error {
  /** HTTP status of the answer; 0 when there was none (`ConnectionError`). */
  readonly status: number;
  /** `X-Request-Id` of the answer, when there was one. */
  readonly requestId: string | undefined;
  /** The raw error body: parsed JSON, or text. */
  readonly body: unknown;
  /** The answer's headers (lower-case names); empty when there was no answer. */
  readonly headers: Record<string, string>;
  /**
   * Shape A's `reason`: the message again, or more (a duplicate's names the existing record;
   * a 507's is `disk full`); undefined for shape B and for no answer.
   */
  readonly reason: string | undefined;

  constructor(init: CrmApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.requestId = init.requestId;
    this.body = init.body;
    this.headers = init.headers ?? {};
    const reason = (init.body as { reason?: unknown } | null | undefined)?.reason;
    this.reason = typeof reason === 'string' ? reason : undefined;
  }
}

/** 401: the token is missing, unknown or revoked. */
export class AuthenticationError extends CrmApiError {}

/** 404: no such record in this workspace, or no such path. */
export class NotFoundError extends CrmApiError {}

/** 400, 413 or 415: the request itself is wrong (a parameter, a cursor, the body). */
export class ValidationError extends CrmApiError {}

/** 410: the event feed's cursor is past the retention; sync again from the records. */
export class GoneError extends CrmApiError {}

/** 409: the name is taken (a field's), or the record is still in use (a product on quotes). */
export class ConflictError extends CrmApiError {}

/** 429: too many requests; `retryAfter` says in how many seconds to try again. */
export class RateLimitError extends CrmApiError {
  /** Seconds to wait (from `Retry-After`), when the answer said. */
  readonly retryAfter: number | undefined;

  constructor(init: CrmApiErrorInit & { retryAfter: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the server failed or is unavailable (503 carries `Retry-After`). */
export class ServerError extends CrmApiError {
  /** Seconds to wait (from `Retry-After`), when the answer said. */
  readonly retryAfter: number | undefined;

  constructor(init: CrmApiErrorInit & { retryAfter: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/**
 * 507: the server has no space left to store the write, which was not kept. Not retried:
 * it fails the same way until an operator frees space.
 */
export class InsufficientStorageError extends ServerError {}

/** No answer: the connection failed, or the call took longer than `timeoutMs`. */
export class ConnectionError extends CrmApiError {
  /** True when the client gave up waiting (`timeoutMs`), false for a network failure. */
  readonly timedOut: boolean;
  /** The system error code under the failure (`ECONNREFUSED`, ...), where the runtime says. */
  readonly code: string | undefined;

  constructor(
    message: string,
    options: { timedOut: boolean; code?: string | undefined; cause?: unknown },
  ) {
    super({ status: 0, message, cause: options.cause });
    this.timedOut = options.timedOut;
    this.code = options.code;
  }
}

/**
 * Seconds from a `Retry-After` value: whole seconds or an HTTP date; undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The wait a 429's `reason` names (`5초 후 재시도해주세요.`, as the live API words it), for an
 * answer without `Retry-After`; undefined when it names none.
 */
export function reasonSeconds(body: unknown): number | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { reason } = body as { reason?: unknown };
  if (typeof reason !== 'string') return undefined;
  const m = /(\d+(?:\.\d+)?)\s*초/.exec(reason);
  return m ? Number(m[1]) : undefined;
}

/** The message of an error body of either shape, or a fallback naming the status. */
function messageOf(status: number, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return message;
    if (typeof error === 'string') return error;
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length <= 500) return body.trim();
  return `HTTP ${status}`;
}

/** The error of an answer with a non-2xx status, by status. */
export function errorFromResponse(
  status: number,
  headers: Record<string, string>,
  body: unknown,
): CrmApiError {
  const init: CrmApiErrorInit = {
    status,
    message: messageOf(status, body),
    requestId: headers['x-request-id'],
    body,
    headers,
  };
  const retryAfter =
    parseRetryAfter(headers['retry-after']) ?? (status === 429 ? reasonSeconds(body) : undefined);
  if (status === 401) return new AuthenticationError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 410) return new GoneError(init);
  if (status === 400 || status === 413 || status === 415) return new ValidationError(init);
  if (status === 429) return new RateLimitError({ ...init, retryAfter });
  if (status === 507) return new InsufficientStorageError({ ...init, retryAfter });
  if (status >= 500) return new ServerError({ ...init, retryAfter });
  return new CrmApiError(init);
}

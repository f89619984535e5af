import { DomainError, type DomainErrorCode } from '../domain/errors.ts';
import { UnsyncedWriteError, WritesStoppedError } from '../store/writes-stopped.ts';

/** Errors that only HTTP has: no token, a wrong media type, no such route, a limit. */
export type HttpErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'unsupported_media_type'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_gateway'
  | 'disk_full'
  | 'internal';

/** Every code an answer can carry. */
export type ErrorCode = DomainErrorCode | HttpErrorCode;

/** The one place where an error's code becomes a status. */
export const STATUS_OF: Record<ErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  invalid_parameter: 400,
  invalid_cursor: 400,
  unknown_pipeline: 400,
  invalid_body: 400,
  duplicate_record: 400,
  conflict: 409,
  unsupported_media_type: 415,
  not_found: 404,
  deal_not_found: 404,
  lead_not_found: 404,
  people_not_found: 404,
  organization_not_found: 404,
  route_not_found: 404,
  cursor_expired: 410,
  unsupported_file_type: 415,
  method_not_allowed: 405,
  body_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  disk_full: 507,
  internal: 500,
};

/**
 * The two error bodies (docs/decisions.md, Error shapes): A `{success:false,message,reason}`, B
 * `{error}`.
 */
export type ErrorShape = 'A' | 'B';

/** An error of HTTP itself, with the headers its answer carries (`Retry-After`, ...). */
export class HttpError extends Error {
  readonly status: number;

  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Shape A's `reason`, when it says more than the message (a 429's names the wait). */
    readonly reason?: string,
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

/** What the API answers for an error it knows, or undefined for one it does not (a 500). */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  message: string;
  data?: unknown;
  /** Shape A's `reason`, when it says more than the message (a duplicate's existing record). */
  reason?: string;
}

/** The answer for a domain or HTTP error; undefined for anything else. */
export function errorAnswer(error: unknown): ErrorAnswer | undefined {
  if (error instanceof DomainError) {
    const answer: ErrorAnswer = {
      status: STATUS_OF[error.code],
      headers: {},
      message: error.message,
      data: error.data,
    };
    const reason = error.reason ?? duplicateReason(error.message, error.data);
    if (reason !== undefined) answer.reason = reason;
    return answer;
  }
  if (error instanceof HttpError) {
    const answer: ErrorAnswer = {
      status: error.status,
      headers: error.headers,
      message: error.message,
    };
    if (error.reason !== undefined) answer.reason = error.reason;
    return answer;
  }
  // Before any test of the cause: a sync that failed with ENOSPC is not a 507, whose
  // message says nothing was kept.
  if (error instanceof UnsyncedWriteError) {
    return { status: STATUS_OF.internal, headers: {}, message: UNSYNCED_WRITE_MESSAGE };
  }
  if (error instanceof WritesStoppedError) {
    return { status: STATUS_OF.unavailable, headers: {}, message: WRITES_STOPPED_MESSAGE };
  }
  return undefined;
}

/** The message of a write that committed but whose sync to disk failed. */
export const UNSYNCED_WRITE_MESSAGE =
  '쓰기는 데이터베이스에 반영되었지만 디스크가 기록을 확인하지 못했습니다. 서비스는 이제 쓰기를 받지 않습니다: 다시 보내기 전에, 서비스가 다시 시작된 뒤 기록이 있는지 확인해 주세요.';

/** The message of a write refused after a failed sync (nothing of it was written). */
export const WRITES_STOPPED_MESSAGE =
  '디스크에 기록하지 못한 뒤로 서비스가 쓰기를 멈췄습니다: 이 쓰기는 저장되지 않았습니다. 관리자가 서비스를 다시 시작해야 합니다.';

/**
 * A duplicate's `reason`: the message, naming the existing record that `data` carries
 * (`{id, name}`), as the live API's clients read it.
 */
export function duplicateReason(message: string, data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { id, name } = data as { id?: unknown; name?: unknown };
  if (typeof id !== 'string' || typeof name !== 'string') return undefined;
  return `${message} (기존 레코드: '${name}', id '${id}')`;
}

/**
 * The error body in the route's shape. Shape A is `{success, message, reason}` (and `data`
 * when there is some): `reason` repeats the message unless given (a duplicate's names the
 * existing record; a 507's is `disk full` and a 429's `N초 후 재시도해주세요.`, which clients
 * act on).
 */
export function errorBody(
  shape: ErrorShape,
  message: string,
  data?: unknown,
  reason?: string,
): string {
  if (shape === 'B') return JSON.stringify({ error: message });
  const body = { success: false, message, reason: reason ?? message };
  return JSON.stringify(data === undefined ? body : { ...body, data });
}

/** The message of a 429 of the workspace's rate limit. */
export const RATE_LIMITED_MESSAGE = '요청이 너무 많습니다.';

/**
 * A 429: `message`, a `reason` naming the seconds to wait (`3초 후 재시도해주세요.`, which the
 * live API's clients read before `Retry-After`) and `Retry-After` with the same number.
 */
export function tooManyRequests(seconds: number, message = RATE_LIMITED_MESSAGE): HttpError {
  return new HttpError(
    'rate_limited',
    message,
    { 'Retry-After': String(seconds) },
    `${seconds}초 후 재시도해주세요.`,
  );
}

/** The message of a 507: the write was not kept, for lack of space. */
export const DISK_FULL_MESSAGE =
  '저장 공간이 부족합니다: 데이터베이스가 더 커질 수 없어 이 쓰기를 저장하지 못했습니다. 관리자에게 문의해 주세요.';

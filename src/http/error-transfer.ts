import { DomainError, type DomainErrorCode } from '../domain/errors.ts';
import { HttpError, type HttpErrorCode } from './errors.ts';

/**
 * An error as plain data, to cross from a reader thread to the event loop's thread (a
 * thread's message copies data, not classes): a domain or HTTP error keeps what its answer
 * needs; anything else keeps its message and `code` (a database driver's, which says
 * whether the store is unavailable) and becomes an `Error` again, answered as it would be.
 */
export type TransferredError =
  | { kind: 'domain'; code: DomainErrorCode; message: string; data?: unknown; reason?: string }
  | {
      kind: 'http';
      code: HttpErrorCode;
      message: string;
      headers: Record<string, string>;
      reason?: string;
    }
  | { kind: 'other'; name: string; message: string; code?: unknown; stack?: string };

/** `error` as plain data. */
export function transferError(error: unknown): TransferredError {
  if (error instanceof DomainError) {
    const t: TransferredError = { kind: 'domain', code: error.code, message: error.message };
    if (error.data !== undefined) t.data = error.data;
    if (error.reason !== undefined) t.reason = error.reason;
    return t;
  }
  if (error instanceof HttpError) {
    const t: TransferredError = {
      kind: 'http',
      code: error.code,
      message: error.message,
      headers: error.headers,
    };
    if (error.reason !== undefined) t.reason = error.reason;
    return t;
  }
  const e = error as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  const t: TransferredError = {
    kind: 'other',
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
  if (e?.code !== undefined) t.code = e.code;
  if (typeof e?.stack === 'string') t.stack = e.stack;
  return t;
}

/** The error `t` was made from, as its class again. */
export function errorOf(t: TransferredError): Error {
  if (t.kind === 'domain') return new DomainError(t.code, t.message, t.data, t.reason);
  if (t.kind === 'http') return new HttpError(t.code, t.message, t.headers, t.reason);
  const error = Object.assign(new Error(t.message), { name: t.name, code: t.code });
  if (t.stack !== undefined) error.stack = t.stack;
  return error;
}

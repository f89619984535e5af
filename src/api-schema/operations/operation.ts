/**
 * One operation of the API as data (`Operation`), the constructors the route tables build
 * them with, and `pathParameters` to read an OpenAPI path's parameters back.
 */
import type { TSchema } from '@sinclair/typebox';
import type { QueryParameter } from './parameters.ts';

/** One operation of the API. */
export interface Operation {
  method: 'GET' | 'POST';
  /** OpenAPI form, under the base path: `/v2/deal/{dealId}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  query: QueryParameter[];
  body?: TSchema;
  /** A `multipart/form-data` body instead of JSON (a file upload), and its fields. */
  form?: TSchema;
  /** The success status and its body (`undefined`: not JSON, see `contentType`). */
  status: 200 | 201 | 202;
  response?: TSchema;
  /** Media type of a non-JSON answer (the docs page and its assets). */
  contentType?: string;
  /**
   * Error body shape (docs/decisions.md, Error shapes); `none` for the unauthenticated service
   * routes.
   */
  errorShape: 'A' | 'B' | 'none';
  /** Under `/v2`: bearer token, rate limit, `X-Ignored-Parameters`. */
  api: boolean;
  /**
   * A service route served under BASE_PATH with the API (the document and its page, which a
   * proxy that forwards only the base path must reach); probes stay at the root.
   */
  underBase?: boolean;
  /** Whether a path id can name a record the workspace does not have (404). */
  notFound?: boolean;
  /** Whether it answers 409 (a name or record already taken, or still in use). */
  conflict?: boolean;
  /** Whether it answers 410 (a cursor past the retention). */
  gone?: boolean;
  /** Whether it answers 502 (a server it relies on, such as SMTP, refused). */
  badGateway?: boolean;
  /** Request headers it reads besides the token (`Idempotency-Key`). */
  headers?: QueryParameter[];
  /** A POST that only reads: a read-only token may call it (other POSTs answer it 403). */
  readsOnly?: boolean;
  /** The MCP endpoint: under the base path with the bearer token, but JSON-RPC, not `/v2`. */
  mcp?: boolean;
}

/** The cursor keys of the deal and lead lists: the misspelt `nextCurosr`, then `nextCursor`. */
export const CUROSR = ['nextCurosr', 'nextCursor'] as const;

/** A GET of the API. */
export function read(
  path: string,
  operationId: string,
  summary: string,
  tag: string,
  response: TSchema,
  more: Partial<Operation> = {},
): Operation {
  return {
    method: 'GET',
    path,
    operationId,
    summary,
    tag,
    query: [],
    status: 200,
    response,
    errorShape: 'A',
    api: true,
    ...more,
  };
}

/** A POST of the API (create, update, delete, or work accepted for later). */
export function write(
  path: string,
  operationId: string,
  summary: string,
  tag: string,
  status: 200 | 201 | 202,
  body: TSchema | undefined,
  response: TSchema,
): Operation {
  return {
    method: 'POST',
    path,
    operationId,
    summary,
    tag,
    query: [],
    body,
    status,
    response,
    errorShape: 'A',
    api: true,
    notFound: path.includes('{'),
  };
}

/** A route of the service itself, outside `/v2`. */
export function service(
  path: string,
  operationId: string,
  summary: string,
  response: TSchema | undefined,
): Operation {
  return {
    method: 'GET',
    path,
    operationId,
    summary,
    tag: 'Service',
    query: [],
    status: 200,
    response,
    errorShape: 'none',
    api: false,
  };
}

/** The path parameters of an OpenAPI path: `/v2/deal/{dealId}` → `['dealId']`. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

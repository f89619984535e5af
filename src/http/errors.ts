/** Every error the API answers with, by code. */
export const ERRORS = {
  unauthorized: 401,
  invalid_parameter: 400,
  invalid_cursor: 400,
  unknown_pipeline: 400,
  invalid_body: 400,
  duplicate_record: 400,
  unsupported_media_type: 415,
  not_found: 404,
  deal_not_found: 404,
  lead_not_found: 404,
  people_not_found: 404,
  organization_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  body_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERRORS;

/** Body shapes of the spec (section 7): A `{success:false,message}`, B `{error}`. */
export type ErrorShape = 'A' | 'B';

/** What an error carries besides its message. */
export interface ApiErrorDetails {
  /** Response headers (`Retry-After`, ...). */
  headers?: Record<string, string>;
  /** Shape A's `data`: e.g. the existing record a duplicate collides with. */
  data?: unknown;
}

/** An error the API answers with: a code, its status, and a message for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly data: unknown;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = ERRORS[code];
    this.headers = details.headers ?? {};
    this.data = details.data;
  }
}

/** The error body in the route's shape (shape A carries `data` when there is some). */
export function errorBody(shape: ErrorShape, message: string, data?: unknown): string {
  if (shape === 'B') return JSON.stringify({ error: message });
  return data === undefined
    ? JSON.stringify({ success: false, message })
    : JSON.stringify({ success: false, message, data });
}

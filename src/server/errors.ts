/** Every error the API answers with, by code. */
export const ERRORS = {
  unauthorized: 401,
  invalid_parameter: 400,
  invalid_cursor: 400,
  unknown_pipeline: 400,
  invalid_body: 400,
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

/** An error the API answers with: a code, its status, and a message for people. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERRORS[code];
  }
}

/** The error body in the route's shape. */
export function errorBody(shape: ErrorShape, message: string): string {
  return shape === 'B'
    ? JSON.stringify({ error: message })
    : JSON.stringify({ success: false, message });
}

import type { ServerResponse } from 'node:http';

/**
 * What every answer says to a browser: do not guess its type from its bytes, and do not
 * show it in a frame; as a document it may load nothing (an API answer is data, never a
 * page: the reference page at `/docs` has a policy of its own, `docsPolicy`).
 */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

/**
 * Sets the security headers on a response, before anything is written: constant values on
 * the raw response, so that they stay through whatever writes the answer (a route, an
 * error, the MCP transport that takes the response over, the reference page, which puts
 * its own policy over the API's).
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', SECURITY_HEADERS['X-Content-Type-Options']);
  res.setHeader('X-Frame-Options', SECURITY_HEADERS['X-Frame-Options']);
  res.setHeader('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy']);
}

import type { FastifyReply } from 'fastify';

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
 * Sets the security headers on a reply, in the reply's own headers, which Fastify hands
 * to Node's `writeHead` whole. Set on the raw response instead, they put every answer on
 * Node's slow path (`writeHead` then sets each of the reply's headers one by one). They
 * stay through errors; the reference page puts its own policy over the API's.
 */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', SECURITY_HEADERS['X-Content-Type-Options']);
  reply.header('X-Frame-Options', SECURITY_HEADERS['X-Frame-Options']);
  reply.header('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy']);
}

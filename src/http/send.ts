import type { FastifyReply } from 'fastify';
import type { ParsedQuery } from './query.ts';

/** Content type of every API answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Names the query parameters the endpoint ignored (DECISIONS 1). */
export function nameIgnored(reply: FastifyReply, query: ParsedQuery): void {
  if (query.ignored.length > 0)
    reply.header('X-Ignored-Parameters', query.ignored.map(headerSafe).join(','));
}

// Printable ASCII but `%` and `,`: what a name may hold as it is in the header.
const NOT_HEADER_SAFE = /[^\x21-\x24\x26-\x2b\x2d-\x7e]/gu;

/** A parameter name percent-encoded (as UTF-8) where a header could not carry it or `,` would split it. */
function headerSafe(name: string): string {
  return name.replace(NOT_HEADER_SAFE, (c) =>
    Array.from(Buffer.from(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * Answers a write: `{"success": true, "data": {<key>: record}}` (a create with 201, work
 * accepted for later with 202), naming the query parameters and body keys it ignored.
 */
export function sendWritten(
  reply: FastifyReply,
  status: 200 | 201 | 202,
  key: string,
  record: unknown,
  ignored: readonly string[],
): FastifyReply {
  return sendWrittenBody(
    reply,
    status,
    record === undefined ? { success: true } : { success: true, data: { [key]: record } },
    ignored,
  );
}

/**
 * Answers a write whose `data` is an object of several keys (the live API's answer of a
 * custom object update), naming the query parameters and body keys it ignored.
 */
export function sendWrittenData(
  reply: FastifyReply,
  status: 200 | 201,
  data: Record<string, unknown>,
  ignored: readonly string[],
): FastifyReply {
  return sendWrittenBody(reply, status, { success: true, data }, ignored);
}

/** Answers a write with `body`, naming the ignored query parameters and body keys. */
function sendWrittenBody(
  reply: FastifyReply,
  status: 200 | 201 | 202,
  body: { success: true; data?: unknown },
  ignored: readonly string[],
): FastifyReply {
  if (ignored.length > 0) reply.header('X-Ignored-Parameters', ignored.map(headerSafe).join(','));
  return reply.code(status).header('Content-Type', JSON_TYPE).send(JSON.stringify(body));
}

/** Sends pre-rendered JSON bytes. */
export function sendJson(reply: FastifyReply, bytes: Buffer | string): FastifyReply {
  return reply.header('Content-Type', JSON_TYPE).send(bytes);
}

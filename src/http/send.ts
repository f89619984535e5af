import type { FastifyReply } from 'fastify';
import type { ParsedQuery } from './query.ts';

/** Content type of every API answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Names the query parameters the endpoint ignored (docs/decisions.md, Wire format). */
export function nameIgnored(reply: FastifyReply, query: ParsedQuery): void {
  if (query.ignored.length > 0) reply.header('X-Ignored-Parameters', ignoredHeader(query.ignored));
}

/** The most names `X-Ignored-Parameters` gives; the rest are counted. */
const MOST_IGNORED_NAMED = 50;
/** The most characters of names it gives, so that it stays far below clients' 16 KiB of headers. */
const MOST_IGNORED_CHARS = 2_000;

/**
 * `X-Ignored-Parameters`: the names, comma-separated, at most 50 and 2,000 characters of
 * them, then `(+N more)` for the rest (a name never holds a space, so the count is not a
 * name). Unbounded, a body of 50,000 unknown keys got a 339 KB header that clients refuse
 * to read, and the client retried a create that had landed.
 */
export function ignoredHeader(ignored: readonly string[]): string {
  const named: string[] = [];
  let chars = 0;
  for (const name of ignored) {
    if (named.length === MOST_IGNORED_NAMED) break;
    // A name is encoded only while it can fit (its encoding is at most 9 bytes a character).
    if (chars + name.length > MOST_IGNORED_CHARS) break;
    const safe = headerSafe(name);
    if (chars + safe.length > MOST_IGNORED_CHARS) break;
    named.push(safe);
    chars += safe.length + 1;
  }
  const rest = ignored.length - named.length;
  return rest > 0 ? [...named, `(+${rest} more)`].join(',') : named.join(',');
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
  if (ignored.length > 0) reply.header('X-Ignored-Parameters', ignoredHeader(ignored));
  return reply.code(status).header('Content-Type', JSON_TYPE).send(JSON.stringify(body));
}

/** Sends pre-rendered JSON bytes. */
export function sendJson(reply: FastifyReply, bytes: Buffer | string): FastifyReply {
  return reply.header('Content-Type', JSON_TYPE).send(bytes);
}

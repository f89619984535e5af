/**
 * One webhook POST (docs/webhooks.md, Delivery and signatures): the body as given, redirects not
 * followed, a time limit over the whole exchange, and at most a bounded prefix of the answer read
 * (then the stream is cancelled, closing the connection). Never throws: every failure comes back as
 * the try's error.
 */

import type { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { blockedLiteral, publicOnlyLookup } from '../outbound/address-guard.ts';
import { blockedTarget } from '../outbound/blocked-ports.ts';

/**
 * POSTs go through undici's `request`, not `fetch`: the same connections (kept alive per
 * receiver by the agents below), for a fraction of `fetch`'s CPU a request (no Request and
 * Response objects, no web streams). Neither follows a redirect.
 *
 * Connections whose host name is resolved by `publicOnlyLookup`: a name that resolves to a
 * private address fails to connect, whatever it resolved to when the webhook was saved
 * (DNS rebinding), and the connection goes to the address that was checked.
 */
const PUBLIC_ONLY = new Agent({ connect: { lookup: publicOnlyLookup } });
/** Connections to any address (`WEBHOOK_ALLOW_PRIVATE`). */
const ANY_ADDRESS = new Agent();

/** The most of an answer's body that is read. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Characters of an answer's body kept in the error of a non-2xx try. */
const ANSWER_SNIPPET_CHARS = 200;

/** Characters of an error kept. */
const MAX_ERROR_CHARS = 500;

/** One POST to make. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** How a POST went. */
export interface WebhookAnswer {
  /** The HTTP status; null when none came. */
  statusCode: number | null;
  /** What went wrong: the network's error, the time limit, or a non-2xx status with the start of its body. */
  error: string | null;
  durationMs: number;
  /** Bytes of the answer's body read. */
  bytesRead: number;
}

/** Limits of a POST. */
export interface SendLimits {
  /** The whole exchange (connecting, sending, the status, reading the body) takes at most this. */
  timeoutMs: number;
  /** Bytes of the answer's body read at most (default 64 KiB). */
  maxAnswerBytes?: number;
  /** Loopback, private and link-local addresses may be reached (else refused at each send). */
  allowPrivate: boolean;
}

/** POSTs `request` and reports how it went; never throws. */
export async function postWebhook(
  request: WebhookRequest,
  limits: SendLimits,
): Promise<WebhookAnswer> {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  let statusCode: number | null = null;
  let error: string | null = null;
  let bytesRead = 0;
  try {
    // Parsed here: a URL that is not one is the try's error, named as such.
    const url = new URL(request.url);
    const refused = blockedTarget(url);
    if (refused) throw new Error(refused);
    if (!limits.allowPrivate) {
      // An IP address as the host is never looked up: checked here.
      const blocked = blockedLiteral(url);
      if (blocked) throw new Error(`${blocked.address} is a ${blocked.range} address: not sent`);
    }
    const response = await undiciRequest(url, {
      dispatcher: limits.allowPrivate ? ANY_ADDRESS : PUBLIC_ONLY,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    statusCode = response.statusCode;
    const answer = await readPrefix(response.body, limits.maxAnswerBytes ?? MAX_ANSWER_BYTES);
    bytesRead = answer.bytes;
    if (statusCode < 200 || statusCode > 299) {
      const text = answer.text.trim().slice(0, ANSWER_SNIPPET_CHARS);
      const where =
        statusCode >= 300 && statusCode < 400 ? redirectNote(response.headers.location) : '';
      error = `HTTP ${statusCode}${where}${text ? `: ${text}` : ''}`;
    }
  } catch (caught) {
    error = timedOut ? `timed out after ${limits.timeoutMs} ms` : describe(caught);
  } finally {
    clearTimeout(timer);
  }
  return {
    statusCode,
    error: error === null ? null : error.slice(0, MAX_ERROR_CHARS),
    durationMs: performance.now() - started,
    bytesRead,
  };
}

/**
 * Reads at most `max` bytes of a body, then destroys the rest (closing the connection). A
 * failure while reading (the time limit, a reset) ends the reading: the status came, and it
 * stands.
 */
async function readPrefix(body: Readable, max: number): Promise<{ bytes: number; text: string }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = max - bytes;
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      bytes += kept.byteLength;
      // Leaving the loop destroys the stream.
      if (bytes >= max) break;
    }
  } catch {
    // The status stands; what was read is kept.
  }
  body.destroy();
  return { bytes, text: Buffer.concat(chunks).toString('utf8') };
}

function redirectNote(location: string | string[] | undefined): string {
  const where = Array.isArray(location) ? location[0] : location;
  return where ? ` (redirect to ${where.slice(0, 200)} not followed)` : ' (redirect not followed)';
}

/**
 * A failure in one line: the network's code and message when there is one (undici's own
 * errors, or the socket's, are the error itself; a wrapped one is its cause).
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const failure = cause instanceof Error && !('code' in error) ? cause : error;
  const code = (failure as { code?: unknown }).code;
  const inner = (failure as { cause?: unknown }).cause;
  const detail =
    inner instanceof Error && !failure.message.includes(inner.message) ? ` (${inner.message})` : '';
  return `${typeof code === 'string' ? `${code}: ` : ''}${failure.message}${detail}`;
}

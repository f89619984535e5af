/**
 * One webhook POST (docs/webhooks.md, Delivery and signatures): the body as given, redirects not
 * followed, a time limit over the whole exchange, and at most a bounded prefix of the answer read
 * (then the stream is cancelled, closing the connection). Never throws: every failure comes back as
 * the try's error.
 */

import { Agent, fetch, type Response } from 'undici';
import { blockedLiteral, publicOnlyLookup } from '../outbound/address-guard.ts';

/**
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
    if (!limits.allowPrivate) {
      // An IP address as the host is never looked up: checked here.
      const blocked = blockedLiteral(new URL(request.url));
      if (blocked) throw new Error(`${blocked.address} is a ${blocked.range} address: not sent`);
    }
    const response = await fetch(request.url, {
      dispatcher: limits.allowPrivate ? ANY_ADDRESS : PUBLIC_ONLY,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    statusCode = response.status;
    const answer = await readPrefix(response.body, limits.maxAnswerBytes ?? MAX_ANSWER_BYTES);
    bytesRead = answer.bytes;
    if (statusCode < 200 || statusCode > 299) {
      const text = answer.text.trim().slice(0, ANSWER_SNIPPET_CHARS);
      const where = statusCode >= 300 && statusCode < 400 ? redirectNote(response) : '';
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
 * Reads at most `max` bytes of a body, then cancels the rest. A failure while reading (the
 * time limit, a reset) ends the reading: the status came, and it stands.
 */
async function readPrefix(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<{ bytes: number; text: string }> {
  if (!body) return { bytes: 0, text: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < max) {
      const { done, value } = await reader.read();
      if (done) return { bytes, text: decode(chunks) };
      const room = max - bytes;
      const kept = value.byteLength > room ? value.subarray(0, room) : value;
      chunks.push(kept);
      bytes += kept.byteLength;
    }
  } catch {
    return { bytes, text: decode(chunks) };
  }
  await reader.cancel().catch(() => {});
  return { bytes, text: decode(chunks) };
}

function decode(chunks: Uint8Array[]): string {
  return Buffer.concat(chunks).toString('utf8');
}

function redirectNote(response: Response): string {
  const location = response.headers.get('location');
  return location
    ? ` (redirect to ${location.slice(0, 200)} not followed)`
    : ' (redirect not followed)';
}

/** A fetch failure in one line: the network's code and message when there is one. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = (cause as { cause?: unknown }).cause;
    const detail =
      inner instanceof Error && !cause.message.includes(inner.message) ? ` (${inner.message})` : '';
    return `${typeof code === 'string' ? `${code}: ` : ''}${cause.message}${detail}`;
  }
  return error.message;
}

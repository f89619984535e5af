/**
 * One webhook POST (docs/webhooks.md, Delivery and signatures): the body as given, redirects not
 * followed, a time limit over the whole exchange, and at most a bounded prefix of the answer read
 * (then the stream is cancelled, closing the connection). Never throws: every failure comes back as
 * the try's error.
 */

import { Agent, type Dispatcher } from 'undici';
import { blockedLiteral, publicOnlyLookup } from '../outbound/address-guard.ts';
import { blockedTarget } from '../outbound/blocked-ports.ts';

type DispatchController = Dispatcher.DispatchController;

/**
 * POSTs go straight to undici's `dispatch` with a handler of their own: the connections kept
 * alive per receiver by the agents below, and none of the objects `fetch` (a Request, a
 * Response, web streams) or even `request` (a readable stream of the answer, an abort
 * signal's listeners) makes for each: 135 µs of CPU a POST against `request`'s 220 and more
 * (measured on loopback at two in flight). Neither follows a redirect.
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
export function postWebhook(request: WebhookRequest, limits: SendLimits): Promise<WebhookAnswer> {
  const started = performance.now();
  const max = limits.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    let location: string | string[] | undefined;
    const chunks: Buffer[] = [];
    let bytesRead = 0;
    let controller: DispatchController | undefined;
    let timedOut = false;
    let enough = false;
    let settled = false;
    /** Ends the try: `failure` when no status came; else the status (and its body) stands. */
    const settle = (failure: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      let error = statusCode === null ? failure : null;
      if (statusCode !== null && (statusCode < 200 || statusCode > 299)) {
        const text = Buffer.concat(chunks).toString('utf8').trim().slice(0, ANSWER_SNIPPET_CHARS);
        const where = statusCode >= 300 && statusCode < 400 ? redirectNote(location) : '';
        error = `HTTP ${statusCode}${where}${text ? `: ${text}` : ''}`;
      }
      resolve({
        statusCode,
        error: error === null ? null : error.slice(0, MAX_ERROR_CHARS),
        durationMs: performance.now() - started,
        bytesRead,
      });
    };
    // The whole exchange: a try still waiting for its connection ends now, and is cut off
    // when it gets one.
    const timer = setTimeout(() => {
      timedOut = true;
      settle(`timed out after ${limits.timeoutMs} ms`);
      controller?.abort(new Error('timed out'));
    }, limits.timeoutMs);
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
      (limits.allowPrivate ? ANY_ADDRESS : PUBLIC_ONLY).dispatch(
        {
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: 'POST',
          headers: request.headers,
          body: request.body,
        },
        {
          onRequestStart(c) {
            controller = c;
            if (timedOut) c.abort(new Error('timed out'));
          },
          onResponseStart(_c, status, headers) {
            // The last wins: a 1xx comes before the answer.
            statusCode = status;
            location = headers.location;
          },
          onResponseData(c, chunk) {
            const room = max - bytesRead;
            const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
            chunks.push(kept);
            bytesRead += kept.byteLength;
            if (bytesRead >= max && !enough) {
              // Enough read: the rest is not, and the connection is closed.
              enough = true;
              c.abort(new Error('answer read up to its limit'));
            }
          },
          onResponseEnd() {
            settle(null);
          },
          // After the status, a failure (the time limit, a reset, the cut at the limit) only
          // ends the reading: the status stands, with what was read.
          onResponseError(_c, error) {
            settle(describe(error));
          },
        },
      );
    } catch (caught) {
      settle(describe(caught));
    }
  });
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

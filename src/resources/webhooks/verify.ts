/**
 * The check a webhook URL passes before it is saved (docs/decisions.md, Events and webhooks): a
 * signed POST of `{"event":"verify","webhookId":ID}` that must get a 2xx within the time limit.
 * Redirects are not followed; unless private networks are allowed, the request only reaches public
 * addresses (`src/outbound/address-guard.ts`).
 */
import { type ClientRequest, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DomainError } from '../../domain/errors.ts';
import { webhookHeaders } from '../../domain/webhook-signature.ts';
import { parseWebhookUrl, privateAddressError } from '../../domain/webhook-url.ts';
import {
  BlockedAddressError,
  publicOnlyLookup,
  refuseBlockedLiteral,
} from '../../outbound/address-guard.ts';

/** How long a URL has to answer the verification, unless told otherwise. */
export const VERIFY_TIMEOUT_MS = 10_000;

/** The message of a URL that did not answer the verification with a 2xx. */
export const NO_SUCCESS = '웹훅 URL에서 성공 응답을 받지 못했습니다';

/** Checks a webhook URL before it is saved; throws a `DomainError` (400) when it fails. */
export interface WebhookVerifier {
  verify(url: string, webhookId: string, secrets: readonly string[]): Promise<void>;
}

/** How the verifier reaches URLs. */
export interface VerifierOptions {
  /** Loopback, private and link-local addresses may be reached (`WEBHOOK_ALLOW_PRIVATE=1`). */
  allowPrivate: boolean;
  /** Milliseconds the URL has to answer (default 10 s). */
  timeoutMs?: number;
}

/** What one verification POST came to: the status of the answer, or why there was none. */
type Outcome = { status: number } | { error: unknown } | { timedOut: true };

/** The verifier that sends the signed POST over HTTP(S). */
export function urlVerifier(options: VerifierOptions): WebhookVerifier {
  const timeoutMs = options.timeoutMs ?? VERIFY_TIMEOUT_MS;
  return {
    async verify(raw, webhookId, secrets) {
      const url = parseWebhookUrl(raw);
      if (!options.allowPrivate) refuseBlockedLiteral(url);
      const body = JSON.stringify({ event: 'verify', webhookId });
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'salescrm-webhooks',
        ...webhookHeaders(webhookId, Math.floor(Date.now() / 1000), body, secrets),
      };
      const outcome = await post(url, headers, body, {
        timeoutMs,
        lookup: options.allowPrivate ? undefined : publicOnlyLookup,
      });
      if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) return;
      if ('error' in outcome && outcome.error instanceof BlockedAddressError) {
        const { host, address, range } = outcome.error;
        throw privateAddressError(host, address, range);
      }
      throw new DomainError('invalid_body', `${NO_SUCCESS} (${reasonOf(outcome, timeoutMs)})`);
    },
  };
}

/** Why an outcome is not a success, in a few words. */
function reasonOf(outcome: Outcome, timeoutMs: number): string {
  if ('status' in outcome) return `HTTP ${outcome.status}`;
  if ('timedOut' in outcome) return `${timeoutMs / 1000}초 안에 응답이 없습니다`;
  const { error } = outcome;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return `연결 실패: ${code}`;
  return `연결 실패: ${String((error as Error).message ?? error).slice(0, 200)}`;
}

/** Sends one POST and settles with the answer's status, an error, or a timeout. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; lookup: RequestOptions['lookup'] },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let req: ClientRequest;
    try {
      // A fresh connection, closed afterwards: no socket of a webhook URL is kept or reused.
      req = send(url, { method: 'POST', headers, agent: false, lookup: options.lookup });
    } catch (error) {
      resolve({ error });
      return;
    }
    const timer = setTimeout(() => {
      settle({ timedOut: true });
      req.destroy();
    }, options.timeoutMs);
    req.once('response', (res) => {
      settle({ status: res.statusCode ?? 0 });
      // The status is all that counts: the body is not read.
      res.destroy();
    });
    // Kept for the request's life: an error after the outcome (the socket torn down) is moot.
    req.on('error', (error) => settle({ error }));
    req.end(body);
  });
}

/**
 * Verifying webhook deliveries on the receiver's side (Standard Webhooks, docs/decisions.md, Events
 * and webhooks): the `webhook-signature` header holds `v1,` + base64 HMAC-SHA256 over
 * `id.timestamp.body`, keyed with the bytes of the secret after `whsec_`; during a secret rotation
 * it holds one signature per secret, space separated. WebCrypto only (`globalThis.crypto.subtle`),
 * so it runs in Node 20+ and browsers alike.
 */
import type { WebhookEvent } from './events.ts';

const SECRET_PREFIX = 'whsec_';
const ID_HEADER = 'webhook-id';
const TIMESTAMP_HEADER = 'webhook-timestamp';
const SIGNATURE_HEADER = 'webhook-signature';

const encoder = new TextEncoder();

/** A WebCrypto HMAC key (named so because Node's types have no global `CryptoKey`). */
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** Why a delivery did not verify. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'bad_timestamp'
  | 'expired'
  | 'no_matching_signature'
  | 'bad_body';

/** A delivery that did not verify: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  /** What failed: a header missing, the timestamp, the signature, or the body. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/** Request headers: a `Headers`, or a plain object as node:http and most frameworks give. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** How `verifyWebhook` checks the timestamp. */
export interface VerifyWebhookOptions {
  /** How far, in seconds, the timestamp may be from now, either way (default 300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
}

/**
 * Checks a delivery's signature against the raw body and returns its payload, typed.
 * `rawBody` must be the bytes as received, before any JSON parsing; `secret` may list the
 * old and the new secret during a rotation (any one that matches verifies). Throws
 * `WebhookVerificationError` with its `reason` when the delivery must not be trusted.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const keys = await hmacKeys(secret);
  const id = headerValue(headers, ID_HEADER);
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const signature = headerValue(headers, SIGNATURE_HEADER);
  for (const [name, value] of [
    [ID_HEADER, id],
    [TIMESTAMP_HEADER, timestamp],
    [SIGNATURE_HEADER, signature],
  ] as const) {
    if (!value) throw new WebhookVerificationError('missing_header', `no ${name} header`);
  }
  const seconds = checkedTimestamp(timestamp!, options);
  const body = bodyBytes(rawBody);
  const signed = await Promise.all(keys.map((key) => sign(key, signedContent(id!, seconds, body))));
  const given = signatures(signature!);
  if (!given.some((sig) => signed.some((mine) => equalBytes(sig, mine)))) {
    throw new WebhookVerificationError(
      'no_matching_signature',
      'no signature of webhook-signature matches the secret',
    );
  }
  return parsedEvent(body);
}

/** What `signWebhookForTest` puts in the headers it builds. */
export interface SignWebhookForTestOptions {
  /** `webhook-id` (default a random UUID). */
  id?: string;
  /** `webhook-timestamp` in Unix seconds (default now). */
  timestamp?: number;
}

/**
 * The three headers the service would send with `body`, signed with `secret` (one signature
 * per secret when given several), for a receiver's own tests of its verification.
 */
export async function signWebhookForTest(
  body: string | Uint8Array,
  secret: string | readonly string[],
  options: SignWebhookForTestOptions = {},
): Promise<Record<string, string>> {
  const keys = await hmacKeys(secret);
  const id = options.id ?? globalThis.crypto.randomUUID();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const content = signedContent(id, timestamp, bodyBytes(body));
  const signed = await Promise.all(keys.map((key) => sign(key, content)));
  return {
    [ID_HEADER]: id,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signed.map((bytes) => `v1,${toBase64(bytes)}`).join(' '),
  };
}

/** The HMAC keys of one or several secrets (`whsec_` + base64 of the key bytes). */
async function hmacKeys(secret: string | readonly string[]): Promise<HmacKey[]> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook: no secret given');
  return Promise.all(
    secrets.map((s) => {
      const encoded = s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s;
      const bytes = fromBase64(encoded);
      if (bytes === undefined || bytes.length === 0)
        throw new TypeError('verifyWebhook: a secret is not `whsec_` followed by base64');
      return globalThis.crypto.subtle.importKey(
        'raw',
        bytes,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
    }),
  );
}

/**
 * A header by its name in any case, trimmed; several values of one header are joined by a
 * space. Undefined when absent or blank.
 */
function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const values: string[] = [];
  if (typeof (headers as Headers).get === 'function') {
    const value = (headers as Headers).get(name);
    if (value !== null) values.push(value);
  } else {
    for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
      if (key.toLowerCase() !== name) continue;
      if (typeof value === 'string') values.push(value);
      else if (Array.isArray(value)) values.push(...value.filter((v) => typeof v === 'string'));
    }
  }
  return values.join(' ').trim() || undefined;
}

/** The timestamp in Unix seconds, if it is one and within the tolerance of now. */
function checkedTimestamp(text: string, options: VerifyWebhookOptions): number {
  if (!/^\d{1,15}$/.test(text)) {
    throw new WebhookVerificationError('bad_timestamp', 'webhook-timestamp is not Unix seconds');
  }
  const seconds = Number(text);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (seconds < now - tolerance) {
    throw new WebhookVerificationError('expired', 'webhook-timestamp is too old');
  }
  if (seconds > now + tolerance) {
    throw new WebhookVerificationError('expired', 'webhook-timestamp is in the future');
  }
  return seconds;
}

/** The signatures of a `webhook-signature` header: the decoded bytes of each `v1,` entry. */
function signatures(header: string): Uint8Array[] {
  const found: Uint8Array[] = [];
  // Entries are space separated; `Headers` joins repeated headers with ", ".
  for (const entry of header.split(/\s+/)) {
    const [version, encoded] = entry.replace(/,$/, '').split(',', 2);
    if (version !== 'v1' || !encoded) continue;
    const bytes = fromBase64(encoded);
    if (bytes !== undefined) found.push(bytes);
  }
  return found;
}

/** The body's bytes, as signed: a string is taken as UTF-8. */
function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** What is signed: `id.timestamp.` and then the body's bytes. */
function signedContent(id: string, timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(head.length + body.length);
  content.set(head, 0);
  content.set(body, head.length);
  return content;
}

async function sign(key: HmacKey, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, content));
}

/** Whether two byte strings are equal, in time that depends on their length only. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The payload of a verified body, or `bad_body` when it is not a JSON event. */
function parsedEvent(body: Uint8Array): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('bad_body', 'the body is not JSON');
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { event?: unknown }).event !== 'string'
  ) {
    throw new WebhookVerificationError('bad_body', 'the body is not an event');
  }
  return parsed as WebhookEvent;
}

/** Bytes of standard base64 (padding optional), or undefined when it is not base64. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Webhook signatures as the Standard Webhooks specification makes them (docs/decisions.md, Events
 * and webhooks): `v1,` + base64 HMAC-SHA256, keyed with the secret's decoded bytes, over
 * `id.timestamp.body`; during a rotation one signature per secret, space separated.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a secret (the base64 after `whsec_`). */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/**
 * The secrets that sign a webhook's requests at `at`: its own, and during a rotation (until
 * `previousUntil`, after `at`) the previous one too.
 */
export function signingSecrets(
  secret: string,
  previous: string | null,
  previousUntil: string | null,
  at: string,
): string[] {
  return previous !== null && previousUntil !== null && previousUntil > at
    ? [secret, previous]
    : [secret];
}

/** The `webhook-signature` header for a delivery: one `v1,…` per secret, space separated. */
export function signWebhook(
  id: string,
  timestamp: number,
  body: string,
  secrets: readonly string[],
): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
    )
    .join(' ');
}

/** The three Standard Webhooks headers of a delivery sent at `timestamp` (Unix seconds). */
export function webhookHeaders(
  id: string,
  timestamp: number,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(id, timestamp, body, secrets),
  };
}

import { randomBytes } from 'node:crypto';

/** Ids the API accepts in paths and imports: 1 to 64 characters of `[A-Za-z0-9_-]`. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Path segments of the API that can never be record ids (DECISIONS 1). */
const RESERVED_IDS = new Set([
  'activity',
  'history',
  'pipeline',
  'quote',
  'delete',
  'me',
  'submit',
  'type-list',
]);

/** True when `value` can be the id of a record. */
export function isValidId(value: unknown): boolean {
  return typeof value === 'string' && ID_PATTERN.test(value) && !RESERVED_IDS.has(value);
}

let lastMs = 0;
let sequence = 0;

/**
 * A new UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a counter and random bits,
 * so ids made in one process sort in creation order.
 */
export function newId(nowMs: number = Date.now()): string {
  if (nowMs <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    nowMs = lastMs;
  } else {
    lastMs = nowMs;
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

import { randomFillSync } from 'node:crypto';

/** Ids the API accepts in paths and imports: 1 to 64 characters of `[A-Za-z0-9_-]`. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Path segments of the API that can never be record ids (docs/decisions.md, Wire format). */
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
 * Random bytes for ids, drawn from the system's generator a pool at a time: one call per
 * 409 ids instead of two per id (each a buffer of its own), as `crypto.randomUUID` does.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** The offset of `n` unused random bytes in `pool`. */
function randomAt(n: number): number {
  if (poolAt + n > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += n;
  return at;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A new UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a counter and random bits,
 * so ids made in one process sort in creation order.
 */
export function newId(whenMs: number = Date.now()): string {
  let nowMs = Math.trunc(whenMs);
  const at = randomAt(10);
  if (nowMs <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    nowMs = lastMs;
  } else {
    lastMs = nowMs;
    sequence = ((pool[at]! << 8) | pool[at + 1]!) & 0x7ff;
  }
  const time = nowMs.toString(16).padStart(12, '0');
  let tail = '';
  for (let i = at + 4; i < at + 10; i++) tail += HEX[pool[i]!];
  return `${time.slice(0, 8)}-${time.slice(8)}-${(0x7000 | sequence).toString(16)}-${HEX[0x80 | (pool[at + 2]! & 0x3f)]}${HEX[pool[at + 3]!]}-${tail}`;
}

/** One string for a record of a workspace, as a key of a map or set: `workspaceId` NUL `id`. */
export function workspaceKey(workspaceId: string, id: string): string {
  return `${workspaceId}\u0000${id}`;
}

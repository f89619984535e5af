import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { Position } from '../store/keyset.ts';

export type { Position };

const MAC_BYTES = 12;
const MAX_CURSOR_LENGTH = 400;

// Secrets as key objects, made once per workspace rather than on every request.
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 10_000) keys.clear();
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}

function mac(secret: string, scope: string, payload: string): Buffer {
  return createHmac('sha256', keyOf(secret))
    .update(scope)
    .update('\n')
    .update(payload)
    .digest()
    .subarray(0, MAC_BYTES);
}

/**
 * An opaque, URL-safe cursor naming `position`, signed with the workspace's secret over the
 * endpoint and filters (`scope`), so it is only accepted where it was issued.
 */
export function encodeCursor(secret: string, scope: string, position: Position): string {
  const payload = `${position.sortKey}\n${position.id}`;
  return `${Buffer.from(payload).toString('base64url')}.${mac(secret, scope, payload).toString('base64url')}`;
}

/** The position a cursor names, or undefined when it is malformed, tampered or foreign. */
export function decodeCursor(
  secret: string,
  scope: string,
  cursor: string,
  /** Longest cursor accepted: a search's cursors carry its sort values. */
  maxLength = MAX_CURSOR_LENGTH,
): Position | undefined {
  if (cursor.length === 0 || cursor.length > maxLength) return undefined;
  const dot = cursor.indexOf('.');
  if (dot < 0) return undefined;
  const payloadPart = cursor.slice(0, dot);
  const macPart = cursor.slice(dot + 1);
  if (!/^[A-Za-z0-9_-]+$/.test(payloadPart) || !/^[A-Za-z0-9_-]+$/.test(macPart)) return undefined;
  const payload = Buffer.from(payloadPart, 'base64url').toString();
  const given = Buffer.from(macPart, 'base64url');
  const expected = mac(secret, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const newline = payload.indexOf('\n');
  if (newline < 0) return undefined;
  return { sortKey: payload.slice(0, newline), id: payload.slice(newline + 1) };
}

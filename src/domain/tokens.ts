import { createHash } from 'node:crypto';

/** The stored form of a token: its SHA-256, hex (the database never holds a token itself). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

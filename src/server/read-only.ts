import { HttpError } from '../http/errors.ts';
import type { AuthContext } from '../http/route-deps.ts';

/** The API's POST routes that only read: a read-only token may call them. */
const READING_POSTS = [
  '/v2/object/:targetType/search',
  '/v3/object/read',
  '/v3/pipeline/list',
  '/v3/association/list',
];

/**
 * Whether a route (its pattern, as Fastify matched it, after the base path) writes: every
 * method but GET and HEAD, except the POSTs that only read. A route added later is a write
 * until it is named here, so a read-only token never gains a write by omission.
 */
export function isWriteRoute(method: string, route: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  return !(method === 'POST' && READING_POSTS.includes(route));
}

/** Refuses a write by a read-only token with a 403 (shape A on every write route). */
export function refuseReadOnlyWrite(auth: AuthContext, method: string, route: string): void {
  if (auth.readOnly && isWriteRoute(method, route)) {
    throw new HttpError(
      'forbidden',
      '읽기 전용 토큰으로는 쓸 수 없습니다. 쓰기에는 읽기 전용이 아닌 토큰을 쓰세요.',
    );
  }
}

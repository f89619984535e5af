import type { FastifyReply } from 'fastify';
import { tooManyRequests } from '../http/errors.ts';
import type { RateLimiter } from './rate-limit.ts';

/**
 * Counts `cost` requests against a workspace's limit and puts the limit's headers on the
 * reply; past the limit, throws the 429 (`Retry-After` until the window resets), which the
 * error handler answers in the route's shape.
 */
export async function chargeRequest(
  limiter: RateLimiter,
  workspaceId: string,
  cost: number,
  reply: FastifyReply,
): Promise<void> {
  const decision = await limiter.hit(workspaceId, cost);
  reply.header('RateLimit-Limit', decision.limit);
  reply.header('RateLimit-Remaining', decision.remaining);
  reply.header('RateLimit-Reset', decision.resetSeconds);
  if (!decision.allowed) throw tooManyRequests(decision.resetSeconds);
}

import { randomUUID } from 'node:crypto';
import { RedisRateLimiter } from '../src/server/redis-rate-limit.ts';

/** The Redis the tests share counters through (`TEST_REDIS_URL`, or the one on 6379). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers at `REDIS_URL` within a second. */
export async function redisAnswers(): Promise<boolean> {
  const probe = new RedisRateLimiter({
    url: REDIS_URL,
    max: 1,
    windowMs: 1000,
    prefix: `salescrm-test:${randomUUID()}:`,
    timeoutMs: 1000,
  });
  const up = await probe.connected(1_000);
  await probe.close();
  return up;
}

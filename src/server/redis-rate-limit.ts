import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { MemoryRateLimiter, type RateDecision, type RateLimiter } from './rate-limit.ts';

/** Where the limiter reports Redis going away and coming back (a pino logger fits). */
export interface LimiterLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Options of a RedisRateLimiter. */
export interface RedisRateLimiterOptions {
  /** `redis://…` or `rediss://…`. */
  url: string;
  max: number;
  windowMs: number;
  /** Prefix of every key, so that several services (or test runs) share one Redis. */
  prefix: string;
  /** How long one count may take before this request is counted locally instead. */
  timeoutMs: number;
  log?: LimiterLog | undefined;
}

// One round trip, atomic: the first hit of a window starts it (PEXPIRE), every hit counts
// (INCRBY its cost), and the answer carries the time left. A key left without an expiry (it cannot
// happen through this script, but an operator may SET one by hand) gets one.
const COUNT_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

type Counting = Redis & {
  countHit(key: string, windowMs: number, cost: number): Promise<[number, number]>;
};

/**
 * A fixed window per key, counted in Redis so that every process and machine shares it.
 * When Redis is unreachable or slow, each request is counted in this process's memory
 * instead (the limit then holds per process: fail open, never an error), and Redis is
 * used again as soon as it answers.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Counting;
  private readonly local: MemoryRateLimiter;
  private healthy = true;
  private closing = false;
  private connectedOnce = false;
  log: LimiterLog | undefined;

  constructor(private readonly options: RedisRateLimiterOptions) {
    this.log = options.log;
    this.local = new MemoryRateLimiter(options.max, options.windowMs);
    this.redis = new Redis(options.url, {
      // Never queue or retry a count: a request waits for Redis at most `timeoutMs`.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1000, options.timeoutMs),
      // Keep reconnecting in the background, at most every 2 s.
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
      lazyConnect: false,
    }) as Counting;
    this.redis.defineCommand('countHit', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    // Without a listener ioredis prints every connection error; the first one of an
    // outage is logged below instead.
    this.redis.on('error', (error: Error) => this.markDown(error));
    this.redis.on('ready', () => this.markUp());
  }

  async hit(key: string, cost = 1): Promise<RateDecision> {
    if (this.redis.status !== 'ready') {
      // Before the first connection has had its chance, this is no outage yet: a failed
      // connection reports itself through the 'error' event.
      if (this.connectedOnce || this.redis.status !== 'connecting')
        this.markDown(new Error(`redis is ${this.redis.status}`));
      return this.local.hit(key, cost);
    }
    try {
      const [count, ttlMs] = await this.redis.countHit(
        `${this.options.prefix}ratelimit:${key}`,
        this.options.windowMs,
        cost,
      );
      this.markUp();
      return {
        allowed: count <= this.options.max,
        limit: this.options.max,
        remaining: Math.max(0, this.options.max - count),
        resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
      };
    } catch (error) {
      this.markDown(error as Error);
      return this.local.hit(key, cost);
    }
  }

  /**
   * Waits for the first connection, at most `ms`: true once Redis is ready. A server that
   * listens before it would count its first requests in its own memory, past the shared limit.
   */
  async connected(ms: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.redis.once('ready', onReady);
    });
  }

  /** True while counts go to Redis. */
  get shared(): boolean {
    return this.healthy && this.redis.status === 'ready';
  }

  /** Closes the connection (after in-flight counts are answered). */
  async close(): Promise<void> {
    this.closing = true;
    this.redis.removeAllListeners('ready');
    if (this.redis.status !== 'ready') {
      this.redis.disconnect();
      return;
    }
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private markDown(error: Error): void {
    if (!this.healthy || this.closing) return;
    this.healthy = false;
    this.log?.warn(
      { reason: error.message },
      'rate limit: Redis unavailable, counting in this process until it returns',
    );
  }

  private markUp(): void {
    this.connectedOnce = true;
    if (this.healthy) return;
    this.healthy = true;
    this.log?.info({}, 'rate limit: Redis is back, counters are shared again');
  }
}

/** How long a process starting waits for Redis's first connection before it serves. */
const START_WAIT_MS = 2_000;

/**
 * The limiter a process shares with the others through `REDIS_URL` (none without it or with
 * the limit off), once Redis has connected or `START_WAIT_MS` has passed: counts made before
 * the first connection would be this process's own, past the shared limit (a Redis that is
 * down only delays the start; counts are then kept in this process until it answers).
 */
export async function sharedRateLimiter(config: Config): Promise<RedisRateLimiter | undefined> {
  if (!config.redisUrl || config.rateLimitMax <= 0) return undefined;
  const limiter = new RedisRateLimiter({
    url: config.redisUrl,
    max: config.rateLimitMax,
    windowMs: config.rateLimitWindowMs,
    prefix: config.redisKeyPrefix,
    timeoutMs: config.redisTimeoutMs,
  });
  await limiter.connected(START_WAIT_MS);
  return limiter;
}

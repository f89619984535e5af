/** Settings of the service, read from the environment once at boot. */
export interface Config {
  /** `sqlite:PATH` (default `sqlite:./data/salescrm.db`) or `postgres://…`. */
  databaseUrl: string;
  port: number;
  host: string;
  /** Prefix of every API path, e.g. `/api` (default none). */
  basePath: string;
  /** Requests per window per workspace; 0 turns the limit off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Bytes of rendered list pages kept in memory; 0 turns the cache off. */
  pageCacheBytes: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Log every request (off by default: it costs throughput). */
  logRequests: boolean;
  /** `redis://…` or `rediss://…`: rate-limit counters shared by every process; unset = in memory. */
  redisUrl?: string | undefined;
  /** Prefix of the rate-limit keys in Redis (default `salescrm:`). */
  redisKeyPrefix: string;
  /** Milliseconds a Redis command may take before the request falls back to local counters. */
  redisTimeoutMs: number;
  /** Milliseconds in-flight requests get to finish after SIGTERM (default 10,000). */
  shutdownGraceMs: number;
  /** Days the event feed keeps events (default 30); older ones are pruned. */
  eventRetentionDays: number;
  /** Webhook URLs may reach loopback, private and link-local addresses (off by default). */
  webhookAllowPrivate: boolean;
}

/** A setting with a value the service cannot run with. */
export class ConfigError extends Error {}

function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return value;
}

/** A yes/no setting: `1`/`true` or `0`/`false` (unset is `fallback`). */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), not '${raw}'`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the configuration; throws ConfigError naming the bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const basePath = (env.BASE_PATH ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !/^\/[A-Za-z0-9_\-/]*$/.test(basePath)) {
    throw new ConfigError(
      `BASE_PATH must start with '/' and hold only letters, digits, '-', '_' and '/': '${basePath}'`,
    );
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'`);
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined) checkRedisUrl(redisUrl);
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/salescrm.db',
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    basePath,
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 100, 0, 1_000_000_000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 10_000, 1, 86_400_000),
    pageCacheBytes: integer(env, 'PAGE_CACHE_BYTES', 64 * 1024 * 1024, 0, 16 * 1024 ** 3),
    logLevel,
    logRequests: env.LOG_REQUESTS === '1' || env.LOG_REQUESTS === 'true',
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'salescrm:',
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 250, 1, 60_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
  };
}

/** Throws a ConfigError unless `url` is a redis:// or rediss:// URL (the password not shown). */
function checkRedisUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') ||
    !parsed.hostname
  ) {
    const shown = parsed ? `${parsed.protocol}//${parsed.hostname}…` : 'not a URL';
    throw new ConfigError(
      `REDIS_URL must look like redis://HOST:6379 or rediss://HOST:6380 (${shown})`,
    );
  }
}

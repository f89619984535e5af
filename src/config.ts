import { isIP } from 'node:net';
import { availableParallelism, totalmem } from 'node:os';

/** Settings of the service, read from the environment once at boot. */
export interface Config {
  /** `sqlite:PATH` (default `sqlite:./data/salescrm.db`) or `postgres://…`. */
  databaseUrl: string;
  /**
   * PostgreSQL: hash partitions of every workspace table by workspace (`PG_PARTITIONS`,
   * default 0: plain tables), made by the store's migration (docs/deploy.md).
   */
  pgPartitions: number;
  port: number;
  host: string;
  /** Prefix of every API path, e.g. `/api` (default none). */
  basePath: string;
  /** Requests per window per workspace; 0 turns the limit off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Unknown or revoked tokens a minute from one client address before it gets 429; 0: no limit. */
  authFailureLimit: number;
  /**
   * The proxies whose `X-Forwarded-For` names the client (`TRUST_PROXY`: addresses, CIDR
   * ranges, or `loopback`, `linklocal`, `uniquelocal`); none by default: the client is the
   * connection's peer.
   */
  trustProxy?: string[] | undefined;
  /**
   * Bytes of rendered list pages kept in memory by each serving process; 0 turns the cache
   * off. By default an eighth of the memory the process may use (`defaultPageCacheBytes`).
   */
  pageCacheBytes: number;
  /** Memory for the workspaces' catalogs a store keeps (`src/store/catalog.ts`). */
  catalogCacheBytes: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Log every request (off by default: it costs throughput). */
  logRequests: boolean;
  /** A request taking this many milliseconds or more is logged as a warning (default 500; 0: every request). */
  slowRequestMs: number;
  /** Serve `GET /metrics` (Prometheus) on the API's port (`METRICS=1`; off by default). */
  metrics: boolean;
  /** Serve `GET /metrics` on this port of its own instead of the API's (`METRICS_PORT`). */
  metricsPort?: number | undefined;
  /** `redis://…` or `rediss://…`: rate-limit counters shared by every process; unset = in memory. */
  redisUrl?: string | undefined;
  /** Prefix of the rate-limit keys in Redis (default `salescrm:`). */
  redisKeyPrefix: string;
  /** Milliseconds a Redis command may take before the request falls back to local counters. */
  redisTimeoutMs: number;
  /** Milliseconds in-flight requests get to finish after SIGTERM (default 10,000). */
  shutdownGraceMs: number;
  /** Milliseconds a long read (a search walking a workspace) may run before it stops with a 503. */
  requestTimeoutMs: number;
  /** Event-loop delay (milliseconds) over which API requests are shed with 503 (default 200; 0: never). */
  overloadDelayMs: number;
  /** Heavy calls (searches, batch reads, association walks) a workspace runs at once (default 2). */
  workspaceHeavyRunning: number;
  /** Heavy calls of a workspace that wait their turn (default 8); past them, `429`. */
  workspaceHeavyWaiting: number;
  /** Threads that run searches off the event loop (`serve`; default one fewer than the cores, at least 1; 0: none). */
  readThreads: number;
  /** Days the event feed keeps events (default 30); older ones are pruned. */
  eventRetentionDays: number;
  /** Webhook URLs may reach loopback, private and link-local addresses (off by default). */
  webhookAllowPrivate: boolean;
  /** `serve` runs a webhook dispatcher (`WEBHOOK_DISPATCH`, default on). */
  webhookDispatch: boolean;
  /** Seconds before each retry of a webhook delivery; after the last, it fails. */
  webhookRetryDelays: number[];
  /** Milliseconds a webhook POST may take, answer included (default 10,000). */
  webhookTimeoutMs: number;
  /** Webhook POSTs in flight at most per dispatcher (default 32). */
  webhookConcurrency: number;
  /** Webhook POSTs in flight at most to one webhook, per dispatcher (default 4). */
  webhookConcurrencyPerWebhook: number;
  /** Milliseconds between an idle dispatcher's looks for due deliveries (default 250). */
  webhookPollMs: number;
  /**
   * Milliseconds apart at least that a dispatcher starts the POSTs writes hand it, under a
   * stream of writes; unset, the store's default (20 on PostgreSQL, 0 on SQLite).
   */
  webhookSendGapMs?: number | undefined;
  /** `smtp://…` or `smtps://…`: where `POST /v2/email` sends; unset, it answers 503. */
  smtpUrl?: string | undefined;
  /** The From of every e-mail sent (`SMTP_FROM`, `Name <addr>` or `addr`); unset, the token's user's. */
  smtpFrom?: { email: string; name: string | null } | undefined;
}

/** A setting with a value the service cannot run with. */
export class ConfigError extends Error {}

/** A whole number setting from `min` to `max`; unset or empty, `fallback` (undefined: none). */
function integer<F extends number | undefined>(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: F,
  min: number,
  max: number,
): number | F {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return value;
}

/** Most hash partitions `PG_PARTITIONS` may ask for. */
export const MAX_PG_PARTITIONS = 1024;

/** `PG_PARTITIONS`: 0 (plain tables) unless set; the store reads it when it migrates. */
export function pgPartitions(env: NodeJS.ProcessEnv = process.env): number {
  return integer(env, 'PG_PARTITIONS', 0, 0, MAX_PG_PARTITIONS);
}

/** About 22 hours of retries (docs/decisions.md, Events and webhooks). */
const DEFAULT_RETRY_DELAYS = [10, 60, 300, 600, 1800, 3600, 7200, 14400, 28800, 43200];
/** A retry waits at most a week. */
const MAX_RETRY_DELAY_S = 7 * 86_400;
const MAX_RETRIES = 100;

/**
 * `WEBHOOK_RETRY_DELAYS`: seconds, comma separated, fractions allowed (`10,60,300` or
 * `0.05,0.1`); unset or empty for the default.
 */
function retryDelays(env: NodeJS.ProcessEnv): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS;
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_DELAYS];
  const items = raw.split(',').map((item) => item.trim());
  const delays = items.map(Number);
  const bad = items.findIndex(
    (item, i) =>
      !/^\d+(\.\d+)?$|^\.\d+$/.test(item) || !(delays[i]! >= 0 && delays[i]! <= MAX_RETRY_DELAY_S),
  );
  if (bad >= 0 || items.length > MAX_RETRIES) {
    const why =
      bad >= 0
        ? `'${items[bad]}' is not a number of seconds from 0 to ${MAX_RETRY_DELAY_S}`
        : `more than ${MAX_RETRIES} retries`;
    throw new ConfigError(
      `WEBHOOK_RETRY_DELAYS must be seconds, comma separated (e.g. 10,60,300): ${why}, in '${raw}'`,
    );
  }
  return delays;
}

/**
 * DATABASE_URL: `postgres://…`/`postgresql://…`, `sqlite:PATH`, or a bare path (SQLite). A
 * URL of another scheme (`mysql://…`, a typo) is refused rather than taken for a file name.
 */
function databaseUrl(raw: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && !['postgres', 'postgresql', 'sqlite'].includes(scheme))
    throw new ConfigError(
      `DATABASE_URL must be postgres://…, postgresql://… or sqlite:PATH (or a file path), not a ${scheme}:// URL`,
    );
  return raw;
}

/** A yes/no setting: `1`/`true` or `0`/`false` (unset is `fallback`). */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), not '${raw}'`);
}

/** The names of address ranges `TRUST_PROXY` takes besides addresses and CIDR ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`, checked: comma-separated addresses, CIDR ranges and range names of the
 * proxies in front of the service, whose `X-Forwarded-For` is believed (no hop counts: a
 * count trusts whatever sits that many hops out, a list only what the operator names).
 */
function trustProxy(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '' || raw === '0') return undefined;
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (PROXY_RANGES.includes(entry) || isAddressOrRange(entry)) continue;
    throw new ConfigError(
      `TRUST_PROXY must list proxy addresses, CIDR ranges or ${PROXY_RANGES.join(', ')}, comma-separated, not '${entry}'`,
    );
  }
  return entries;
}

/** Whether `entry` is an IP address, or one with a prefix length it can have (`10.0.0.0/8`). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
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
    databaseUrl: databaseUrl(env.DATABASE_URL || 'sqlite:./data/salescrm.db'),
    pgPartitions: pgPartitions(env),
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    basePath,
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 100, 0, 1_000_000_000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 10_000, 1, 86_400_000),
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 30, 0, 1_000_000_000),
    trustProxy: trustProxy(env.TRUST_PROXY),
    pageCacheBytes: integer(env, 'PAGE_CACHE_BYTES', defaultPageCacheBytes(), 0, 16 * GiB),
    catalogCacheBytes: catalogCacheBytes(env),
    logLevel,
    logRequests: env.LOG_REQUESTS === '1' || env.LOG_REQUESTS === 'true',
    slowRequestMs: integer(env, 'SLOW_REQUEST_MS', 500, 0, 3_600_000),
    metrics: flag(env, 'METRICS', false),
    metricsPort: integer(env, 'METRICS_PORT', undefined, 0, 65535),
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'salescrm:',
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 250, 1, 60_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 1, 3_600_000),
    overloadDelayMs: integer(env, 'OVERLOAD_DELAY_MS', 200, 0, 60_000),
    workspaceHeavyRunning: integer(env, 'WORKSPACE_HEAVY_RUNNING', 2, 1, 1024),
    workspaceHeavyWaiting: integer(env, 'WORKSPACE_HEAVY_WAITING', 8, 0, 100_000),
    readThreads: integer(env, 'READ_THREADS', defaultReadThreads(), 0, 64),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookDispatch: flag(env, 'WEBHOOK_DISPATCH', true),
    webhookRetryDelays: retryDelays(env),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 4096),
    webhookConcurrencyPerWebhook: integer(env, 'WEBHOOK_CONCURRENCY_PER_WEBHOOK', 4, 1, 1024),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 250, 1, 60_000),
    webhookSendGapMs: integer(env, 'WEBHOOK_SEND_GAP_MS', undefined, 0, 1_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    smtpFrom: smtpFrom(env.SMTP_FROM),
  };
}

/** `SMTP_URL`, checked: smtp:// or smtps:// with a host (the password never shown). */
function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') ||
    !parsed.hostname
  ) {
    const shown = parsed ? `${parsed.protocol}//${parsed.hostname}…` : 'not a URL';
    throw new ConfigError(
      `SMTP_URL must look like smtp://USER:PASSWORD@HOST:587 or smtps://HOST:465 (${shown})`,
    );
  }
  return raw;
}

/** `SMTP_FROM`: `Name <addr@example.com>` or `addr@example.com`. */
function smtpFrom(raw: string | undefined): { email: string; name: string | null } | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const named = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(raw);
  if (named) return { email: named[2]!, name: named[1]!.replace(/^"|"$/g, '') || null };
  if (/^[^\s<>@]+@[^\s<>@]+$/.test(raw.trim())) return { email: raw.trim(), name: null };
  throw new ConfigError(`SMTP_FROM must be an address or Name <address>, not '${raw}'`);
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

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/**
 * The memory this process may use: the machine's, or its container's limit (its cgroup's)
 * when that is lower. Node.js gives 0 when it knows of no limit and a huge number for an
 * unlimited cgroup: both leave the machine's.
 */
export function memoryLimit(): number {
  const total = totalmem();
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < total ? constrained : total;
}

/**
 * `PAGE_CACHE_BYTES` by default: an eighth of `limit` (the memory the process may use), 64 MiB
 * at least and 1 GiB at most. Workspaces' first pages are what the cache holds when many
 * workspaces are read in turn (25 to 31 KB for 20 to 24 people): 1 GiB holds those of about
 * 35,000 workspaces, 256 MiB (a 2 GiB machine's) of about 9,000. Past its budget the cache
 * serves the share it holds, and each page it does not costs a database read (docs/settings.md).
 */
export function defaultPageCacheBytes(limit = memoryLimit()): number {
  return Math.min(GiB, Math.max(64 * MiB, Math.floor(limit / 8)));
}

/**
 * `CATALOG_CACHE_BYTES` by default: a sixteenth of `limit` (the memory the process may use),
 * 32 MiB at least and 512 MiB at most. A workspace's catalog is what its every write reads
 * (a demo workspace's takes about 31 KiB): 512 MiB holds those of about 16,000 such
 * workspaces, 128 MiB (a 2 GiB machine's) of about 4,000. Past its budget the cache keeps
 * the catalogs in use, and each write of a workspace it does not hold reads the catalog's
 * tables again (docs/settings.md).
 */
export function defaultCatalogCacheBytes(limit = memoryLimit()): number {
  return Math.min(512 * MiB, Math.max(32 * MiB, Math.floor(limit / 16)));
}

/** `CATALOG_CACHE_BYTES`: its default unless set; each store reads it at its first write. */
export function catalogCacheBytes(env: NodeJS.ProcessEnv = process.env): number {
  return integer(env, 'CATALOG_CACHE_BYTES', defaultCatalogCacheBytes(), 0, 16 * GiB);
}

/**
 * What the workers of `serve --workers N` are told of the caches each keeps of its own (the
 * pages', the catalogs'): a budget left to its default is shared among them (a budget set
 * applies to each).
 */
export function workersCaches(
  env: NodeJS.ProcessEnv,
  config: Pick<Config, 'pageCacheBytes' | 'catalogCacheBytes'>,
  workers: number,
): Record<string, string> {
  const share = (budget: number) => String(Math.floor(budget / workers));
  return {
    ...(env.PAGE_CACHE_BYTES ? {} : { PAGE_CACHE_BYTES: share(config.pageCacheBytes) }),
    ...(env.CATALOG_CACHE_BYTES ? {} : { CATALOG_CACHE_BYTES: share(config.catalogCacheBytes) }),
  };
}

/** One reader thread fewer than the cores, at least one: the event loop keeps a core. */
function defaultReadThreads(): number {
  return Math.max(1, Math.min(8, availableParallelism() - 1));
}

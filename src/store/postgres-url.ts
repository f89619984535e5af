/**
 * libpq's multi-host connection URL, which `pg` does not read: `postgres://user@h1:5432,h2:5433/db
 * ?target_session_attrs=read-write`. The hosts are tried in turn (`postgres-host-pool.ts`); each
 * becomes a URL of one host, with the rest of the URL as written, which `pg` reads as usual.
 */

/** What a session must be for the store to keep it, as libpq's `target_session_attrs` says. */
export type TargetSessionAttrs =
  | 'any'
  | 'read-write'
  | 'read-only'
  | 'primary'
  | 'standby'
  | 'prefer-standby';

const TARGET_SESSION_ATTRS: readonly TargetSessionAttrs[] = [
  'any',
  'read-write',
  'read-only',
  'primary',
  'standby',
  'prefer-standby',
];

/** A PostgreSQL URL split by host. */
export interface PostgresHosts {
  /** One URL a host, in the order written, each for `pg` (no `target_session_attrs`). */
  urls: string[];
  /** `host:port` of each, as logs and errors name them. */
  names: string[];
  targetSessionAttrs: TargetSessionAttrs;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/is;

/**
 * Splits `url` by host. Throws when `target_session_attrs` is not one of libpq's values, or
 * a host of the list is empty (`h1,,h2`).
 */
export function parsePostgresHosts(url: string): PostgresHosts {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('a PostgreSQL URL starts with postgres:// or postgresql://');
  const [, scheme, authority, rest] = parts as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hosts = authority.slice(at + 1).split(',');
  if (hosts.length > 1 && hosts.some((host) => host === '')) {
    throw new Error(`the host list of the PostgreSQL URL has an empty host: '${hosts.join(',')}'`);
  }
  const { path, attrs } = withoutTargetSessionAttrs(rest);
  return {
    urls: hosts.map((host) => `${scheme}${userinfo}${host}${path}`),
    names: hosts.map((host) => (host === '' ? 'localhost' : host)),
    targetSessionAttrs: attrs,
  };
}

/** `rest` (path, query, fragment) without `target_session_attrs`, and its value. */
function withoutTargetSessionAttrs(rest: string): { path: string; attrs: TargetSessionAttrs } {
  const question = rest.indexOf('?');
  if (question < 0) return { path: rest, attrs: 'any' };
  const hash = rest.indexOf('#', question);
  const query = rest.slice(question + 1, hash < 0 ? undefined : hash);
  const kept: string[] = [];
  let attrs: TargetSessionAttrs = 'any';
  for (const pair of query.split('&')) {
    const name = decoded(pair.split('=')[0]!);
    if (name !== 'target_session_attrs') {
      if (pair !== '') kept.push(pair);
      continue;
    }
    const value = decoded(pair.slice(pair.indexOf('=') + 1));
    if (!TARGET_SESSION_ATTRS.includes(value as TargetSessionAttrs)) {
      throw new Error(
        `target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}, not '${value}'`,
      );
    }
    attrs = value as TargetSessionAttrs;
  }
  const path = rest.slice(0, question) + (kept.length > 0 ? `?${kept.join('&')}` : '');
  return { path, attrs };
}

/** A parameter's name or value with its %-escapes read; a bad escape is a clear error. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`the PostgreSQL URL has a malformed %-escape in its parameters: '${text}'`);
  }
}

/** `url` as logs name it: hosts and database, without user or password. */
export function describePostgresUrl(url: string): string {
  try {
    const { urls, names } = parsePostgresHosts(url);
    const database = new URL(urls[0]!).pathname;
    return `postgres://${names.join(',')}${database}`;
  } catch {
    return 'postgres';
  }
}

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { postgresOptionsFromEnv } from './postgres.ts';
import { sessionFits } from './postgres-host-pool.ts';
import { describePostgresUrl, parsePostgresHosts } from './postgres-url.ts';

describe('parsePostgresHosts', () => {
  it('splits libpq’s host list into one URL a host, keeping the rest of the URL', () => {
    expect(
      parsePostgresHosts(
        'postgres://app:s%40cret@db1:5432,db2:5433,[::1]:5434/crm?sslmode=disable&target_session_attrs=read-write&application_name=x',
      ),
    ).toEqual({
      urls: [
        'postgres://app:s%40cret@db1:5432/crm?sslmode=disable&application_name=x',
        'postgres://app:s%40cret@db2:5433/crm?sslmode=disable&application_name=x',
        'postgres://app:s%40cret@[::1]:5434/crm?sslmode=disable&application_name=x',
      ],
      names: ['db1:5432', 'db2:5433', '[::1]:5434'],
      targetSessionAttrs: 'read-write',
    });
  });

  it('takes one host as it is, with libpq’s default: any session', () => {
    expect(parsePostgresHosts('postgresql://postgres@127.0.0.1:5432/postgres')).toEqual({
      urls: ['postgresql://postgres@127.0.0.1:5432/postgres'],
      names: ['127.0.0.1:5432'],
      targetSessionAttrs: 'any',
    });
    expect(parsePostgresHosts('postgres://h/db?target_session_attrs=prefer-standby').urls).toEqual([
      'postgres://h/db',
    ]);
  });

  it('refuses a value libpq does not know, and an empty host in a list', () => {
    expect(() => parsePostgresHosts('postgres://a,b/db?target_session_attrs=writable')).toThrow(
      /target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby, not 'writable'/,
    );
    expect(() => parsePostgresHosts('postgres://a,,b/db')).toThrow(/empty host/);
    expect(() => parsePostgresHosts('postgres://a,b/db?target_session_attrs=%zz')).toThrow(
      /malformed %-escape in its parameters: '%zz'/,
    );
  });

  it('names the hosts and the database for logs, never the user or password', () => {
    expect(describePostgresUrl('postgres://app:secret@db1:5432,db2:5433/crm?x=1')).toBe(
      'postgres://db1:5432,db2:5433/crm',
    );
  });
});

describe('sessionFits', () => {
  const primary = { standby: false, readOnly: false };
  const standby = { standby: true, readOnly: true };
  it('keeps a session as libpq’s target_session_attrs says', () => {
    expect(sessionFits('read-write', primary)).toBe('yes');
    expect(sessionFits('read-write', standby)).toBe('no');
    // A primary with default_transaction_read_only on is no place for writes either.
    expect(sessionFits('read-write', { standby: false, readOnly: true })).toBe('no');
    expect(sessionFits('primary', { standby: false, readOnly: true })).toBe('yes');
    expect(sessionFits('standby', primary)).toBe('no');
    expect(sessionFits('read-only', standby)).toBe('yes');
    expect(sessionFits('prefer-standby', standby)).toBe('yes');
    expect(sessionFits('prefer-standby', primary)).toBe('fallback');
    expect(sessionFits('any', standby)).toBe('yes');
  });
});

describe('DATABASE_LISTEN_URL and the pool settings', () => {
  it('takes off, nothing or one server; refuses the rest in one line (exit 2)', () => {
    expect(postgresOptionsFromEnv({}).listenUrl).toBeUndefined();
    expect(postgresOptionsFromEnv({ DATABASE_LISTEN_URL: 'off' }).listenUrl).toBe(false);
    const one = 'postgres://app@10.0.0.5:5432/crm';
    expect(postgresOptionsFromEnv({ DATABASE_LISTEN_URL: one }).listenUrl).toBe(one);
    for (const bad of ['nonsense', 'mysql://x/y', 'postgres://a:1,b:2/db', 'postgres:///db'])
      expect(() => postgresOptionsFromEnv({ DATABASE_LISTEN_URL: bad }), bad).toThrow(ConfigError);
    expect(() => postgresOptionsFromEnv({ DATABASE_POOL_MAX: 'x' })).toThrow(ConfigError);
  });
});

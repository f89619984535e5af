import { describe, expect, it } from 'vitest';
import { postgresOptionsFromEnv } from './postgres.ts';
import { NoHostError } from './postgres-host-pool.ts';
import { UnreplicatedCommitError } from './postgres-unreplicated-commit.ts';
import { isStoreUnavailable } from './unavailable.ts';
import { UnsyncedWriteError, WritesStoppedError } from './writes-stopped.ts';

describe('isStoreUnavailable', () => {
  it('is true for a lost, refused or busy database', () => {
    for (const error of [
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('could not connect'), { code: '08006' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      // A standby answers a write, or no host of a multi-host URL accepts writes (yet).
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), {
        code: '25006',
      }),
      new UnreplicatedCommitError('canceling wait for synchronous replication due to user request'),
      new NoHostError('read-write', ['127.0.0.1:5433: its session is not read-write'], undefined),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed'),
      // After a failed WAL sync: the webhooks' dispatcher backs off instead of giving up.
      new UnsyncedWriteError(Object.assign(new Error('EIO'), { code: 'EIO' })),
      new WritesStoppedError(new UnsyncedWriteError(new Error('EIO'))),
    ]) {
      expect(isStoreUnavailable(error), error.message).toBe(true);
    }
  });

  it('is false for errors of the query or the code, which are bugs (500)', () => {
    for (const error of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }),
      Object.assign(new Error('SQLITE_ERROR: no such table'), { code: 'SQLITE_ERROR' }),
      new TypeError('cannot read properties of undefined'),
      null,
      'text',
    ]) {
      expect(isStoreUnavailable(error)).toBe(false);
    }
  });
});

describe('postgresOptionsFromEnv', () => {
  it('has bounded defaults and reads the settings', () => {
    expect(postgresOptionsFromEnv({})).toEqual({
      poolMax: 10,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 30_000,
      idleTimeoutMs: 30_000,
      readUrl: undefined,
    });
    const options = postgresOptionsFromEnv({
      DATABASE_POOL_MAX: '3',
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      DATABASE_READ_URL: 'postgres://replica/db',
    });
    expect(options).toMatchObject({
      poolMax: 3,
      statementTimeoutMs: 1000,
      readUrl: 'postgres://replica/db',
    });
  });

  it('refuses a setting that is not a positive integer', () => {
    expect(() => postgresOptionsFromEnv({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => postgresOptionsFromEnv({ DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS/,
    );
  });
});

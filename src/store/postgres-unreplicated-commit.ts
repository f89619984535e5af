import type pg from 'pg';

/**
 * A COMMIT that PostgreSQL reports as done though its synchronous standby never confirmed it.
 * With `synchronous_commit = on` and `synchronous_standby_names` set, COMMIT returns once the
 * standby has the transaction; if the wait is cancelled (a cancel request: an operator's
 * `pg_cancel_backend`, a pooler's; the statement timeout is off by then), the server stops
 * waiting and returns success with a WARNING ("canceling wait for synchronous replication …":
 * committed on the primary, maybe not on the standby). Answered 201, such a write would be
 * lost if the primary then failed over to that standby. The store answers it 503 instead
 * (`unavailable.ts`): what was answered 201 is on the standby.
 */
export class UnreplicatedCommitError extends Error {
  readonly code = 'SALESCRM_UNREPLICATED_COMMIT';
  constructor(notice: string) {
    super(`the commit is not confirmed by the synchronous standby: ${notice}`);
    this.name = 'UnreplicatedCommitError';
  }
}

/**
 * SQLSTATE of a plain WARNING, which the cancelled wait raises (its text follows the server's
 * `lc_messages`, so the code is what is matched): the only warning a COMMIT gives while its
 * connection lives (its other, "no transaction in progress", is 25P01).
 */
const PLAIN_WARNING = '01000';

/** What a notice of the server carries that this looks at. */
interface Notice {
  code?: string | undefined;
  message?: string | undefined;
}

/** Makes `commit` on `client` fail with UnreplicatedCommitError when the standby never confirmed it. */
export function refuseUnreplicatedCommits(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    if (typeof args[0] !== 'string' || args[0].trim().toLowerCase() !== 'commit') {
      return query(...args);
    }
    let warning: Notice | undefined;
    const onNotice = (notice: Notice) => {
      if (notice.code === PLAIN_WARNING) warning ??= notice;
    };
    client.on('notice', onNotice);
    const result = query(...args);
    if (!(result instanceof Promise)) {
      client.off('notice', onNotice);
      return result;
    }
    // The notice comes before the command's completion, so it is in by the time this runs.
    return result.then(
      (value) => {
        client.off('notice', onNotice);
        if (warning) throw new UnreplicatedCommitError(warning.message ?? warning.code!);
        return value;
      },
      (error) => {
        client.off('notice', onNotice);
        throw error;
      },
    );
  }) as typeof client.query;
}

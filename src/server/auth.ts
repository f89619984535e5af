import type { Kysely } from 'kysely';
import { hashToken } from '../domain/tokens.ts';
import { HttpError } from '../http/errors.ts';
import type { AuthContext } from '../http/route-deps.ts';
import type { Database } from '../model/tables.ts';
import { type FeedMark, TOKENS_ADDED, type WorkspaceVersions } from '../store/change-feed.ts';
import type { Store } from '../store/database.ts';
import { prepareQuery } from '../store/prepared.ts';
import { TokenCache } from './token-cache.ts';

// The scheme name is case-insensitive (RFC 9110 11.1).
const BEARER = /^Bearer +([A-Za-z0-9_\-.~+/]{1,512}=*) *$/i;

/** Token lookups kept: every token of ten thousand busy workspaces, and room to spare. */
const REMEMBERED_TOKENS = 65_536;

/** A token lookup kept, and what it was read at. */
interface Remembered {
  /** The token's context; null for a token no workspace has (or revoked). */
  context: AuthContext | null;
  /** SQLite: the store's change stamp when it was read. */
  stamp?: unknown;
  /** PostgreSQL: where the change feed stood when it was read. */
  mark?: FeedMark;
}

/**
 * A kept context with the versions its workspace moved to since its lookup (never back: the
 * lookup may have read them after the notification's commit); updated in place, so that a
 * token asked again finds it current.
 */
function movedOn(kept: Remembered, moved: WorkspaceVersions | undefined): AuthContext {
  const context = kept.context!;
  if (
    moved === undefined ||
    (moved.dataVersion <= context.dataVersion && moved.catalogVersion <= context.catalogVersion)
  )
    return context;
  kept.context = {
    ...context,
    dataVersion: Math.max(context.dataVersion, moved.dataVersion),
    catalogVersion: Math.max(context.catalogVersion, moved.catalogVersion),
  };
  return kept.context;
}

/** A well-formed token that no workspace has, or one revoked: a 401 that counts as a guess. */
export class UnknownTokenError extends HttpError {
  constructor() {
    super('unauthorized', '유효하지 않거나 폐기된 토큰입니다.');
  }
}

/**
 * Authenticates requests by bearer token. Token lookups (with the workspace's data and
 * catalog versions) are kept while nothing they were read from can have changed, so a
 * revoked token fails from the next request on and every request sees its workspace's
 * current data version:
 * - SQLite: while the store's change stamp (`store.changeStamp()`, which moves with every
 *   commit by any connection or process, and costs no round trip) is the one read with it;
 * - PostgreSQL: while the store's change feed (`store.changes()`: the notifications every
 *   commit sends, migration 026) is live and has named neither the token's workspace nor,
 *   for a token not found, a token added since the lookup began. A commit that only moved
 *   the workspace's versions (a write) names them (migration 029): the lookup stays kept,
 *   with the highest versions named since. While the feed is not live (starting, or its
 *   connection lost), every request looks its token up.
 * Kept lookups are one a token, least recently used out first past `REMEMBERED_TOKENS`: a
 * commit in one workspace does not make the tokens of the others look themselves up again.
 */
export function tokenAuthenticator(store: Store) {
  const reader = store.reader as Kysely<Database>;
  const workspaceOf = prepareQuery<'hash'>((p) =>
    reader
      .selectFrom('token_workspaces')
      .select('workspace_id')
      .where('token_hash', '=', p('hash')),
  );
  const byHash = prepareQuery<'hash' | 'workspace'>((p) =>
    reader
      .selectFrom('access_tokens as t')
      .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
      .select([
        't.workspace_id',
        't.user_id',
        't.id',
        'w.data_version',
        'w.cursor_secret',
        't.read_only',
        'w.catalog_version',
      ])
      .where('w.id', '=', p('workspace'))
      .where('t.workspace_id', '=', p('workspace'))
      .where('t.token_hash', '=', p('hash'))
      .where('t.revoked_at', 'is', null),
  );
  /**
   * The workspace of each token hash found so far, kept for good (a token never changes
   * workspace); never of an unknown one, which may be issued later.
   */
  const workspaces = new TokenCache<{ workspaceId: string }>(REMEMBERED_TOKENS);
  const workspaceOfHash = async (hash: string): Promise<string | undefined> => {
    const known = workspaces.get(hash);
    if (known !== undefined) return known.workspaceId;
    const found = (await store.rows(workspaceOf({ hash })))[0]?.[0] as string | undefined;
    if (found !== undefined) workspaces.set(hash, { workspaceId: found });
    return found;
  };
  // A token is found in two steps, each in one place of a database distributed by workspace
  // (docs/deploy.md): its workspace in `token_workspaces`, then its row, and its workspace's
  // versions, in that workspace alone.
  const lookUp = async (token: string): Promise<AuthContext | null> => {
    const hash = hashToken(token);
    const workspace = await workspaceOfHash(hash);
    if (workspace === undefined) return null;
    const row = (await store.rows(byHash({ hash, workspace })))[0];
    return row
      ? {
          workspaceId: row[0] as string,
          userId: row[1] as string,
          tokenId: row[2] as string,
          dataVersion: Number(row[3]),
          cursorSecret: row[4] as string,
          readOnly: Number(row[5]) === 1,
          catalogVersion: Number(row[6]),
        }
      : null;
  };
  const remembered = new TokenCache<Remembered>(REMEMBERED_TOKENS);
  const feed = store.changes?.().feed;
  const contextOf = async (token: string): Promise<AuthContext | null> => {
    const kept = remembered.get(token);
    if (feed?.live) {
      if (kept?.mark && feed.unchangedSince(kept.context?.workspaceId ?? TOKENS_ADDED, kept.mark))
        return kept.context && movedOn(kept, feed.movedSince(kept.context.workspaceId, kept.mark));
      // Taken before the read: a change notified while it runs makes the lookup stale.
      const mark = feed.mark();
      const context = await lookUp(token);
      remembered.set(token, { context, mark });
      return context;
    }
    const stamp = store.changeStamp();
    if (kept && kept.mark === undefined && kept.stamp === stamp) return kept.context;
    const context = await lookUp(token);
    remembered.set(token, { context, stamp });
    return context;
  };
  return async (authorization: string | undefined): Promise<AuthContext> => {
    if (!authorization) {
      throw new HttpError(
        'unauthorized',
        'Authorization 헤더가 없습니다. Authorization: Bearer <ACCESS_TOKEN> 을 보내 주세요.',
      );
    }
    const match = BEARER.exec(authorization);
    if (!match) {
      throw new HttpError(
        'unauthorized',
        'Authorization 헤더는 Bearer <ACCESS_TOKEN> 형식이어야 합니다.',
      );
    }
    const context = await contextOf(match[1]!);
    if (!context) throw new UnknownTokenError();
    return context;
  };
}

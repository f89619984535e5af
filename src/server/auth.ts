import type { Kysely } from 'kysely';
import { hashToken } from '../domain/tokens.ts';
import { HttpError } from '../http/errors.ts';
import type { AuthContext } from '../http/route-deps.ts';
import type { Database } from '../model/tables.ts';
import type { Store } from '../store/database.ts';
import { prepareQuery } from '../store/prepared.ts';

// The scheme name is case-insensitive (RFC 9110 11.1).
const BEARER = /^Bearer +([A-Za-z0-9_\-.~+/]{1,512}=*) *$/i;

const MAX_REMEMBERED_TOKENS = 10_000;

/** A well-formed token that no workspace has, or one revoked: a 401 that counts as a guess. */
export class UnknownTokenError extends HttpError {
  constructor() {
    super('unauthorized', '유효하지 않거나 폐기된 토큰입니다.');
  }
}

/**
 * Authenticates requests by bearer token. A token is found in two steps, each in one place of
 * a database distributed by workspace (docs/deploy.md): its workspace in `token_workspaces`
 * (kept for good once found: a token never changes workspace), then its row, and its
 * workspace's versions, in that workspace alone. Token lookups are remembered only while the
 * database is unchanged (`store.changeStamp()` moves with every commit by any connection
 * or process), so a revoked token fails from the next request on and every request sees
 * its workspace's current data version.
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
  /** The workspace of each token hash found so far (never of an unknown one: it may be issued later). */
  const workspaces = new Map<string, string>();
  const workspaceOfHash = async (hash: string): Promise<string | undefined> => {
    const known = workspaces.get(hash);
    if (known !== undefined) return known;
    const found = (await store.rows(workspaceOf({ hash })))[0]?.[0] as string | undefined;
    if (found === undefined) return undefined;
    if (workspaces.size >= MAX_REMEMBERED_TOKENS) workspaces.clear();
    workspaces.set(hash, found);
    return found;
  };
  const remembered = new Map<string, AuthContext | null>();
  let rememberedAt: unknown;
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
    const token = match[1]!;
    const stamp = await store.changeStamp();
    if (stamp !== rememberedAt) {
      remembered.clear();
      rememberedAt = stamp;
    }
    let context = remembered.get(token);
    if (context === undefined) {
      const hash = hashToken(token);
      const workspace = await workspaceOfHash(hash);
      const rows = workspace === undefined ? [] : await store.rows(byHash({ hash, workspace }));
      const row = rows[0];
      context = row
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
      if (remembered.size >= MAX_REMEMBERED_TOKENS) remembered.clear();
      remembered.set(token, context);
    }
    if (!context) throw new UnknownTokenError();
    return context;
  };
}

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
 * Authenticates requests by bearer token. Token lookups are remembered only while the
 * database is unchanged (`store.changeStamp()` moves with every commit by any connection
 * or process), so a revoked token fails from the next request on and every request sees
 * its workspace's current data version.
 */
export function tokenAuthenticator(store: Store) {
  const byHash = prepareQuery<'hash'>((p) =>
    (store.reader as Kysely<Database>)
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
      .where('t.token_hash', '=', p('hash'))
      .where('t.revoked_at', 'is', null),
  );
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
      const rows = await store.rows(byHash({ hash: hashToken(token) }));
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

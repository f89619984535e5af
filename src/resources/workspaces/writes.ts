import { randomBytes } from 'node:crypto';
import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { hashToken } from '../../domain/tokens.ts';
import { bumpCatalogVersion } from '../../store/catalog.ts';
import type { Executor, Store } from '../../store/database.ts';
import { insertMany } from '../../store/insert.ts';

/** Creates an empty workspace and returns its id. */
export async function createWorkspace(store: Store, name: string): Promise<string> {
  const id = newId();
  await store.db
    .insertInto('workspaces')
    .values({
      id,
      name,
      data_version: 0,
      cursor_secret: randomBytes(32).toString('base64url'),
      created_at: now(),
    })
    .execute();
  return id;
}

/** A user to add to a workspace. */
export interface NewUser {
  id?: string;
  name: string;
  email: string;
  role?: 'admin' | 'member';
  status?: string;
  createdAt?: string;
}

/** Adds users (a change of the workspace's catalog); returns their ids in order. */
export async function insertUsers(
  trx: Executor,
  workspaceId: string,
  users: NewUser[],
): Promise<string[]> {
  const t = now();
  const rows = users.map((u) => ({
    workspace_id: workspaceId,
    id: u.id ?? newId(),
    name: u.name,
    email: u.email,
    status: u.status ?? 'active',
    role: u.role ?? 'member',
    created_at: u.createdAt ?? t,
    updated_at: u.createdAt ?? t,
  }));
  await insertMany(trx, 'users', rows);
  await bumpCatalogVersion(trx, workspaceId);
  return rows.map((r) => r.id);
}

/** A team and its members, in order. */
export interface NewTeam {
  id?: string;
  name: string;
  description?: string | null;
  memberIds: string[];
}

/** Adds teams and their members (a change of the workspace's catalog); returns their ids in order. */
export async function insertTeams(
  trx: Executor,
  workspaceId: string,
  teams: NewTeam[],
): Promise<string[]> {
  const t = now();
  const ids: string[] = [];
  for (const team of teams) {
    const id = team.id ?? newId();
    ids.push(id);
    await trx
      .insertInto('teams')
      .values({
        workspace_id: workspaceId,
        id,
        name: team.name,
        description: team.description ?? null,
        created_at: t,
      })
      .execute();
    await insertMany(
      trx,
      'team_members',
      team.memberIds.map((userId, position) => ({
        workspace_id: workspaceId,
        team_id: id,
        user_id: userId,
        position,
      })),
    );
  }
  await bumpCatalogVersion(trx, workspaceId);
  return ids;
}

/** Teams a user belongs to, the default `팀` of the records the user creates. */
export async function teamsOfUser(
  trx: Executor,
  workspaceId: string,
  userId: string,
): Promise<string[]> {
  const rows = await trx
    .selectFrom('team_members')
    .select('team_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .orderBy('team_id')
    .execute();
  return rows.map((r) => r.team_id);
}

/**
 * Issues a token for a user of the workspace; a `readOnly` one may only read. The token
 * itself is returned only here. Its hash goes into its workspace's tokens and into
 * `token_workspaces`, where a request finds which workspace to look in.
 */
export async function createToken(
  store: Store,
  workspaceId: string,
  userId: string,
  name: string | null = null,
  options: { readOnly?: boolean } = {},
): Promise<{ id: string; token: string }> {
  const id = newId();
  const token = `scrm_${randomBytes(32).toString('base64url')}`;
  const tokenHash = hashToken(token);
  await store.transaction(async (trx) => {
    await trx
      .insertInto('token_workspaces')
      .values({ token_hash: tokenHash, token_id: id, workspace_id: workspaceId })
      .execute();
    await trx
      .insertInto('access_tokens')
      .values({
        workspace_id: workspaceId,
        id,
        token_hash: tokenHash,
        user_id: userId,
        name,
        created_at: now(),
        revoked_at: null,
        read_only: options.readOnly ? 1 : 0,
      })
      .execute();
  });
  return { id, token };
}

/** Revokes a token by id (found in its workspace); false when no live token has that id. */
export async function revokeToken(store: Store, tokenId: string): Promise<boolean> {
  const found = await store.db
    .selectFrom('token_workspaces')
    .select('workspace_id')
    .where('token_id', '=', tokenId)
    .execute();
  let revoked = false;
  for (const { workspace_id } of found) {
    const result = await store.db
      .updateTable('access_tokens')
      .set({ revoked_at: now() })
      .where('workspace_id', '=', workspace_id)
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) revoked = true;
  }
  return revoked;
}

/** Tokens of a workspace (never their secret), oldest first. */
export async function listTokens(store: Store, workspaceId: string) {
  return store.db
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'name', 'created_at', 'revoked_at', 'read_only'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The first admin of the workspace (the CLI's tokens act as that user), or undefined. */
export async function firstAdmin(store: Store, workspaceId: string): Promise<string | undefined> {
  const row = await store.db
    .selectFrom('users')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('role')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

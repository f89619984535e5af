/** What `salescrm token create|list|revoke` do (`token.ts` declares them; imported when one runs). */
import {
  createToken,
  firstAdmin,
  listTokens,
  revokeToken,
} from '../resources/workspaces/writes.ts';
import type { Store } from '../store/database.ts';
import { knownWorkspace } from './known-workspace.ts';
import { storeCommand } from './with-store.ts';

/** `token create --workspace ID [--read-only] [--name N] [--json]`. */
async function create(
  store: Store,
  values: { workspace: string; readOnly?: boolean; name?: string; json?: boolean },
): Promise<number> {
  const userId = await firstAdmin(store, values.workspace);
  if (!userId) {
    console.error(`salescrm: no workspace '${values.workspace}' (or it has no users)`);
    return 1;
  }
  const readOnly = values.readOnly === true;
  const token = await createToken(store, values.workspace, userId, values.name ?? null, {
    readOnly,
  });
  console.log(
    values.json
      ? JSON.stringify(token)
      : `token ${token.id}${readOnly ? ' (read-only)' : ''}: ${token.token}\n(shown only now)`,
  );
  return 0;
}

/** `token list --workspace ID [--json]`: one line a token, never its secret. */
async function list(store: Store, values: { workspace: string; json?: boolean }): Promise<number> {
  if (!(await knownWorkspace(store, values.workspace))) return 1;
  const tokens = await listTokens(store, values.workspace);
  if (values.json) console.log(JSON.stringify(tokens));
  else
    for (const t of tokens)
      console.log(
        `${t.id}\t${t.revoked_at ? 'revoked' : 'active'}\t${t.read_only ? 'read-only' : 'read-write'}\t${t.created_at}\t${t.name ?? ''}`,
      );
  return 0;
}

/** `token revoke ID`. */
async function revoke(store: Store, id: string): Promise<number> {
  if (!(await revokeToken(store, id))) {
    console.error(`salescrm: no active token '${id}'`);
    return 1;
  }
  console.log(`token ${id} revoked`);
  return 0;
}

/** `token create`, `token list` and `token revoke`, each on the migrated store. */
export const runCreate = storeCommand(create);
export const runList = storeCommand(list);
export const runRevoke = storeCommand(revoke);

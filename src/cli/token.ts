import type { Config } from '../config.ts';
import {
  createToken,
  firstAdmin,
  listTokens,
  revokeToken,
} from '../resources/workspaces/writes.ts';
import { openStore } from '../store/database.ts';
import { parseFlags, UsageError } from './flags.ts';
import { knownWorkspace } from './known-workspace.ts';

/** `salescrm token create|list|revoke`. */
export async function runToken(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    name: { type: 'string' },
    'read-only': { type: 'boolean' },
  });
  const [sub, ...rest] = positionals;
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    switch (sub) {
      case 'create': {
        const workspaceId = requireWorkspace(values.workspace);
        const userId = await firstAdmin(store, workspaceId);
        if (!userId) {
          console.error(`salescrm: no workspace '${workspaceId}' (or it has no users)`);
          return 1;
        }
        const token = await createToken(store, workspaceId, userId, values.name ?? null, {
          readOnly: values['read-only'] === true,
        });
        console.log(
          values.json
            ? JSON.stringify(token)
            : `token ${token.id}${values['read-only'] ? ' (read-only)' : ''}: ${token.token}\n(shown only now)`,
        );
        return 0;
      }
      case 'list': {
        const workspaceId = requireWorkspace(values.workspace);
        if (!(await knownWorkspace(store, workspaceId))) return 1;
        const tokens = await listTokens(store, workspaceId);
        if (values.json) console.log(JSON.stringify(tokens));
        else
          for (const t of tokens)
            console.log(
              `${t.id}\t${t.revoked_at ? 'revoked' : 'active'}\t${t.read_only ? 'read-only' : 'read-write'}\t${t.created_at}\t${t.name ?? ''}`,
            );
        return 0;
      }
      case 'revoke': {
        const [id] = rest;
        if (!id) throw new UsageError('token revoke takes the token id');
        if (!(await revokeToken(store, id))) {
          console.error(`salescrm: no active token '${id}'`);
          return 1;
        }
        console.log(`token ${id} revoked`);
        return 0;
      }
      default:
        throw new UsageError(
          sub === undefined
            ? 'token needs a subcommand: create, list or revoke'
            : `token: unknown subcommand '${sub}' (create, list or revoke)`,
        );
    }
  } finally {
    await store.close();
  }
}

function requireWorkspace(id: string | undefined): string {
  if (!id) throw new UsageError('--workspace ID is required');
  return id;
}

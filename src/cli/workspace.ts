import type { Config } from '../config.ts';
import { createWorkspace, insertUsers } from '../resources/workspaces/writes.ts';
import { openStore } from '../store/database.ts';
import { parseFlags, UsageError } from './flags.ts';

/** `salescrm workspace create NAME [--json]`: an empty workspace with one admin user. */
export async function runWorkspace(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, { json: { type: 'boolean' } });
  const [sub, name, ...extra] = positionals;
  if (sub !== 'create')
    throw new UsageError(
      sub === undefined
        ? 'workspace needs a subcommand: create'
        : `workspace: unknown subcommand '${sub}' (create)`,
    );
  if (!name || name.trim() === '' || extra.length > 0)
    throw new UsageError('workspace create takes one NAME');
  if (name.length > 200) throw new UsageError('workspace name is longer than 200 characters');
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    const workspaceId = await createWorkspace(store, name);
    await store.transaction((trx) =>
      insertUsers(trx, workspaceId, [
        { name: '관리자', email: 'admin@example.com', role: 'admin' },
      ]),
    );
    console.log(values.json ? JSON.stringify({ workspaceId }) : `workspace ${workspaceId} created`);
    return 0;
  } finally {
    await store.close();
  }
}

import { type Command, InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import { createWorkspace, insertUsers } from '../resources/workspaces/writes.ts';
import { openStore } from '../store/database.ts';
import { action } from './command.ts';

/** Declares `workspace create` on the program. */
export function workspaceCommand(program: Command): void {
  const workspace = program
    .command('workspace')
    .description('create: an empty workspace, with an admin user');
  workspace
    .command('create')
    .description('create an empty workspace (with an admin user)')
    .argument('<NAME>', "the workspace's name (at most 200 characters)", workspaceName)
    .option('--json', 'print {"workspaceId"} only')
    .action(action(runWorkspaceCreate));
}

function workspaceName(name: string): string {
  if (name.trim() === '') throw new InvalidArgumentError('It must not be empty.');
  if (name.length > 200) throw new InvalidArgumentError('It is longer than 200 characters.');
  return name;
}

/** `salescrm workspace create NAME [--json]`: an empty workspace with one admin user. */
async function runWorkspaceCreate(
  config: Config,
  name: string,
  values: { json?: boolean },
): Promise<number> {
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

import { type Command, InvalidArgumentError } from 'commander';
import { lazyAction } from './command.ts';

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
    .action(lazyAction(async () => (await import('./workspace-run.ts')).runWorkspaceCreate));
}

function workspaceName(name: string): string {
  if (name.trim() === '') throw new InvalidArgumentError('It must not be empty.');
  if (name.length > 200) throw new InvalidArgumentError('It is longer than 200 characters.');
  return name;
}

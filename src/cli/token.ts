import type { Command } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `token create|list|revoke` on the program. */
export function tokenCommand(program: Command): void {
  const token = program.command('token').description("create, list or revoke a workspace's tokens");
  token
    .command('create')
    .description("a token of the workspace's admin (shown only now; stored as a hash)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--read-only', 'a token that reads only: 403 on every write')
    .option('--name <N>', "the token's name, shown by token list")
    .option('--json', 'print {"id","token"} only')
    .action(lazyAction(async () => (await import('./token-run.ts')).runCreate));
  token
    .command('list')
    .description("the workspace's tokens: id, status, access, creation time, name (no secret)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--json', 'print a JSON array')
    .action(lazyAction(async () => (await import('./token-run.ts')).runList));
  token
    .command('revoke')
    .description('revoke a token: 401 from its next request on')
    .argument('<ID>', "the token's id (token list shows it)")
    .action(lazyAction(async () => (await import('./token-run.ts')).runRevoke));
}

import { type Command, Option } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `mcp` on the program. */
export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('the MCP server for AI assistants on stdin/stdout, as a token (docs/mcp.md)')
    .addOption(
      new Option('--token <TOKEN>', 'the token the tools act as')
        .env('SALESCRM_TOKEN')
        .makeOptionMandatory(),
    )
    .action(lazyAction(async () => (await import('./mcp-run.ts')).runMcp));
}

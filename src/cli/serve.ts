import type { Command } from 'commander';
import { lazyAction, wholeNumber } from './command.ts';

/** Declares `start` on the program. */
export function startCommand(program: Command): void {
  serveOptions(
    program
      .command('start')
      .description('serve; on an empty database, first create a demo workspace (npm start)'),
  ).action(lazyAction(async () => (await import('./serve-run.ts')).runStart));
}

/** Declares `serve` on the program. */
export function serveCommand(program: Command): void {
  serveOptions(
    program
      .command('serve')
      .description(
        'run the HTTP API (migrates the database first); each process also sends webhook deliveries (WEBHOOK_DISPATCH=0: not)',
      ),
  ).action(lazyAction(async () => (await import('./serve-run.ts')).runServe));
}

function serveOptions(command: Command): Command {
  return command
    .option('--port <N>', 'the port to listen on (default: PORT, else 3000)', wholeNumber(0, 65535))
    .option('--host <H>', 'the address to listen on (default: HOST, else 127.0.0.1)')
    .option('--workers <N>', 'processes that share the port (1 to 64)', wholeNumber(1, 64), 1);
}

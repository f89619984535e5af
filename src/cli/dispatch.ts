import type { Command } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `dispatch` on the program. */
export function dispatchCommand(program: Command): void {
  program
    .command('dispatch')
    .description(
      'send webhook deliveries only (no API), until SIGTERM or SIGINT; METRICS_PORT serves its metrics',
    )
    .action(lazyAction(async () => (await import('./dispatch-run.ts')).runDispatch));
}

import { type Command, InvalidArgumentError } from 'commander';
import { lazyAction } from './command.ts';

/** Declares `types` on the program. */
export function typesCommand(program: Command): void {
  program
    .command('types')
    .description("print a .d.ts of the workspace's custom fields (the client's generic parameter)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--name <T>', 'the name of the type', typeName, 'CustomFields')
    .action(lazyAction(async () => (await import('./types-run.ts')).runTypes));
}

function typeName(name: string): string {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
    throw new InvalidArgumentError('It must be a TypeScript identifier.');
  return name;
}

import { type Command, InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import {
  customFieldDefinitions,
  renderCustomFieldDeclarations,
} from '../resources/custom-fields/declarations.ts';
import { openStore } from '../store/database.ts';
import { action } from './command.ts';
import { knownWorkspace } from './known-workspace.ts';

/** Declares `types` on the program. */
export function typesCommand(program: Command): void {
  program
    .command('types')
    .description("print a .d.ts of the workspace's custom fields (the client's generic parameter)")
    .requiredOption('--workspace <ID>', 'the workspace')
    .option('--name <T>', 'the name of the type', typeName, 'CustomFields')
    .action(action(runTypes));
}

function typeName(name: string): string {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
    throw new InvalidArgumentError('It must be a TypeScript identifier.');
  return name;
}

/**
 * `salescrm types --workspace ID [--name TypeName]`: prints a `.d.ts` of the workspace's
 * custom fields for the client's generic parameter.
 */
async function runTypes(
  config: Config,
  { workspace: workspaceId, name: typeName }: { workspace: string; name: string },
): Promise<number> {
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    const definitions = await customFieldDefinitions(store.reader, workspaceId);
    process.stdout.write(renderCustomFieldDeclarations(definitions, { workspaceId, typeName }));
    return 0;
  } finally {
    await store.close();
  }
}

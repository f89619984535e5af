import type { Config } from '../config.ts';
import {
  customFieldDefinitions,
  renderCustomFieldDeclarations,
} from '../resources/custom-fields/declarations.ts';
import { openStore } from '../store/database.ts';
import { parseFlags, UsageError } from './flags.ts';
import { knownWorkspace } from './known-workspace.ts';

/**
 * `salescrm types --workspace ID [--name TypeName]`: prints a `.d.ts` of the workspace's
 * custom fields for the client's generic parameter.
 */
export async function runTypes(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    workspace: { type: 'string' },
    name: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`types: unexpected '${positionals[0]}'`);
  const workspaceId = values.workspace;
  if (!workspaceId) throw new UsageError('types needs --workspace ID');
  const typeName = values.name ?? 'CustomFields';
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(typeName))
    throw new UsageError(`--name must be a TypeScript identifier, not '${typeName}'`);
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

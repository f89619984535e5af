/** What `salescrm types` does (`types.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import {
  customFieldDefinitions,
  renderCustomFieldDeclarations,
} from '../resources/custom-fields/declarations.ts';
import { knownWorkspace } from './known-workspace.ts';
import { withStore } from './with-store.ts';

/**
 * `salescrm types --workspace ID [--name TypeName]`: prints a `.d.ts` of the workspace's
 * custom fields for the client's generic parameter.
 */
export async function runTypes(
  config: Config,
  { workspace: workspaceId, name: typeName }: { workspace: string; name: string },
): Promise<number> {
  return withStore(config, async (store) => {
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    const definitions = await customFieldDefinitions(store.reader, workspaceId);
    process.stdout.write(renderCustomFieldDeclarations(definitions, { workspaceId, typeName }));
    return 0;
  });
}

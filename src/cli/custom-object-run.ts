/** What `salescrm custom-object define` does (`custom-object.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { CustomFieldNameError } from '../resources/custom-fields/writes.ts';
import { type DefinitionField, defineCustomObject } from '../resources/custom-objects/commands.ts';
import type { Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { knownWorkspace } from './known-workspace.ts';
import { withStore } from './with-store.ts';

/** The workspace to write to: `--workspace`, else the database's only one. */
async function targetWorkspace(store: Store, given: string | undefined): Promise<string | null> {
  if (given !== undefined) return (await knownWorkspace(store, given)) ? given : null;
  const rows = await store.reader.selectFrom('workspaces').select('id').limit(2).execute();
  if (rows.length === 1) return rows[0]!.id;
  console.error(
    rows.length === 0
      ? 'salescrm: the database has no workspace (salescrm workspace create NAME)'
      : 'salescrm: the database has several workspaces: name one with --workspace ID',
  );
  return null;
}

/**
 * `salescrm custom-object define NAME --field NAME:TYPE ... [--stages A,B,C] [--workspace ID]
 * [--json]`: a custom object definition with its fields (after the built-in ones, `이름`
 * first) and, with `--stages`, a pipeline of its own.
 */
export async function runDefine(
  config: Config,
  name: string,
  values: { field?: DefinitionField[]; stages?: string[]; workspace?: string; json?: boolean },
): Promise<number> {
  const fields = values.field ?? [];
  const stages = values.stages;
  return withStore(config, async (store) => {
    try {
      const workspaceId = await targetWorkspace(store, values.workspace);
      if (workspaceId === null) return 1;
      const defined = await writeWorkspace(store, workspaceId, (w) =>
        defineCustomObject(w, { name, fields, stages }),
      );
      if (values.json) {
        console.log(
          JSON.stringify({
            id: defined.id,
            name: defined.name,
            pipelineId: defined.pipelineId,
            fieldIdList: defined.fieldIds,
          }),
        );
      } else {
        console.log(
          `custom object '${defined.name}' defined: ${defined.id} (${fields.length} field${fields.length === 1 ? '' : 's'}${defined.pipelineId ? `, pipeline ${defined.pipelineId}` : ''})`,
        );
      }
      return 0;
    } catch (error) {
      if (error instanceof DomainError || error instanceof CustomFieldNameError) {
        console.error(`salescrm: ${error.message}`);
        return 1;
      }
      throw error;
    }
  });
}

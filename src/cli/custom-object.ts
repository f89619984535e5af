import type { Config } from '../config.ts';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { CustomFieldNameError } from '../resources/custom-fields/writes.ts';
import { type DefinitionField, defineCustomObject } from '../resources/custom-objects/commands.ts';
import { openStore, type Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { parseFlags, UsageError } from './flags.ts';
import { knownWorkspace } from './known-workspace.ts';

const SELECT_TYPES = new Set(['singleSelect', 'multiSelect']);

/**
 * A `--field` value: `NAME:TYPE`, or `NAME:singleSelect:A,B` / `NAME:multiSelect:A,B` with
 * the options of a select field (the types are those of custom fields: `string`, `number`,
 * `date`, `deal`, `multiUser`, ...).
 */
export function parseFieldFlag(raw: string): DefinitionField {
  const [name, type, options, ...extra] = raw.split(':');
  if (!name || name.trim() === '' || !type || extra.length > 0)
    throw new UsageError(`--field takes NAME:TYPE (or NAME:singleSelect:A,B), not '${raw}'`);
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type))
    throw new UsageError(
      `--field '${raw}': unknown type '${type}' (one of ${CUSTOM_FIELD_TYPES.join(', ')})`,
    );
  if (SELECT_TYPES.has(type)) {
    const values = (options ?? '').split(',').filter((v) => v.trim() !== '');
    if (values.length === 0)
      throw new UsageError(`--field '${raw}': a ${type} field needs its options: NAME:${type}:A,B`);
    return { name, type: type as CustomFieldType, options: values };
  }
  if (options !== undefined)
    throw new UsageError(`--field '${raw}': only select fields take options`);
  return { name, type: type as CustomFieldType };
}

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
export async function runCustomObject(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    workspace: { type: 'string' },
    field: { type: 'string', multiple: true },
    stages: { type: 'string' },
    json: { type: 'boolean' },
  });
  const [sub, name, ...extra] = positionals;
  if (sub !== 'define')
    throw new UsageError(
      sub === undefined
        ? 'custom-object needs a subcommand: define'
        : `custom-object: unknown subcommand '${sub}' (define)`,
    );
  if (!name || name.trim() === '' || extra.length > 0)
    throw new UsageError('custom-object define takes one NAME');
  if (name.length > 200) throw new UsageError('a definition name is longer than 200 characters');
  const fields = (values.field ?? []).map(parseFieldFlag);
  const stages = values.stages
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (values.stages !== undefined && (stages ?? []).length === 0)
    throw new UsageError('--stages takes the stage names: A,B,C');
  const store = openStore(config.databaseUrl);
  try {
    await store.migrate();
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
  } finally {
    await store.close();
  }
}

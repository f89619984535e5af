import { type Command, InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { CustomFieldNameError } from '../resources/custom-fields/writes.ts';
import { type DefinitionField, defineCustomObject } from '../resources/custom-objects/commands.ts';
import { openStore, type Store } from '../store/database.ts';
import { writeWorkspace } from '../store/write.ts';
import { action } from './command.ts';
import { knownWorkspace } from './known-workspace.ts';

const SELECT_TYPES = new Set(['singleSelect', 'multiSelect']);

/** Declares `custom-object define` on the program. */
export function customObjectCommand(program: Command): void {
  const customObject = program
    .command('custom-object')
    .description("define: a custom object (the workspace's own record type) with its fields");
  customObject
    .command('define')
    .description('define a custom object with its fields and, with --stages, a pipeline of its own')
    .argument('<NAME>', "the definition's name (at most 200 characters)", definitionName)
    .option(
      '--field <NAME:TYPE>',
      'a field, repeatable: 금액:number, 딜:deal, 상태:singleSelect:초안,서명 (any custom field type)',
      (raw: string, list: DefinitionField[] | undefined) => [...(list ?? []), parseFieldFlag(raw)],
    )
    .option('--stages <A,B>', 'the stages of its pipeline, comma-separated', stageNames)
    .option('--workspace <ID>', "the workspace (default: the database's only one)")
    .option('--json', 'print {"id", "name", "pipelineId", "fieldIdList"} only')
    .action(action(runDefine));
}

function definitionName(name: string): string {
  if (name.trim() === '') throw new InvalidArgumentError('It must not be empty.');
  if (name.length > 200) throw new InvalidArgumentError('It is longer than 200 characters.');
  return name;
}

function stageNames(raw: string): string[] {
  const stages = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (stages.length === 0) throw new InvalidArgumentError('It takes the stage names: A,B,C.');
  return stages;
}

/**
 * A `--field` value: `NAME:TYPE`, or `NAME:singleSelect:A,B` / `NAME:multiSelect:A,B` with
 * the options of a select field (the types are those of custom fields: `string`, `number`,
 * `date`, `deal`, `multiUser`, ...). Names and options are at most 200 characters, as the
 * API's; an option is given once.
 */
export function parseFieldFlag(raw: string): DefinitionField {
  const [name, type, options, ...extra] = raw.split(':');
  if (!name || name.trim() === '' || !type || extra.length > 0)
    throw new InvalidArgumentError('It takes NAME:TYPE (or NAME:singleSelect:A,B).');
  if (name.length > 200) throw new InvalidArgumentError('Its name is longer than 200 characters.');
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type))
    throw new InvalidArgumentError(
      `Its type '${type}' is not one of ${CUSTOM_FIELD_TYPES.join(', ')}.`,
    );
  if (SELECT_TYPES.has(type)) {
    const values = (options ?? '').split(',').filter((v) => v.trim() !== '');
    if (values.length === 0)
      throw new InvalidArgumentError(`A ${type} field needs its options: NAME:${type}:A,B.`);
    if (new Set(values).size < values.length)
      throw new InvalidArgumentError('Each option is given once.');
    if (values.some((v) => v.length > 200))
      throw new InvalidArgumentError('An option is longer than 200 characters.');
    return { name, type: type as CustomFieldType, options: values };
  }
  if (options !== undefined) throw new InvalidArgumentError('Only select fields take options.');
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
async function runDefine(
  config: Config,
  name: string,
  values: { field?: DefinitionField[]; stages?: string[]; workspace?: string; json?: boolean },
): Promise<number> {
  const fields = values.field ?? [];
  const stages = values.stages;
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

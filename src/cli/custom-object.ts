import { type Command, InvalidArgumentError } from 'commander';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../domain/custom-fields.ts';
import type { DefinitionField } from '../resources/custom-objects/commands.ts';
import { lazyAction } from './command.ts';

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
    .action(lazyAction(async () => (await import('./custom-object-run.ts')).runDefine));
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

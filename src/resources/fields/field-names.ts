import { BUILT_IN_FIELDS, type FieldRecordType } from '../../domain/field-catalogue.ts';
import type { FieldNames } from '../../http/field-choice.ts';
import { stageKeysOfWorkspace } from '../../store/catalog.ts';
import type { Store } from '../../store/database.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The stage timing keys of deals or leads, three a stage, in their order. */
export function stageFieldNames(
  keys: Awaited<ReturnType<typeof stageKeysOfWorkspace>>,
  kind: 'deal' | 'lead',
): string[] {
  return (keys.get(kind) ?? []).flatMap((k) => [k.entered, k.total, k.exited]);
}

/**
 * The names of a record type's fields in a workspace: its built-in fields, a deal's or lead's
 * stage timing keys, then its custom ones.
 */
export function fieldNamesOf(store: Store, recordType: FieldRecordType): FieldNames {
  const builtIn = BUILT_IN_FIELDS[recordType].map((field) => field.name);
  const custom = prepareQuery<'ws' | 'type'>((p) =>
    store.reader
      .selectFrom('custom_fields')
      .select('name')
      .where('workspace_id', '=', p('ws'))
      .where('record_type', '=', p('type')),
  );
  return async (workspaceId) => {
    const rows = await store.rows(custom({ ws: workspaceId, type: recordType }));
    const stages =
      recordType === 'deal' || recordType === 'lead'
        ? stageFieldNames(await stageKeysOfWorkspace(store.reader, workspaceId), recordType)
        : [];
    return new Set([...builtIn, ...stages, ...rows.map(([name]) => String(name))]);
  };
}

/**
 * The names of custom objects' fields in a workspace: the built-in ones, then the custom
 * fields of one definition, or of every definition when none is given (a list of all
 * records holds each definition's fields).
 */
export function customObjectFieldNames(store: Store) {
  const builtIn = BUILT_IN_FIELDS.customObject.map((field) => field.name);
  const all = prepareQuery<'ws'>((p) =>
    store.reader
      .selectFrom('custom_fields')
      .select('name')
      .where('workspace_id', '=', p('ws'))
      .where('record_type', '=', 'customObject'),
  );
  const ofDefinition = prepareQuery<'ws' | 'definition'>((p) =>
    store.reader
      .selectFrom('custom_fields')
      .select('name')
      .where('workspace_id', '=', p('ws'))
      .where('record_type', '=', 'customObject')
      .where('custom_object_definition_id', '=', p('definition')),
  );
  return (definitionId?: string): FieldNames =>
    async (workspaceId) => {
      const rows = await store.rows(
        definitionId === undefined
          ? all({ ws: workspaceId })
          : ofDefinition({ ws: workspaceId, definition: definitionId }),
      );
      return new Set([...builtIn, ...rows.map(([name]) => String(name))]);
    };
}

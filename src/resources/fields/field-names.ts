import { BUILT_IN_FIELDS, type FieldRecordType } from '../../domain/field-catalogue.ts';
import type { FieldNames } from '../../http/field-choice.ts';
import type { Store } from '../../store/database.ts';
import { prepareQuery } from '../../store/prepared.ts';

/** The names of a record type's fields in a workspace: its built-in fields, then its custom ones. */
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
    return new Set([...builtIn, ...rows.map(([name]) => String(name))]);
  };
}

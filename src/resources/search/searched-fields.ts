import type { CustomFieldDefinition, CustomFieldRecordType } from '../../domain/custom-fields.ts';
import type { ReadSide } from '../../store/database.ts';
import { customFieldsOf } from '../fields/field-list.ts';

/** Record types of workspaces whose definitions are kept, most recently used last. */
const KEPT = 1_024;
const kept = new WeakMap<
  ReadSide,
  Map<string, { version: number; fields: CustomFieldDefinition[] }>
>();

/**
 * The custom field definitions a search of `recordType` reads, kept while the workspace's
 * `catalog_version` (which every change of its custom fields moves, `bumpCatalogVersion`)
 * is `catalogVersion`, the one read with the request's token: a search then runs one query
 * fewer (a round trip on PostgreSQL). Read afresh with a read replica, which may not have
 * replayed the change that moved the version yet.
 */
export async function searchedFields(
  store: ReadSide,
  workspaceId: string,
  recordType: CustomFieldRecordType,
  catalogVersion: number,
): Promise<readonly CustomFieldDefinition[]> {
  if (store.routeReads) return customFieldsOf(store.reader, workspaceId, recordType);
  let byKey = kept.get(store);
  if (!byKey) {
    byKey = new Map();
    kept.set(store, byKey);
  }
  const key = `${workspaceId}\n${recordType}`;
  const known = byKey.get(key);
  byKey.delete(key);
  // Read after the token's row, the definitions are those of `catalogVersion` or newer: a
  // request that reads a newer version reads them again.
  const entry =
    known?.version === catalogVersion
      ? known
      : {
          version: catalogVersion,
          fields: await customFieldsOf(store.reader, workspaceId, recordType),
        };
  byKey.set(key, entry);
  if (byKey.size > KEPT) byKey.delete(byKey.keys().next().value!);
  return entry.fields;
}

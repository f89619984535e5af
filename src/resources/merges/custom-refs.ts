import { sql } from 'kysely';
import type { CustomFieldRecordType, StoredCustomValues } from '../../domain/custom-fields.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { idPattern, refFieldsTo } from '../commands.ts';

/** The table holding the custom values of each record type. */
const TABLE = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  lead: 'leads',
  product: 'products',
  quote: 'quotes',
  quoteProduct: 'quote_products',
  todo: 'todos',
  customObject: 'custom_objects',
} as const satisfies Record<CustomFieldRecordType, string>;

/**
 * Points every custom Ref value (single or multi) that names a merged person, organization
 * or deal at the kept one, in every record type that can hold such a field (quote lines and
 * todos included); a multi Ref that would name the kept record twice names it once. The
 * records that show them are rendered again; their `수정 날짜` stays, as when a Ref's target
 * is renamed.
 */
export async function repointCustomRefs(
  w: WorkspaceWrite,
  target: 'people' | 'organization' | 'deal',
  mergedId: string,
  keptId: string,
): Promise<void> {
  const fieldsByType = new Map<CustomFieldRecordType, string[]>();
  for (const f of await refFieldsTo(w, target)) {
    const type = f.record_type as CustomFieldRecordType;
    fieldsByType.set(type, [...(fieldsByType.get(type) ?? []), f.id]);
  }
  const pattern = idPattern(mergedId);
  for (const [recordType, fieldIds] of fieldsByType) {
    const table = TABLE[recordType];
    if (!table) continue;
    const rows = (await w.trx
      .selectFrom(table as 'quote_products')
      .select(recordType === 'quoteProduct' ? ['id', 'custom', 'quote_id'] : ['id', 'custom'])
      .where('workspace_id', '=', w.workspaceId)
      .where(sql<boolean>`custom like ${pattern} escape '\\'`)
      .execute()) as { id: string; custom: string; quote_id?: string }[];
    for (const row of rows) {
      const custom = JSON.parse(row.custom) as StoredCustomValues;
      if (!repoint(custom, fieldIds, mergedId, keptId)) continue;
      await w.trx
        .updateTable(table as 'quote_products')
        .set({ custom: JSON.stringify(custom) })
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', row.id)
        .execute();
      if (recordType === 'quoteProduct') w.touched.mark('quote', row.quote_id);
      else if (recordType !== 'todo') w.touched.mark(recordType, row.id);
    }
  }
}

/** Replaces `mergedId` with `keptId` in the values of `fieldIds` (lists keep each id once). */
function repoint(
  custom: StoredCustomValues,
  fieldIds: readonly string[],
  mergedId: string,
  keptId: string,
): boolean {
  let changed = false;
  for (const id of fieldIds) {
    const value = custom[id];
    if (Array.isArray(value)) {
      if (!value.includes(mergedId)) continue;
      custom[id] = [...new Set(value.map((v) => (v === mergedId ? keptId : v)))];
      changed = true;
    } else if (value === mergedId) {
      custom[id] = keptId;
      changed = true;
    }
  }
  return changed;
}

import type { CustomFieldDefinition, StoredCustomValues } from '../../domain/custom-fields.ts';
import { ChangeSet } from '../commands.ts';
import type { Row } from './pair.ts';

/** Whether a stored value is empty: null, `''` or an empty list (a JSON `[]` column too). */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === '[]') return true;
  return Array.isArray(value) && value.length === 0;
}

/**
 * The kept record's changes of a merge: each built-in field (`columns`, field name to
 * column) and custom value that is empty on the kept row takes the merged row's, each a
 * history entry. Derived fields are not among them: rendering the kept record derives them.
 */
export function fillEmpty(
  kept: Row,
  merged: Row,
  columns: Readonly<Record<string, string>>,
  definitions: readonly CustomFieldDefinition[],
): ChangeSet {
  const changes = new ChangeSet(kept);
  for (const [name, column] of Object.entries(columns)) {
    if (isEmptyValue(kept[column]) && !isEmptyValue(merged[column])) {
      changes.field(name, column, merged[column]);
    }
  }
  const keptValues = JSON.parse(String(kept.custom ?? '{}')) as StoredCustomValues;
  const mergedValues = JSON.parse(String(merged.custom ?? '{}')) as StoredCustomValues;
  const taken: StoredCustomValues = {};
  for (const def of definitions) {
    if (isEmptyValue(keptValues[def.id]) && !isEmptyValue(mergedValues[def.id])) {
      taken[def.id] = mergedValues[def.id];
    }
  }
  return changes.customValues(definitions, taken);
}

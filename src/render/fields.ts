import type { CustomFieldDefinition, SelectOption } from '../domain/custom-fields.ts';
import type { BuiltInField } from '../domain/field-catalogue.ts';

/** One field of `GET /v2/field/{type}`; `optionList` only on select fields. */
export interface FieldRecord {
  id: string;
  name: string;
  type: string;
  required: boolean;
  optionList?: SelectOption[];
}

const SELECT_TYPES = new Set(['singleSelect', 'multiSelect']);

/**
 * The field list of a record type: its built-in fields in record key order (each with its
 * key as a stable id, and its values as their own option ids), then its custom fields in
 * definition order.
 */
export function renderFieldList(
  builtIn: readonly BuiltInField[],
  custom: readonly CustomFieldDefinition[],
): FieldRecord[] {
  const fields: FieldRecord[] = builtIn.map((f) => {
    const field: FieldRecord = { id: f.name, name: f.name, type: f.type, required: f.required };
    if (SELECT_TYPES.has(f.type))
      field.optionList = (f.options ?? []).map((value) => ({ id: value, value }));
    return field;
  });
  for (const def of custom) {
    const field: FieldRecord = {
      id: def.id,
      name: def.name,
      type: def.type,
      required: def.required,
    };
    if (SELECT_TYPES.has(def.type))
      field.optionList = (def.options ?? []).map((o) => ({ id: o.id, value: o.value }));
    fields.push(field);
  }
  return fields;
}

import type { CustomFieldDefinition, SelectOption } from '../domain/custom-fields.ts';
import type { BuiltInField } from '../domain/field-catalogue.ts';
import type { StageKeys } from '../domain/stage-times.ts';

/** One field of `GET /v2/field/{type}`; `optionList` only on select fields. */
export interface FieldRecord {
  id: string;
  name: string;
  type: string;
  /** Formula fields only. */
  formula?: string;
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
  stageKeys: readonly StageKeys[] = [],
): FieldRecord[] {
  const fields: FieldRecord[] = builtIn.map((f) => {
    const field: FieldRecord = { id: f.name, name: f.name, type: f.type, required: f.required };
    if (SELECT_TYPES.has(f.type))
      field.optionList = (f.options ?? []).map((value) => ({ id: value, value }));
    return field;
  });
  // A deal's or lead's stage timing keys, after the built-in fields as on the records.
  for (const k of stageKeys) {
    fields.push(
      { id: k.entered, name: k.entered, type: 'dateTime', required: false },
      { id: k.total, name: k.total, type: 'number', required: false },
      { id: k.exited, name: k.exited, type: 'dateTime', required: false },
    );
  }
  for (const def of custom) {
    const field: FieldRecord = {
      id: def.id,
      name: def.name,
      type: def.type,
      ...(def.formula !== undefined ? { formula: def.formula } : {}),
      required: def.required,
    };
    if (SELECT_TYPES.has(def.type))
      field.optionList = (def.options ?? []).map((o) => ({ id: o.id, value: o.value }));
    fields.push(field);
  }
  return fields;
}

/** The stored definition of a custom field, as `custom_fields` holds it. */
export interface FieldDefinitionRow {
  id: string;
  name: string;
  type: string;
  description: string | null;
  show_in_create_form: number;
  required: number;
  is_sensitive: number;
  prevent_duplicates: number;
  /** JSON array of `{id, value}`, or null. */
  options: string | null;
  created_at: string;
  /** A formula field's formula, else null. */
  formula: string | null;
}

/** A field as `POST /v2/field/{type}` answers it (docs/decisions.md, Custom fields). */
export interface FieldDefinitionRecord {
  id: string;
  name: string;
  type: string;
  /** Formula fields only. */
  formula?: string;
  description: string | null;
  showInCreateForm: boolean;
  required: boolean;
  isSensitive: boolean;
  preventDuplicates: boolean;
  options: SelectOption[];
  createdAt: string;
}

/**
 * A custom field's definition in the live API's keys and order; `options` `[]` when none,
 * `formula` (after `type`) on formula fields only.
 */
export function renderFieldDefinition(row: FieldDefinitionRow): FieldDefinitionRecord {
  const options = row.options ? (JSON.parse(row.options) as SelectOption[]) : [];
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ...(row.formula !== null ? { formula: row.formula } : {}),
    description: row.description,
    showInCreateForm: Number(row.show_in_create_form) === 1,
    required: Number(row.required) === 1,
    isSensitive: Number(row.is_sensitive) === 1,
    preventDuplicates: Number(row.prevent_duplicates) === 1,
    options: options.map((o) => ({ id: o.id, value: o.value })),
    createdAt: row.created_at,
  };
}

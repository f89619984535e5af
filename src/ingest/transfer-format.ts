/**
 * The workspace export format (NDJSON, `docs/import-format.md`): a header line, then one line
 * per stored row, each `{"type": ..., <column>: <value>, ...}` with the table's columns as
 * stored (snake_case names, ids, times and custom values unchanged; 0/1 flags as booleans,
 * JSON columns as JSON). The schemas built here from the columns of each line type
 * (`transfer-line-types.ts`) validate imported lines and generate the doc.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ID_PATTERN } from '../domain/ids.ts';
import type { Database } from '../model/tables.ts';
import type { Column, ColumnKind, LineType } from './transfer-columns.ts';
import { LINE_SPECS, type Spec } from './transfer-line-types.ts';

/** Version of the format the header names; an import refuses other versions. */
export const FORMAT_VERSION = 1;
/** `format` of the header line. */
export const FORMAT_NAME = 'salescrm-workspace';

/** A line type: its table, its columns in file and insert order, and its compiled schema. */
export interface LineFormat {
  type: LineType;
  table: keyof Database;
  columns: Column[];
  /** The columns its lines are in order of (an export's `order by`). */
  order: readonly string[];
  schema: TSchema;
  check: ReturnType<typeof TypeCompiler.Compile>;
}

/** Times as stored: ISO 8601 UTC (`2024-04-08T05:25:26.020Z`). */
const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$';

/** The largest value of PostgreSQL's `integer`. */
const INTEGER_MAX = 2_147_483_647;

function schemaOf(column: ColumnKind): TSchema {
  switch (column.kind) {
    case 'id':
      return Type.String({ pattern: ID_PATTERN.source });
    case 'ref':
    case 'subjectId':
      return Type.String({ minLength: 1, maxLength: 64 });
    case 'subjectType':
      return Type.Union(column.of.map((s) => Type.Literal(s)));
    case 'text':
      if (column.values) return Type.Union(column.values.map((v) => Type.Literal(v)));
      return Type.String({
        maxLength: column.max ?? 10_000,
        ...(column.name ? { minLength: 1, pattern: '\\S' } : {}),
      });
    case 'time':
      return Type.String({ pattern: TIME_PATTERN });
    case 'int':
      // Within the column's type on both stores: a value PostgreSQL refuses is the line's fault.
      return Type.Integer({
        minimum: column.min ?? -INTEGER_MAX - 1,
        maximum: column.max ?? INTEGER_MAX,
      });
    case 'num':
      return Type.Number();
    case 'bool':
      return Type.Boolean();
    case 'json':
      return column.schema;
    case 'bytes':
      // Base64 of at most `max` bytes.
      return Type.String({
        maxLength: Math.ceil(column.max / 3) * 4,
        pattern: '^[A-Za-z0-9+/]*={0,2}$',
      });
  }
}

/** The header line: first in every export. */
export const HeaderSchema = Type.Object(
  {
    type: Type.Literal('header'),
    format: Type.Literal(FORMAT_NAME),
    version: Type.Literal(FORMAT_VERSION),
    workspace: Type.Object({ id: Type.String(), name: Type.String() }),
    exportedAt: Type.String({ pattern: TIME_PATTERN }),
    counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
/** Compiled check of the header line. */
export const checkHeader = TypeCompiler.Compile(HeaderSchema);

const keyOf = (column: string) => (column === 'type' ? 'kind' : column);

function build(type: LineType): LineFormat {
  const spec: { table: keyof Database; columns: unknown; order?: readonly string[] } =
    LINE_SPECS[type];
  const columnOf = (name: string, value: Spec[string]): Column => {
    if ('absentAs' in value)
      return { ...columnOf(name, value.column), absent: { value: value.absentAs } };
    return Array.isArray(value)
      ? { name, key: keyOf(name), type: value[0], nullable: true }
      : { name, key: keyOf(name), type: value as ColumnKind, nullable: false };
  };
  const columns: Column[] = Object.entries(spec.columns as Spec).map(([name, value]) =>
    columnOf(name, value),
  );
  const properties: Record<string, TSchema> = { type: Type.Literal(type) };
  for (const c of columns) {
    const s = schemaOf(c.type);
    const column = c.nullable ? Type.Union([s, Type.Null()]) : s;
    properties[c.key] = c.absent ? Type.Optional(column) : column;
  }
  const schema = Type.Object(properties, { additionalProperties: false, $id: type });
  return {
    type,
    table: spec.table,
    columns,
    order: spec.order ?? ['id'],
    schema,
    check: TypeCompiler.Compile(schema),
  };
}

/** Every line type, in file order. */
export const LINE_FORMATS: readonly LineFormat[] = (Object.keys(LINE_SPECS) as LineType[]).map(
  build,
);
/** Line formats by type. */
export const FORMAT_OF = new Map(LINE_FORMATS.map((f) => [f.type as string, f]));

/** The line type of each custom field `record_type`. */
export const CUSTOM_RECORD_LINE: Record<string, LineType> = {
  people: 'person',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  quoteProduct: 'quoteLine',
  todo: 'todo',
  customObject: 'customObject',
};

/** The line type of each custom Ref target. */
export const REF_TARGET_LINE: Record<string, LineType> = {
  user: 'user',
  people: 'person',
  organization: 'organization',
  deal: 'deal',
  pipeline: 'pipeline',
  pipelineStage: 'pipelineStage',
  webForm: 'webForm',
  sequence: 'sequence',
  customObject: 'customObject',
};

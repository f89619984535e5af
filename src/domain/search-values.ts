import type { CustomFieldDefinition } from './custom-fields.ts';
import { BUILT_IN_FIELDS, type BuiltInFieldType } from './field-catalogue.ts';

/**
 * How a field's rendered value reads, for search: `text` (a string), `id` (a record id),
 * `number`, `boolean`, `date` (a Timestamp, `date` and `dateTime` fields), `textList` (an
 * array of strings: multi-select), `ref` (`{id, name}`) and `refList` (an array of them).
 */
export type SearchKind =
  | 'text'
  | 'id'
  | 'number'
  | 'boolean'
  | 'date'
  | 'textList'
  | 'ref'
  | 'refList';

/** The kind of a built-in or custom field type. */
export function kindOf(type: BuiltInFieldType): SearchKind {
  switch (type) {
    case 'string':
    case 'singleSelect':
      return 'text';
    case 'id':
      return 'id';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'dateTime':
      return 'date';
    case 'multiSelect':
      return 'textList';
    default:
      return type.startsWith('multi') ? 'refList' : 'ref';
  }
}

/**
 * Characters of text a search sorts by: text is ordered by its start (then by id), so that
 * a cursor, which carries the sort values, stays small whatever the field holds.
 */
export const SORT_TEXT_CHARS = 200;

/**
 * The first `SORT_TEXT_CHARS` UTF-16 units of `text`, without a surrogate pair cut in two,
 * and any lone surrogate as U+FFFD (what UTF-8, and so both databases, store): the text a
 * search sorts by and the search index holds.
 */
export function sortText(text: string): string {
  let cut = text.length > SORT_TEXT_CHARS ? text.slice(0, SORT_TEXT_CHARS) : text;
  const last = cut.charCodeAt(cut.length - 1);
  if (cut.length < text.length && last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return /[\ud800-\udfff]/.test(cut)
    ? cut.replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '\ufffd',
      )
    : cut;
}

/**
 * Compares two texts by code point (UTF-8 byte order: what SQLite's BINARY and PostgreSQL's
 * `C` collations do), so an order the databases give is the order a search defines.
 */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+10000 and above) come after U+E000–U+FFFF in code point order.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * A number as text that sorts as the number does (16 hex digits of its IEEE 754 bits,
 * the sign bit flipped for positives and every bit for negatives); -0 reads as 0.
 */
export function numberKey(n: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n === 0 ? 0 : n);
  let bits = view.getBigUint64(0);
  bits = bits >> 63n ? ~bits & 0xffffffffffffffffn : bits | 0x8000000000000000n;
  return bits.toString(16).padStart(16, '0');
}

/** A field the search index holds, and the key its values go under. */
export interface IndexedField {
  /** The record key (the field's Korean name). */
  name: string;
  kind: SearchKind;
  /**
   * The index's field key: a custom field's id (so a rename changes nothing), `b:` and the
   * name of a built-in field, `g:` and the name of a field whose pairs of characters are
   * held for `CONTAINS`, `p:` and a single-select field's id for its values placed in the
   * list's order (`PLACED_PREFIX`).
   */
  key: string;
}

/**
 * The key prefix of a single-select field's placed rows: each value followed by U+0001 and
 * the record's `생성 날짜`, so that a value's records read in the order of a list (creation,
 * then id) straight from the index. A select value names a large share of the records (8%
 * of a million people for one grade), and without them the first page of `EQ` walked the
 * list probing each record (about 640 probes, 1.7 ms at a million).
 */
export const PLACED_PREFIX = 'p:';

/** What separates a placed row's value from the creation time (PostgreSQL's text holds no U+0000). */
export const PLACED_SEPARATOR = '\u0001';

/** The built-in field a placed row orders by: the list's order. */
const CREATED = '생성 날짜';

/** Record types the search index covers. */
export const INDEXED_TYPES = ['people', 'organization', 'deal', 'lead'] as const;
export type IndexedType = (typeof INDEXED_TYPES)[number];

/** Kinds whose values the index holds (refs are matched by id or name: not held). */
const HELD: ReadonlySet<SearchKind> = new Set(['text', 'number', 'boolean', 'date', 'textList']);
/** Built-in kinds held: dates (ranges) and numbers (ranges and sorts); text is in columns. */
const HELD_BUILT_IN: ReadonlySet<SearchKind> = new Set(['date']);
/** Fields whose pairs of characters the index holds, for `CONTAINS`. */
export const GRAM_FIELDS: readonly string[] = ['이름'];

/**
 * The fields of `type` whose values the search index holds: its built-in numbers, dates and
 * booleans, its custom fields of those kinds and of text and multi-select, the pairs of
 * characters of its name, and its single-select fields again, placed (`PLACED_PREFIX`). The
 * one list the index's writer, its check and the search read.
 */
export function indexedFields(
  type: IndexedType,
  definitions: readonly CustomFieldDefinition[],
): IndexedField[] {
  const fields: IndexedField[] = [];
  const builtIn = new Set<string>();
  for (const f of BUILT_IN_FIELDS[type]) {
    builtIn.add(f.name);
    const kind = kindOf(f.type);
    if (HELD_BUILT_IN.has(kind) && !fields.some((x) => x.name === f.name))
      fields.push({ name: f.name, kind, key: `b:${f.name}` });
  }
  for (const d of definitions) {
    const kind = kindOf(d.type);
    if (!HELD.has(kind) || builtIn.has(d.name)) continue;
    fields.push({ name: d.name, kind, key: d.id });
    if (d.type === 'singleSelect')
      fields.push({ name: d.name, kind, key: `${PLACED_PREFIX}${d.id}` });
  }
  for (const name of GRAM_FIELDS) fields.push({ name, kind: 'text', key: `g:${name}` });
  return fields;
}

/**
 * The name a search looks an indexed field up by: the field's name; `g:` and the name for
 * its pairs of characters, `p:` and the name for its placed rows.
 */
export function indexedName(field: IndexedField): string {
  if (field.key.startsWith('g:')) return field.key;
  if (field.key.startsWith(PLACED_PREFIX)) return `${PLACED_PREFIX}${field.name}`;
  return field.name;
}

/** The values the index holds of one rendered value of `field` (none when there is none). */
export function indexValues(field: IndexedField, value: unknown): string[] {
  if (field.key.startsWith('g:')) return typeof value === 'string' ? pairsOf(value) : [];
  switch (field.kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [numberKey(value)] : [];
    case 'boolean':
      return typeof value === 'boolean' ? [value ? '1' : '0'] : [];
    case 'text':
    case 'date':
      return typeof value === 'string' ? [sortText(value)] : [];
    case 'textList':
      return Array.isArray(value)
        ? [...new Set(value.filter((v) => typeof v === 'string').map(sortText))]
        : [];
    default:
      return [];
  }
}

/**
 * The distinct pairs of consecutive code points of `text` lower-cased: a text that contains
 * another (ignoring case, as `CONTAINS`) holds every pair the other holds.
 */
export function pairsOf(text: string): string[] {
  const points = [...sortTextWhole(text.toLowerCase())];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < points.length; i++) pairs.add(points[i]! + points[i + 1]!);
  return [...pairs];
}

/** Whether `CONTAINS needle` can be answered from pairs: two code points or more, well formed. */
export function pairsAnswer(needle: string): boolean {
  const lower = needle.toLowerCase();
  return (
    !/[\ud800-\udfff]/.test(lower.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')) &&
    [...lower].length >= 2
  );
}

/** `text` with lone surrogates as U+FFFD, whole (no cut). */
function sortTextWhole(text: string): string {
  return /[\ud800-\udfff]/.test(text)
    ? text.replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '\ufffd',
      )
    : text;
}

/**
 * The index rows of a record's rendered JSON, each `key \u0000 value`, distinct; empty for a
 * JSON that is not an object.
 */
export function indexRowsOf(fields: readonly IndexedField[], json: string | null): Set<string> {
  const rows = new Set<string>();
  if (json === null) return rows;
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return rows;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return rows;
  const values = record as Record<string, unknown>;
  const created = values[CREATED];
  for (const field of fields) {
    if (!Object.hasOwn(values, field.name)) continue;
    const placed = field.key.startsWith(PLACED_PREFIX);
    if (placed && typeof created !== 'string') continue;
    for (const v of indexValues(field, values[field.name]))
      rows.add(`${field.key}\u0000${placed ? `${v}${PLACED_SEPARATOR}${created}` : v}`);
  }
  return rows;
}

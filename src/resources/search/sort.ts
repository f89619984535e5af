import type { SearchBody } from '../../api-schema/bodies/search.ts';
import { DomainError } from '../../domain/errors.ts';
import { compareText, SORT_TEXT_CHARS, sortText } from '../../domain/search-values.ts';
import type { RecordValues } from './filters.ts';
import type { SearchFields } from './search-fields.ts';

export { SORT_TEXT_CHARS };

/** A value a search sorts by: text, a number, or nothing (which sorts last either way). */
export type SortValue = string | number | null;

/** One key of a search's order. */
export interface SortKey {
  name: string;
  descending: boolean;
  /** The value the key sorts a record by. */
  sortValueOf(record: RecordValues): SortValue;
}

/** The sort keys of `sortList`, checked: a list field cannot be sorted by. */
export function compileSort(sortList: SearchBody['sortList'], fields: SearchFields): SortKey[] {
  return (sortList ?? []).map((item, i) => {
    const field = fields.get(item.fieldName, `sortList[${i}]`);
    const { name, kind } = field;
    if (kind === 'textList' || kind === 'refList') {
      throw new DomainError(
        'invalid_body',
        `sortList[${i}]: 목록 필드('${name}')로는 정렬할 수 없습니다.`,
      );
    }
    const sortValueOf = (record: RecordValues): SortValue => {
      const v = record[name];
      if (kind === 'ref')
        return v !== null && typeof v === 'object'
          ? sortText(String((v as { name?: unknown }).name))
          : null;
      if (kind === 'boolean') return typeof v === 'boolean' ? Number(v) : null;
      if (kind === 'number') return typeof v === 'number' ? v : null;
      return typeof v === 'string' ? sortText(v) : null;
    };
    return { name, descending: item.direction === 'desc', sortValueOf };
  });
}

/** A record's place in a sorted search: its sort values, then its id. */
export interface Place {
  values: SortValue[];
  id: string;
}

/**
 * Compares two places in the order of `keys` (nulls last; text by code point, as the
 * databases order it), ties broken by id.
 */
export function comparePlaces(keys: readonly SortKey[], a: Place, b: Place): number {
  for (let i = 0; i < keys.length; i++) {
    const x = a.values[i] ?? null;
    const y = b.values[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const order =
      typeof x === 'string' && typeof y === 'string' ? compareText(x, y) : x < y ? -1 : 1;
    if (order !== 0) return keys[i]!.descending ? -order : order;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The place of `record` under `keys`. */
export function placeOf(keys: readonly SortKey[], record: RecordValues, id: string): Place {
  return { values: keys.map((k) => k.sortValueOf(record)), id };
}

/** A place as a cursor's sort key (JSON, so text and numbers keep their types). */
export function encodePlace(place: Place): string {
  return JSON.stringify(place.values);
}

/** The sort values a cursor's sort key holds, or undefined when they do not fit `keys`. */
export function decodePlace(
  keys: readonly SortKey[],
  sortKey: string,
  id: string,
): Place | undefined {
  let values: unknown;
  try {
    values = JSON.parse(sortKey);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== keys.length) return undefined;
  if (!values.every((v) => v === null || typeof v === 'string' || typeof v === 'number'))
    return undefined;
  return { values: values as SortValue[], id };
}

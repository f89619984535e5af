import {
  MAX_FILTER_VALUES,
  SEARCH_OPERATORS,
  type SearchFilter,
  type SearchOperator,
} from '../../api-schema/bodies/search.ts';
import { DomainError } from '../../domain/errors.ts';
import { numberKey, sortText } from '../../domain/search-values.ts';
import type { SearchField, SearchFields, SearchKind } from './search-fields.ts';

/** A record's rendered values by key, as parsed from its stored JSON. */
export type RecordValues = Record<string, unknown>;

/** One checked filter: its field, and whether a record passes it. */
export interface CompiledFilter {
  field: SearchField;
  operator: SearchOperator;
  test(record: RecordValues): boolean;
  /** For `EQ` and `IN` on text and ids: the values a passing record's field equals one of. */
  equals?: readonly string[];
  /** For `CONTAINS`: the text asked for, as given. */
  needle?: string;
  /** What the search index (`search_values`) holds of every record that passes, if it can say. */
  index?: IndexCondition;
}

/**
 * The index rows of the field that a passing record has one of: one of `values`, a value in
 * a range (`from` inclusive, `to` exclusive, as index text), or any.
 */
export type IndexCondition =
  | { values: readonly string[] }
  | { from?: string; to?: string }
  | { any: true };

/** Groups of filters: a record matches when every filter of some group passes. */
export type FilterGroups = readonly (readonly CompiledFilter[])[];

/** Whether `record` passes `groups` (no groups: every record passes). */
export function matches(groups: FilterGroups, record: RecordValues): boolean {
  if (groups.length === 0) return true;
  return groups.some((filters) => filters.every((f) => f.test(record)));
}

const COMMON: readonly SearchOperator[] = ['EXISTS', 'NOT_EXISTS'];
/** `DATE_ON_OR_AFTER` … `DATE_LATER`: the operators of dates, as the body's schema lists them. */
const DATE_OPERATORS = SEARCH_OPERATORS.filter((o) => o.startsWith('DATE_'));

/** The operators each kind of field takes (numbers: `EQ` only among equalities, as the live API). */
export const OPERATORS_OF: Record<SearchKind, readonly SearchOperator[]> = {
  text: [...COMMON, 'EQ', 'NEQ', 'CONTAINS', 'NOT_CONTAINS', 'IN', 'NOT_IN'],
  id: [...COMMON, 'EQ', 'NEQ', 'IN', 'NOT_IN'],
  number: [...COMMON, 'EQ', 'LT', 'LTE', 'GT', 'GTE'],
  boolean: [...COMMON, 'EQ', 'NEQ'],
  date: [...COMMON, ...DATE_OPERATORS],
  textList: [...COMMON, 'LIST_CONTAIN', 'LIST_NOT_CONTAIN'],
  ref: [...COMMON, 'EQ', 'NEQ', 'IN', 'NOT_IN'],
  refList: [...COMMON, 'LIST_CONTAIN', 'LIST_NOT_CONTAIN'],
};

/** Whether a rendered value is there: not null, not an empty string, not an empty list. */
export function present(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

/** `2024-04-08` (a UTC day) of a Timestamp, or undefined for anything else. */
function dayOf(value: unknown): string | undefined {
  return typeof value === 'string' && DAY.test(value.slice(0, 10)) ? value.slice(0, 10) : undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 36_500;
const MAX_TEXT = 10_000;

/** The UTC day `days` days after `today` (`YYYY-MM-DD`). */
function shiftDay(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00.000Z`) + days * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

/** A `{id, name}` value that is `x` by id or by name. */
function isRef(value: unknown, x: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  const ref = value as { id?: unknown; name?: unknown };
  return ref.id === x || ref.name === x;
}

/**
 * Checks one filter against its field and returns its test. Every mismatch is a 400 that
 * names the filter (`filterGroupList[0].filters[1]`), and says what the field takes.
 * Days are UTC days; `today` is the day of the search.
 */
export function compileFilter(
  filter: SearchFilter,
  fields: SearchFields,
  where: string,
  today: string,
): CompiledFilter {
  const field = fields.get(filter.fieldName, where);
  const { operator } = filter;
  const key = field.name;
  const allowed = OPERATORS_OF[field.kind];
  if (!allowed.includes(operator)) {
    throw new DomainError(
      'invalid_body',
      `${where}: '${key}' 필드(${field.kind})에는 ${operator} 연산자를 쓸 수 없습니다. 쓸 수 있는 연산자: ${allowed.join(', ')}`,
    );
  }
  const bad = (wanted: string): never => {
    throw new DomainError(
      'invalid_body',
      `${where}.value 값이 올바르지 않습니다. 필요한 값: ${wanted}.`,
    );
  };
  const value = filter.value;
  const text = (nonEmpty: boolean): string => {
    if (typeof value !== 'string' || value.length > MAX_TEXT || (nonEmpty && value === ''))
      return bad(
        `${nonEmpty ? '빈 문자열이 아닌 ' : ''}${MAX_TEXT.toLocaleString('en-US')}자 이하의 문자열`,
      );
    return value;
  };
  const texts = (): string[] => {
    const list = typeof value === 'string' ? [value] : value;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      list.length > MAX_FILTER_VALUES ||
      !list.every((v) => typeof v === 'string' && v.length <= MAX_TEXT)
    )
      return bad(`문자열 1~${MAX_FILTER_VALUES}개의 배열`);
    return list as string[];
  };
  const number = (): number =>
    typeof value === 'number' && Number.isFinite(value) ? value : bad('숫자');
  const day = (v: unknown = value): string => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v)) || !DAY.test(v.slice(0, 10)))
      return bad('날짜 (YYYY-MM-DD 또는 ISO 8601 시각)');
    return v.length === 10 ? v : new Date(Date.parse(v)).toISOString().slice(0, 10);
  };
  const days = (): number =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DAYS
      ? (value as number)
      : bad(`0 이상 ${MAX_DAYS} 이하의 정수 (일수)`);
  const get = (r: RecordValues) => r[key];
  const compiled = (
    test: (r: RecordValues) => boolean,
    equals?: readonly string[],
    needle?: string,
    index?: IndexCondition,
  ): CompiledFilter => ({
    field,
    operator,
    test,
    ...(equals ? { equals } : {}),
    ...(needle !== undefined ? { needle } : {}),
    ...(index ? { index } : {}),
  });
  const values = (list: readonly string[]): IndexCondition => ({ values: list.map(sortText) });

  switch (operator) {
    case 'EXISTS':
      return compiled((r) => present(get(r)), undefined, undefined, { any: true });
    case 'NOT_EXISTS':
      return compiled((r) => !present(get(r)));
    case 'EQ':
    case 'NEQ': {
      const negate = operator === 'NEQ';
      let test: (v: unknown) => boolean;
      let equals: string[] | undefined;
      let index: IndexCondition | undefined;
      if (field.kind === 'number') {
        const n = number();
        test = (v) => v === n;
        index = { values: [numberKey(n)] };
      } else if (field.kind === 'boolean') {
        if (typeof value !== 'boolean') return bad('true 또는 false (JSON 불리언)');
        test = (v) => v === value;
        index = { values: [value ? '1' : '0'] };
      } else if (field.kind === 'ref') {
        const x = text(true);
        test = (v) => isRef(v, x);
      } else {
        const x = text(false);
        test = (v) => v === x;
        equals = [x];
        index = values(equals);
      }
      return negate
        ? compiled((r) => !test(get(r)))
        : compiled((r) => test(get(r)), equals, undefined, index);
    }
    case 'IN':
    case 'NOT_IN': {
      const list = texts();
      const set = new Set(list);
      const test =
        field.kind === 'ref'
          ? (v: unknown) => list.some((x) => isRef(v, x))
          : (v: unknown) => typeof v === 'string' && set.has(v);
      if (operator === 'NOT_IN') return compiled((r) => !test(get(r)));
      return field.kind === 'ref'
        ? compiled((r) => test(get(r)))
        : compiled((r) => test(get(r)), [...set], undefined, values([...set]));
    }
    case 'CONTAINS':
    case 'NOT_CONTAINS': {
      const given = text(true);
      const needle = given.toLowerCase();
      const test = (v: unknown) => typeof v === 'string' && v.toLowerCase().includes(needle);
      return operator === 'CONTAINS'
        ? compiled((r) => test(get(r)), undefined, given)
        : compiled((r) => !test(get(r)));
    }
    case 'LT':
    case 'LTE':
    case 'GT':
    case 'GTE': {
      const n = number();
      const cmp = {
        LT: (v: number) => v < n,
        LTE: (v: number) => v <= n,
        GT: (v: number) => v > n,
        GTE: (v: number) => v >= n,
      }[operator];
      // As index text: from n (inclusive) up, or below n (exclusive); the test drops n itself.
      const key = numberKey(n);
      const range = operator === 'GT' || operator === 'GTE' ? { from: key } : { to: `${key}~` };
      return compiled(
        (r) => {
          const v = get(r);
          return typeof v === 'number' && cmp(v);
        },
        undefined,
        undefined,
        range,
      );
    }
    case 'LIST_CONTAIN':
    case 'LIST_NOT_CONTAIN': {
      const list = texts();
      const test =
        field.kind === 'refList'
          ? (v: unknown) => Array.isArray(v) && v.some((item) => list.some((x) => isRef(item, x)))
          : (v: unknown) => Array.isArray(v) && list.some((x) => v.includes(x));
      if (operator === 'LIST_NOT_CONTAIN') return compiled((r) => !test(get(r)));
      return field.kind === 'refList'
        ? compiled((r) => test(get(r)))
        : compiled((r) => test(get(r)), undefined, undefined, values(list));
    }
    default: {
      const { test, from, to } = dateTest(operator, value, today, day, days, bad, key);
      return compiled(test, undefined, undefined, { from, to });
    }
  }
}

/** The test of a `DATE_…` operator on the UTC day of a field's Timestamp. */
function dateTest(
  operator: SearchOperator,
  value: unknown,
  today: string,
  day: (v?: unknown) => string,
  days: () => number,
  bad: (wanted: string) => never,
  key: string,
): { test: (r: RecordValues) => boolean; from?: string; to?: string } {
  let inRange: (d: string) => boolean;
  // The days that pass, as a range of index text: `from` (a day) on, before `to` (a day).
  let from: string | undefined;
  let to: string | undefined;
  const next = (d: string) => shiftDay(d, 1);
  switch (operator) {
    case 'DATE_ON_OR_AFTER': {
      const at = day();
      inRange = (d) => d >= at;
      from = at;
      break;
    }
    case 'DATE_ON_OR_BEFORE': {
      const at = day();
      inRange = (d) => d <= at;
      to = next(at);
      break;
    }
    case 'DATE_IS_SPECIFIC_DAY': {
      const at = day();
      inRange = (d) => d === at;
      from = at;
      to = next(at);
      break;
    }
    case 'DATE_BETWEEN': {
      if (!Array.isArray(value) || value.length !== 2) return bad('날짜 두 개의 배열 [시작, 끝]');
      const first = day(value[0]);
      const last = day(value[1]);
      if (first > last) return bad('시작이 끝보다 늦지 않은 날짜 두 개의 배열 [시작, 끝]');
      inRange = (d) => d >= first && d <= last;
      from = first;
      to = next(last);
      break;
    }
    case 'DATE_MORE_THAN_DAYS_AGO': {
      const before = shiftDay(today, -days());
      inRange = (d) => d < before;
      to = before;
      break;
    }
    case 'DATE_LESS_THAN_DAYS_AGO': {
      const after = shiftDay(today, -days());
      inRange = (d) => d > after && d <= today;
      from = next(after);
      to = next(today);
      break;
    }
    case 'DATE_LESS_THAN_DAYS_LATER': {
      const before = shiftDay(today, days());
      inRange = (d) => d >= today && d < before;
      from = today;
      to = before;
      break;
    }
    case 'DATE_MORE_THAN_DAYS_LATER': {
      const after = shiftDay(today, days());
      inRange = (d) => d > after;
      from = next(after);
      break;
    }
    case 'DATE_AGO': {
      const at = shiftDay(today, -days());
      inRange = (d) => d === at;
      from = at;
      to = next(at);
      break;
    }
    case 'DATE_LATER': {
      const at = shiftDay(today, days());
      inRange = (d) => d === at;
      from = at;
      to = next(at);
      break;
    }
    default:
      throw new Error(`unhandled operator ${operator}`);
  }
  const test = (r: RecordValues) => {
    const d = dayOf(r[key]);
    return d !== undefined && inRange(d);
  };
  return { test, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

import { DomainError } from '../domain/errors.ts';
import { unstorableChar, unstorableMessage } from './nul-text.ts';

/** Page size without `limit`, and the most one page holds (docs/decisions.md, Cursors). */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
const MAX_VALUE_LENGTH = 1_000;

/** Known query parameters of a request, with the unknown ones named. */
export interface ParsedQuery {
  values: Record<string, string | undefined>;
  ignored: string[];
}

/**
 * Reads the query parameters an endpoint knows; the rest are ignored and named (docs/decisions.md,
 * Wire format). A known parameter given twice, empty, absurdly long or holding U+0000 or a
 * surrogate without its pair is a 400 naming it.
 */
export function readQuery(
  query: unknown,
  known: readonly string[],
  /** Longer limits of some parameters (a search's cursor carries its sort values). */
  maxLengths: Readonly<Record<string, number>> = {},
): ParsedQuery {
  const values: Record<string, string | undefined> = {};
  const ignored: string[] = [];
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!known.includes(name)) {
      ignored.push(name);
      continue;
    }
    if (typeof value !== 'string') {
      throw new DomainError('invalid_parameter', `'${name}' 파라미터는 한 번만 보낼 수 있습니다.`);
    }
    if (value.length > (maxLengths[name] ?? MAX_VALUE_LENGTH)) {
      throw new DomainError('invalid_parameter', `'${name}' 파라미터 값이 너무 깁니다.`);
    }
    const char = unstorableChar(value);
    if (char !== undefined)
      throw new DomainError('invalid_parameter', unstorableMessage(name, char));
    values[name] = value;
  }
  return { values, ignored };
}

/** `limit`: a positive whole number, capped at 100; 50 when absent. */
export function readLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^[0-9]+$/.test(raw) || /^0+$/.test(raw)) {
    throw new DomainError(
      'invalid_parameter',
      `'limit' 파라미터는 1 이상의 정수여야 합니다: '${raw.slice(0, 100)}'`,
    );
  }
  // Any larger whole number, however long, gives the largest page (docs/decisions.md, Cursors).
  return raw.length > 3 ? MAX_LIMIT : Math.min(Number(raw), MAX_LIMIT);
}

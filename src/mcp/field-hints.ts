import { distance } from 'fastest-levenshtein';
import { type ApiAnswer, type ApiCall, query } from './api.ts';

const UNKNOWN_FIELD = /알 수 없는 필드(?:입니다)?:? '([^']*)'/;

/** Up to three of `known` nearest to `name` by edit distance, nearest first. */
export function closestNames(name: string, known: readonly string[]): string[] {
  return known
    .map((k) => ({ k, d: name.length > 200 ? Number.POSITIVE_INFINITY : distance(name, k) }))
    .filter(({ k, d }) => d <= Math.max(1, Math.floor(Math.max(k.length, name.length) / 2)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, 3)
    .map(({ k }) => k);
}

/**
 * For a refusal that names an unknown field (and no close ones, as search does already),
 * the closest field names of the record type (of one custom object definition, if given),
 * read from its field list; else nothing.
 */
export async function unknownFieldHint(
  call: ApiCall,
  type: string,
  res: ApiAnswer,
  customObjectDefinitionId?: string,
): Promise<Record<string, unknown>> {
  const message = String(res.json?.message ?? '');
  const unknown = UNKNOWN_FIELD.exec(message)?.[1];
  if (res.status !== 400 || unknown === undefined || message.includes('비슷한 필드')) return {};
  const fields = await call('GET', `/v2/field/${type}${query({ customObjectDefinitionId })}`);
  if (fields.status !== 200) return {};
  const names = (fields.json.data.fieldList as { name: string }[]).map((f) => f.name);
  return {
    unknownField: unknown,
    closestFields: closestNames(unknown, names),
    hint: 'list_fields gives every field name of the type',
  };
}

import { distance } from 'fastest-levenshtein';
import type { CustomFieldDefinition } from '../../domain/custom-fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { BUILT_IN_FIELDS, type FieldRecordType } from '../../domain/field-catalogue.ts';
import { kindOf, type SearchKind } from '../../domain/search-values.ts';

export type { SearchKind };

/** One field a search may filter, sort or choose by its Korean name. */
export interface SearchField {
  name: string;
  kind: SearchKind;
}

/** The fields of a record type a search knows: built-in ones, then the workspace's custom ones. */
export class SearchFields {
  private readonly byName = new Map<string, SearchField>();

  constructor(recordType: FieldRecordType, custom: readonly CustomFieldDefinition[]) {
    for (const field of BUILT_IN_FIELDS[recordType])
      this.byName.set(field.name, { name: field.name, kind: kindOf(field.type) });
    for (const field of custom)
      if (!this.byName.has(field.name))
        this.byName.set(field.name, { name: field.name, kind: kindOf(field.type) });
  }

  /** `names` in the record's key order (built-in fields first, then custom ones). */
  inKeyOrder(names: Iterable<string>): string[] {
    const order = [...this.byName.keys()];
    return [...new Set(names)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }

  /** The field named `name`, or a 400 naming it and the closest known names. */
  get(name: string, where: string): SearchField {
    const field = this.byName.get(name);
    if (field) return field;
    const close = closestNames(name, [...this.byName.keys()]);
    const hint = close.length > 0 ? ` 비슷한 필드: ${close.map((n) => `'${n}'`).join(', ')}` : '';
    throw new DomainError(
      'invalid_body',
      `${where}: 알 수 없는 필드입니다: '${name.slice(0, 100)}'.${hint}`,
    );
  }
}

/** Up to three known names nearest to `name` (by edit distance), nearest first. */
function closestNames(name: string, known: string[]): string[] {
  const scored = known
    .map((k) => ({ k, d: name.length > 200 ? Number.POSITIVE_INFINITY : distance(name, k) }))
    .filter(({ k, d }) => d <= Math.max(1, Math.floor(Math.max(k.length, name.length) / 2)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  return scored.slice(0, 3).map(({ k }) => k);
}

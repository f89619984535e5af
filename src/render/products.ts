import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import { type LatestNote, putNoteGroup, putOwnership, type Ref } from '../domain/records.ts';
import type { ProductTable } from '../model/tables.ts';

/** What a product record is rendered from. */
export interface ProductFacts {
  note: LatestNote | undefined;
  owner: Ref | null;
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** The product record (docs/decisions.md, Record keys). */
export function renderProduct(
  row: Selectable<ProductTable>,
  facts: ProductFacts,
): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id: row.id,
    이름: row.name,
    코드: row.code,
    유형: row.kind,
    금액: row.price,
    단위: row.unit,
  };
  putNoteGroup(r, facts.note);
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

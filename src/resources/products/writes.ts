import type { ProductKind } from '../../domain/quotes.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type OwnedInput, ownedColumns } from '../owned.ts';

/** A product to add. */
export interface NewProduct extends OwnedInput {
  name: string;
  code?: string | null;
  kind?: ProductKind;
  price: number;
  unit?: string | null;
  /**
   * Column values of the fields a create's `fieldList` gave (`CreateFields.columns`), over the
   * ones above.
   */
  columns?: Record<string, unknown>;
}

/** Adds products; returns their ids in order. */
export async function insertProducts(w: WorkspaceWrite, products: NewProduct[]): Promise<string[]> {
  const rows = [];
  for (const p of products) {
    const row = Object.assign(
      await ownedColumns(w, p),
      {
        name: p.name,
        code: p.code ?? null,
        kind: p.kind ?? '일반',
        price: p.price,
        unit: p.unit ?? null,
      },
      p.columns,
    );
    row.kind ??= '일반';
    rows.push(row);
  }
  await insertRecords(w, 'product', rows);
  return rows.map((r) => r.id);
}

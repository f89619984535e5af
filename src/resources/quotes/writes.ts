import type { StoredCustomValues } from '../../domain/custom-fields.ts';
import { newId } from '../../domain/ids.ts';
import { insertMany } from '../../store/insert.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { type OwnedInput, ownedColumns } from '../owned.ts';

/** One line of a quote. */
export interface NewQuoteLine {
  id?: string;
  productId: string;
  price: number;
  quantity: number;
  /** Subscription products only. */
  paymentCount?: number | null;
  paymentStartAt?: string | null;
  custom?: StoredCustomValues;
}

/** A quote of a deal or a lead. */
export interface NewQuote extends OwnedInput {
  name: string;
  dealId?: string | null;
  leadId?: string | null;
  isMain?: boolean;
  shareLink?: string | null;
  lines: NewQuoteLine[];
  /**
   * Column values of the fields a create's `fieldList` gave (`CreateFields.columns`), over the
   * ones above.
   */
  columns?: Record<string, unknown>;
}

/**
 * Adds quotes with their lines. A main quote unmarks the record's previous main quote
 * (a record has at most one), and the deal or lead is re-rendered.
 */
export async function insertQuotes(w: WorkspaceWrite, quotes: NewQuote[]): Promise<string[]> {
  const rows = [];
  const lines: Record<string, unknown>[] = [];
  const mainInBatch = new Map<string, { is_main: number }>();
  const mainOf = { deal_id: new Set<string>(), lead_id: new Set<string>() };
  for (const q of quotes) {
    const row = Object.assign(
      await ownedColumns(w, q),
      {
        deal_id: q.dealId ?? null,
        lead_id: q.leadId ?? null,
        name: q.name,
        is_main: q.isMain ? 1 : 0,
        share_link: q.shareLink ?? null,
      },
      q.columns,
    );
    rows.push(row);
    q.lines.forEach((line, position) => {
      lines.push({
        workspace_id: w.workspaceId,
        id: line.id ?? newId(),
        quote_id: row.id,
        position,
        product_id: line.productId,
        price: line.price,
        quantity: line.quantity,
        payment_count: line.paymentCount ?? null,
        payment_start_at: line.paymentStartAt ?? null,
        custom: JSON.stringify(line.custom ?? {}),
      });
    });
    if (q.isMain) {
      if (row.deal_id) mainOf.deal_id.add(row.deal_id);
      else if (row.lead_id) mainOf.lead_id.add(row.lead_id);
      // A later main quote of the same record in this batch wins, too.
      const key = row.deal_id ? `deal:${row.deal_id}` : `lead:${row.lead_id}`;
      const earlier = mainInBatch.get(key);
      if (earlier) earlier.is_main = 0;
      mainInBatch.set(key, row);
    }
  }
  await unmarkMainQuotes(w, 'deal_id', [...mainOf.deal_id]);
  await unmarkMainQuotes(w, 'lead_id', [...mainOf.lead_id]);
  await insertRecords(w, 'quote', rows);
  await insertMany(w.trx, 'quote_products', lines);
  for (const r of rows) w.touched.mark('deal', r.deal_id).mark('lead', r.lead_id);
  return rows.map((r) => r.id);
}

/** Unmarks the main quotes the deals (or leads) have now; looked up 500 records at a time. */
export async function unmarkMainQuotes(
  w: WorkspaceWrite,
  column: 'deal_id' | 'lead_id',
  recordIds: string[],
): Promise<void> {
  for (let i = 0; i < recordIds.length; i += 500) {
    const previous = await w.trx
      .selectFrom('quotes')
      .select('id')
      .where('workspace_id', '=', w.workspaceId)
      .where(column, 'in', recordIds.slice(i, i + 500))
      .where('is_main', '=', 1)
      .execute();
    if (previous.length === 0) continue;
    const previousIds = previous.map((p) => p.id);
    await w.trx
      .updateTable('quotes')
      .set({ is_main: 0, updated_at: w.now })
      .where('workspace_id', '=', w.workspaceId)
      .where('id', 'in', previousIds)
      .execute();
    for (const id of previousIds) w.touched.mark('quote', id);
  }
}

import type { Selectable } from 'kysely';
import {
  appendCustomFields,
  type CustomFieldDefinition,
  type NameOf,
} from '../domain/custom-fields.ts';
import { type ProductKind, quoteLineTerms } from '../domain/quotes.ts';
import { type LatestNote, putNoteGroup, putOwnership, type Ref } from '../domain/records.ts';
import type { QuoteProductTable, QuoteTable } from '../model/tables.ts';

/** A quote line with the `유형` of its product. */
export type QuoteLine = Selectable<QuoteProductTable> & { kind: ProductKind };

/** What a quote record is rendered from. */
export interface QuoteFacts {
  lines: QuoteLine[];
  note: LatestNote | undefined;
  owner: Ref | null;
  teams: Ref[];
  customFields: readonly CustomFieldDefinition[];
  lineCustomFields: readonly CustomFieldDefinition[];
  nameOf: NameOf;
}

/** The quote record (docs/decisions.md, Record keys), with its quote-product objects. */
export function renderQuote(
  row: Selectable<QuoteTable>,
  facts: QuoteFacts,
): Record<string, unknown> {
  let amount = 0;
  const lines = facts.lines.map((line) => {
    const terms = quoteLineTerms({
      kind: line.kind,
      price: line.price,
      quantity: line.quantity,
      paymentCount: line.payment_count,
      paymentStartAt: line.payment_start_at,
      quoteCreatedAt: row.created_at,
    });
    amount += terms.total;
    const out: Record<string, unknown> = {
      id: line.id,
      productId: line.product_id,
      금액: line.price,
      수량: line.quantity,
      '결제 횟수': terms.paymentCount,
      '시작 결제일': terms.firstPaymentAt,
      '마지막 결제일': terms.lastPaymentAt,
      전체금액: terms.total,
    };
    appendCustomFields(out, facts.lineCustomFields, JSON.parse(line.custom), facts.nameOf);
    return out;
  });
  const r: Record<string, unknown> = {
    id: row.id,
    '메인 견적서 여부': row.is_main === 1,
    이름: row.name,
    '공유 링크': row.share_link,
    '견적 구성 상품': lines,
    금액: amount,
  };
  putNoteGroup(r, facts.note);
  putOwnership(r, facts.owner, row.created_at, facts.teams, row.updated_at);
  appendCustomFields(r, facts.customFields, JSON.parse(row.custom), facts.nameOf);
  return r;
}

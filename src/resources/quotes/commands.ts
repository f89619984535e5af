import type { CreateQuoteBody, QuoteLineBody } from '../../api-schema/bodies/quotes.ts';
import { DomainError } from '../../domain/errors.ts';
import { parseDateValue } from '../../domain/field-values.ts';
import type { ProductKind } from '../../domain/quotes.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import { QUOTE } from '../../domain/record-types/quotes.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  afterCreate,
  checkReferenced,
  customOnCreate,
  fieldsOnCreate,
  referencedRecord,
} from '../commands.ts';
import { checkRequired, resolveFieldList } from '../fields/field-list.ts';
import { insertQuotes, type NewQuoteLine } from './writes.ts';

/** Columns of the quote fields that `fieldList` writes. */
const COLUMNS = fieldListColumns(QUOTE);

function invalid(message: string): DomainError {
  return new DomainError('invalid_body', message);
}

/**
 * `POST /v2/quote`: a quote of one deal or one lead with its product lines. A main quote
 * unmarks the record's previous one and sets its `메인 견적 상품 리스트`.
 */
export async function createQuote(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateQuoteBody,
): Promise<Written> {
  const dealId = body.dealId ?? null;
  const leadId = body.leadId ?? null;
  if ((dealId === null) === (leadId === null)) {
    throw invalid(`'dealId'와 'leadId' 중 정확히 하나를 보내 주세요.`);
  }
  if (dealId) await checkReferenced(w, 'deal', dealId, 'dealId');
  if (leadId) await checkReferenced(w, 'lead', leadId, 'leadId');
  const fields = await fieldsOnCreate(w, 'quote', body.fieldList, actorId);
  const lines: NewQuoteLine[] = [];
  let total = 0;
  for (const [i, line] of (body.quoteProductList ?? []).entries()) {
    const checked = await quoteLine(w, line, `quoteProductList[${i}]`);
    total += checked.price * checked.quantity * (checked.paymentCount ?? 1);
    lines.push(checked);
  }
  if (!Number.isFinite(total)) {
    throw invalid(`'quoteProductList': 견적 금액의 합이 너무 커서 계산할 수 없습니다.`);
  }
  const [id] = await insertQuotes(w, [
    {
      name: body.name,
      dealId,
      leadId,
      isMain: body.isMainQuote === true,
      ownerId: fields.ownerId,
      custom: fields.custom,
      lines,
      columns: fields.columns(COLUMNS),
    },
  ]);
  await afterCreate(w, 'quote', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

/**
 * A quote line checked against its product: subscriptions need `paymentCount` and
 * `paymentStartAt`, `일반` products take neither; price defaults to the product's, the
 * quantity (`amount`) to 1.
 */
async function quoteLine(
  w: WorkspaceWrite,
  line: QuoteLineBody,
  at: string,
): Promise<NewQuoteLine> {
  const product = await referencedRecord(w, 'product', line.productId, `${at}.productId`);
  const kind = product.kind as ProductKind;
  const count = line.paymentCount ?? null;
  const start = line.paymentStartAt ?? null;
  let paymentStartAt: string | null = null;
  if (kind === '일반') {
    if (count !== null) throw invalid(`'${at}.paymentCount': '일반' 상품에는 보낼 수 없습니다.`);
    if (start !== null) throw invalid(`'${at}.paymentStartAt': '일반' 상품에는 보낼 수 없습니다.`);
  } else {
    if (count === null)
      throw invalid(`'${at}.paymentCount': '${kind}' 상품에는 필요합니다 (1 이상의 정수).`);
    if (start === null) throw invalid(`'${at}.paymentStartAt': '${kind}' 상품에는 필요합니다.`);
    const parsed = parseDateValue(start);
    if (parsed === undefined) {
      throw invalid(
        `'${at}.paymentStartAt' 값은 YYYY-MM-DD 날짜 또는 시간대가 있는 ISO 8601 시각이어야 합니다: '${start}'`,
      );
    }
    paymentStartAt = parsed;
  }
  const fields = await resolveFieldList(w, 'quoteProduct', line.fieldList);
  checkRequired(fields, undefined);
  const price = line.price ?? Number(product.price);
  const quantity = line.amount ?? 1;
  if (!Number.isFinite(price * quantity * (count ?? 1))) {
    throw invalid(`'${at}': 금액 × 수량 × 결제 횟수가 너무 커서 계산할 수 없습니다.`);
  }
  return {
    productId: line.productId,
    price,
    quantity,
    paymentCount: count,
    paymentStartAt,
    custom: customOnCreate(fields.custom),
  };
}

import type { CreateProductBody, UpdateProductBody } from '../../api-schema/bodies/products.ts';
import { DomainError } from '../../domain/errors.ts';
import { fieldListColumns } from '../../domain/record-types/declaration.ts';
import { PRODUCT } from '../../domain/record-types/products.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import {
  addMemo,
  afterCreate,
  ChangeSet,
  fieldsOnCreate,
  pathRecord,
  updateRow,
} from '../commands.ts';
import { checkRequired, resolveFieldList } from '../fields/field-list.ts';
import { deleteFilesOf } from '../files/commands.ts';
import { deleteOwnedRows } from '../subject-rows.ts';
import { insertProducts } from './writes.ts';

/** Columns of the product fields that `fieldList` writes. */
const COLUMNS = fieldListColumns(PRODUCT);

/** `POST /v2/product`: a new product (`유형` `일반` unless fieldList says otherwise). */
export async function createProduct(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateProductBody,
): Promise<Written> {
  const fields = await fieldsOnCreate(w, 'product', body.fieldList, actorId);
  const [id] = await insertProducts(w, [
    {
      name: body.name,
      price: body.price,
      ownerId: fields.ownerId,
      custom: fields.custom,
      columns: fields.columns(COLUMNS),
    },
  ]);
  await afterCreate(w, 'product', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

/**
 * `POST /v2/product/{productId}`: a product's name, price and fields. A new name shows in
 * `메인 견적 상품 리스트` of every deal and lead whose main quote has the product; quote lines
 * keep their own price. `유형` decides the payment terms of the lines that use the product,
 * so it cannot change while quotes use it (409).
 */
export async function updateProduct(
  w: WorkspaceWrite,
  actorId: string,
  productId: string,
  body: UpdateProductBody,
): Promise<Written> {
  const row = await pathRecord(w, 'product', productId);
  const fields = await resolveFieldList(w, 'product', body.fieldList, productId);
  checkRequired(fields, JSON.parse(String(row.custom)));
  if (fields.fixed.has('유형') && fields.fixed.get('유형') === null)
    throw new DomainError('invalid_body', "'유형' 필드는 비울 수 없습니다.");
  const changes = new ChangeSet(row);
  if (body.name !== undefined) changes.field('이름', 'name', body.name);
  if (body.price !== undefined) changes.field('금액', 'price', body.price);
  changes.fixedFields(fields.fixed, COLUMNS).customValues(fields.definitions, fields.custom);
  if (changes.sets('kind') && (await quoteCount(w, productId)) > 0)
    throw new DomainError(
      'conflict',
      `견적서에 쓰인 상품의 '유형'은 바꿀 수 없습니다: '${productId}'`,
    );
  await updateRow(w, 'products', productId, changes.update(w.now));
  if (changes.sets('name')) await markMainQuoteHolders(w, productId);
  await addMemo(w, 'product', productId, body.memo, actorId);
  w.touched.mark('product', productId);
  return { id: productId, name: body.name ?? String(row.name), updatedAt: w.now };
}

/**
 * `POST /v2/product/{productId}/delete`: deletes a product with its notes, todos, activities
 * and history. A product that quote lines use is refused (409): the quotes would lose lines
 * and change their amounts; delete or change those quotes first.
 */
export async function deleteProduct(w: WorkspaceWrite, productId: string): Promise<void> {
  await pathRecord(w, 'product', productId);
  const quotes = await quoteCount(w, productId);
  if (quotes > 0)
    throw new DomainError(
      'conflict',
      `견적서 ${quotes}개에 쓰인 상품은 삭제할 수 없습니다: '${productId}'`,
    );
  const ws = w.workspaceId;
  await deleteOwnedRows(w, 'product', productId);
  await deleteFilesOf(w, 'product', productId);
  await w.trx
    .deleteFrom('products')
    .where('workspace_id', '=', ws)
    .where('id', '=', productId)
    .execute();
}

/** How many quotes have a line of the product. */
async function quoteCount(w: WorkspaceWrite, productId: string): Promise<number> {
  const row = await w.trx
    .selectFrom('quote_products')
    .select((eb) => eb.fn.count<number>('quote_id').distinct().as('n'))
    .where('workspace_id', '=', w.workspaceId)
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks the deals and leads whose main quote has a line of the product (they show its name). */
async function markMainQuoteHolders(w: WorkspaceWrite, productId: string): Promise<void> {
  const rows = await w.trx
    .selectFrom('quotes as q')
    .innerJoin('quote_products as qp', (j) =>
      j.onRef('qp.workspace_id', '=', 'q.workspace_id').onRef('qp.quote_id', '=', 'q.id'),
    )
    .select(['q.deal_id', 'q.lead_id'])
    .distinct()
    .where('q.workspace_id', '=', w.workspaceId)
    .where('q.is_main', '=', 1)
    .where('qp.product_id', '=', productId)
    .execute();
  for (const r of rows) w.touched.mark('deal', r.deal_id).mark('lead', r.lead_id);
}

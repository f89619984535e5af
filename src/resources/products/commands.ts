import type { ProductKind } from '../../domain/quotes.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { addMemo, customOnCreate, type Written } from '../commands.ts';
import { checkRequired, resolveFieldList } from '../fields/field-list.ts';
import type { CreateProductBody } from './schema.ts';
import { insertProducts } from './writes.ts';

/** `POST /v2/product`: a new product (`유형` `일반` unless fieldList says otherwise). */
export async function createProduct(
  w: WorkspaceWrite,
  actorId: string,
  body: CreateProductBody,
): Promise<Written> {
  const fields = await resolveFieldList(w.trx, w.workspaceId, 'product', body.fieldList);
  checkRequired(fields, undefined);
  const value = (name: string) => (fields.fixed.get(name) ?? null) as never;
  const [id] = await insertProducts(w, [
    {
      name: body.name,
      price: body.price,
      code: value('코드'),
      kind: (value('유형') as ProductKind | null) ?? '일반',
      unit: value('단위'),
      ownerId: fields.fixed.has('담당자') ? value('담당자') : actorId,
      custom: customOnCreate(fields.custom),
    },
  ]);
  await addMemo(w, 'product', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

import type { CreateProductBody } from '../../api-schema/bodies/products.ts';
import type { ProductKind } from '../../domain/quotes.ts';
import type { Written } from '../../domain/records.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
import { afterCreate, fieldsOnCreate } from '../commands.ts';
import { insertProducts } from './writes.ts';

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
      code: fields.value('코드'),
      kind: (fields.value('유형') as ProductKind | null) ?? '일반',
      unit: fields.value('단위'),
      ownerId: fields.ownerId,
      custom: fields.custom,
    },
  ]);
  await afterCreate(w, 'product', id!, body.memo, actorId);
  return { id: id!, name: body.name, createdAt: w.now };
}

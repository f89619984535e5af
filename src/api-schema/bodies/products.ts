import { type Static, Type } from '@sinclair/typebox';
import { FieldListSchema, MemoSchema, NameSchema } from './common.ts';

/** Body of `POST /v2/product`. */
export const CreateProductBody = Type.Object({
  name: NameSchema,
  price: Type.Number({ minimum: 0 }),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
});
export type CreateProductBody = Static<typeof CreateProductBody>;

/** Body of `POST /v2/product/{productId}`: any of the create's keys. */
export const UpdateProductBody = Type.Partial(CreateProductBody);
export type UpdateProductBody = Static<typeof UpdateProductBody>;

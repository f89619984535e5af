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

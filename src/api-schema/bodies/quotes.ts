import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../primitives.ts';
import { FieldListSchema, IdSchema, MemoSchema, NameSchema } from './common.ts';

/** One line of a quote in `POST /v2/quote` (`amount` is the quantity). */
export const QuoteLineBody = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  productId: IdSchema,
  price: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  amount: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0 }))),
  paymentCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1200 }))),
  paymentStartAt: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  fieldList: Type.Optional(FieldListSchema),
});
export type QuoteLineBody = Static<typeof QuoteLineBody>;

/** Body of `POST /v2/quote`: exactly one of `dealId` and `leadId`. */
export const CreateQuoteBody = Type.Object({
  name: NameSchema,
  dealId: Type.Optional(Nullable(IdSchema)),
  leadId: Type.Optional(Nullable(IdSchema)),
  isMainQuote: Type.Optional(Type.Boolean()),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
  quoteProductList: Type.Optional(Type.Array(QuoteLineBody, { maxItems: 500 })),
});
export type CreateQuoteBody = Static<typeof CreateQuoteBody>;

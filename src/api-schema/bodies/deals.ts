import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../primitives.ts';
import { FieldListSchema, IdSchema, MemoSchema, NameSchema } from './common.ts';

/** A deal's outcome as the body gives it (`status`). */
export const DealStatusSchema = Type.Union([
  Type.Literal('Won'),
  Type.Literal('Lost'),
  Type.Literal('In progress'),
]);

/** A `상태` label: workspace-defined text such as `SQL`. */
export const LabelSchema = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

/** Body of `POST /v2/deal`. */
export const CreateDealBody = Type.Object({
  name: NameSchema,
  pipelineId: IdSchema,
  pipelineStageId: IdSchema,
  status: DealStatusSchema,
  peopleId: Type.Optional(Nullable(IdSchema)),
  organizationId: Type.Optional(Nullable(IdSchema)),
  price: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
  상태: Type.Optional(Nullable(LabelSchema)),
});
export type CreateDealBody = Static<typeof CreateDealBody>;

/** Body of `POST /v2/deal/{dealId}`: any of the create keys. */
export const UpdateDealBody = Type.Partial(CreateDealBody);
export type UpdateDealBody = Static<typeof UpdateDealBody>;

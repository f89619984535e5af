import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../primitives.ts';
import { FieldListSchema, IdSchema, MemoSchema, NameSchema } from './common.ts';

/** Body of `POST /v2/lead`. */
export const CreateLeadBody = Type.Object({
  name: NameSchema,
  peopleId: Type.Optional(Nullable(IdSchema)),
  organizationId: Type.Optional(Nullable(IdSchema)),
  pipelineId: Type.Optional(Nullable(IdSchema)),
  pipelineStageId: Type.Optional(Nullable(IdSchema)),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
});
export type CreateLeadBody = Static<typeof CreateLeadBody>;

/** Body of `POST /v2/lead/{leadId}`: any of the create keys. */
export const UpdateLeadBody = Type.Partial(CreateLeadBody);
export type UpdateLeadBody = Static<typeof UpdateLeadBody>;

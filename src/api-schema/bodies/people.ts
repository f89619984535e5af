import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../primitives.ts';
import { FieldListSchema, IdSchema, MemoSchema, NameSchema } from './common.ts';

/** Body of `POST /v2/people`. */
export const CreatePersonBody = Type.Object({
  name: NameSchema,
  organizationId: Type.Optional(Nullable(IdSchema)),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
});
export type CreatePersonBody = Static<typeof CreatePersonBody>;

/** Body of `POST /v2/people/{peopleId}`: every key optional. */
export const UpdatePersonBody = Type.Partial(CreatePersonBody);
export type UpdatePersonBody = Static<typeof UpdatePersonBody>;

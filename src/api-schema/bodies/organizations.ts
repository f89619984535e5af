import { type Static, Type } from '@sinclair/typebox';
import { FieldListSchema, MemoSchema, NameSchema } from './common.ts';

/** Body of `POST /v2/organization`. */
export const CreateOrganizationBody = Type.Object({
  name: NameSchema,
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
});
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

/** Body of `POST /v2/organization/{organizationId}`: every key optional. */
export const UpdateOrganizationBody = Type.Partial(CreateOrganizationBody);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

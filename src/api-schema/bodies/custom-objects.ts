import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../primitives.ts';
import { FieldListSchema, IdSchema, MemoSchema, NameSchema } from './common.ts';

/** A custom object definition's name, as `customObjectDefinitionName` gives it. */
const DefinitionNameSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

/**
 * Body of `POST /v2/custom-object` (docs/decisions.md, Other resources): the definition by id or by
 * name (one at least; both must name the same one), the 대표 field `이름` as a top-level `name` or in
 * `fieldList` (optional, as the live reference has it), `pipelineId` and `pipelineStageId` together
 * (the definition's pipeline), and `memo`.
 */
export const CreateCustomObjectBody = Type.Object({
  customObjectDefinitionId: Type.Optional(IdSchema),
  customObjectDefinitionName: Type.Optional(DefinitionNameSchema),
  name: Type.Optional(NameSchema),
  fieldList: Type.Optional(FieldListSchema),
  pipelineId: Type.Optional(Nullable(IdSchema)),
  pipelineStageId: Type.Optional(Nullable(IdSchema)),
  memo: Type.Optional(MemoSchema),
});
export type CreateCustomObjectBody = Static<typeof CreateCustomObjectBody>;

/** Body of `POST /v2/custom-object/{customObjectId}`: its stage, a note, its fields. */
export const UpdateCustomObjectBody = Type.Object({
  pipelineId: Type.Optional(Nullable(IdSchema)),
  pipelineStageId: Type.Optional(Nullable(IdSchema)),
  memo: Type.Optional(MemoSchema),
  fieldList: Type.Optional(FieldListSchema),
});
export type UpdateCustomObjectBody = Static<typeof UpdateCustomObjectBody>;

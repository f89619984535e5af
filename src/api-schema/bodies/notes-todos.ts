/** Bodies of the note and todo writes. */
import { type Static, Type } from '@sinclair/typebox';
import { FieldListSchema, IdSchema } from './common.ts';

/** The most characters a note's text holds, however it is sent. */
export const MAX_NOTE_TEXT = 100_000;
const NoteText = Type.String({ minLength: 1, maxLength: MAX_NOTE_TEXT, pattern: '\\S' });

/**
 * Body of `POST /v2/{type}/{id}/memo`: a note on the record. Its text as `text`, or as
 * `memo` (the key record writes and the live API's programs use; the same text if both), or
 * only as `htmlBody` (the text is then the HTML's); `htmlBody` keeps the HTML beside it.
 * `parentId` makes it a reply to a note of the same record.
 */
export const AddMemoBody = Type.Object({
  text: Type.Optional(NoteText),
  memo: Type.Optional(NoteText),
  htmlBody: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000, pattern: '\\S' })),
  typeId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'One of `GET /v2/memo/type-list` (`_id`)',
    }),
  ),
  parentId: Type.Optional(IdSchema),
});
export type AddMemoBody = Static<typeof AddMemoBody>;

/**
 * Body of `POST /v2/todo`: the record it is on (exactly one of the four ids) and its fields
 * by name in `fieldList` (`내용` required; `유형`, `시작 날짜`, `마지막 날짜`, `완료`, `담당자`
 * and the workspace's todo custom fields), as `GET /v2/field/todo` lists them.
 */
export const CreateTodoBody = Type.Object({
  dealId: Type.Optional(IdSchema),
  leadId: Type.Optional(IdSchema),
  peopleId: Type.Optional(IdSchema),
  organizationId: Type.Optional(IdSchema),
  fieldList: FieldListSchema,
});
export type CreateTodoBody = Static<typeof CreateTodoBody>;

/**
 * Body of `POST /v2/todo/{todoId}`: fields to change by name; `완료` (`booleanValue`)
 * completes the todo or opens it again. The record it is on does not change.
 */
export const UpdateTodoBody = Type.Object({ fieldList: FieldListSchema });
export type UpdateTodoBody = Static<typeof UpdateTodoBody>;

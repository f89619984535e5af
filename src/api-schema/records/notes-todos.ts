/** The todos and notes (memos), each attached to at most one deal, lead, person or organization. */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Ref, Timestamp } from '../primitives.ts';
import { Closed, text, WithCustomFields } from './common.ts';

/** The ids of the record a todo or note is attached to: one set, the others null. */
const subjectIdKeys = {
  dealId: Nullable(Id),
  leadId: Nullable(Id),
  peopleId: Nullable(Id),
  organizationId: Nullable(Id),
};

/** A todo of `GET /v2/todo`. */
export const TodoRecord = WithCustomFields(
  {
    id: Id,
    ...subjectIdKeys,
    내용: text,
    유형: text,
    '시작 날짜': Nullable(Timestamp),
    '마지막 날짜': Nullable(Timestamp),
    완료: Type.Boolean(),
    '완료 날짜': Nullable(Timestamp),
    담당자: Nullable(Ref),
    팀: Type.Array(Ref),
    '생성 날짜': Timestamp,
    '수정 날짜': Timestamp,
  },
  'A todo, then the workspace’s todo custom fields',
);
export type TodoRecord = Static<typeof TodoRecord>;

/** A note type of `GET /v2/memo/type-list`: `color` is a color name (`blue`, `orange`, ...). */
export const MemoTypeRecord = Closed({ _id: text, value: text, color: text }, 'A type of note');
export type MemoTypeRecord = Static<typeof MemoTypeRecord>;

/**
 * The keys of a note after its id (and, in a list, its `cursorId`): `htmlBody` is the note
 * as HTML when it was written so, `todoId` the todo it was written on, `parentId` the note
 * it answers.
 */
const memoKeys = {
  text,
  htmlBody: Nullable(text),
  typeList: Type.Array(MemoTypeRecord, {
    maxItems: 1,
    description: 'The note’s type (`GET /v2/memo/type-list`), or `[]` without one',
  }),
  ...subjectIdKeys,
  productId: Nullable(Id),
  quoteId: Nullable(Id),
  todoId: Nullable(Id),
  parentId: Nullable(Id),
  ownerId: Nullable(Id),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** A note of `GET /v2/memo/{memoId}` (and the answer of a note's write). */
export const MemoRecord = Closed(
  { id: Id, ...memoKeys },
  'A note (memo): its record’s id under its key, the others null (all null for a custom object’s)',
);
export type MemoRecord = Static<typeof MemoRecord>;

/** A note of `GET /v2/memo`: `cursorId` continues the list after it. */
export const MemoListRecord = Closed(
  {
    id: Id,
    cursorId: Type.String({ description: 'The cursor that lists the notes after this one' }),
    ...memoKeys,
  },
  'A note (memo) in the list: as one note, with its cursorId',
);
export type MemoListRecord = Static<typeof MemoListRecord>;

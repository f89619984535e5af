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

/** A note of `GET /v2/memo` and `GET /v2/memo/{memoId}`. */
export const MemoRecord = Closed(
  {
    id: Id,
    text,
    typeList: Type.Array(MemoTypeRecord, {
      maxItems: 1,
      description: 'The note’s type (`GET /v2/memo/type-list`), or `[]` without one',
    }),
    ...subjectIdKeys,
    ownerId: Nullable(Id),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A note (memo); all subject ids are null for a note on a product or quote',
);
export type MemoRecord = Static<typeof MemoRecord>;

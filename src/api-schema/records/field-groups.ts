/**
 * The field groups (docs/decisions.md, Record keys) that several records share, each in its order:
 * the deal counters, the latest note, the latest web form, the sequence keys, ownership and the
 * todo counters.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Ref, Timestamp } from '../primitives.ts';
import { count, optionalText } from './common.ts';

/** How many leads and deals (open, won, lost) the record has. */
export const dealCounters = {
  '리드 개수': count,
  '딜 개수': count,
  '진행중 딜 개수': count,
  '성사된 딜 개수': count,
  '실패된 딜 개수': count,
};
/** The latest note: its text, date and author. */
export const noteGroup = {
  '최근 작성된 노트': optionalText,
  '최근 노트 작성일': Nullable(Timestamp),
  '최근 노트 작성자': Nullable(Ref),
};
/** The latest web-form submission and its date. */
export const webFormGroup = {
  '최근 제출된 웹폼': Nullable(Ref),
  '최근 웹폼 제출 날짜': Nullable(Timestamp),
};
/** SEQUENCE without `등록된 시퀀스 목록`, which closes the fixed keys (docs/decisions.md, Record keys). */
export const sequenceGroup = {
  '최근 등록한 시퀀스': Nullable(Ref),
  '최근 시퀀스 등록일': Nullable(Timestamp),
  '누적 시퀀스 등록수': count,
  '현재 진행중인 시퀀스 여부': Type.Boolean(),
};
/** The owner, creation date, teams and update date. */
export const ownership = {
  담당자: Nullable(Ref),
  '생성 날짜': Timestamp,
  팀: Type.Array(Ref),
  '수정 날짜': Timestamp,
};
/** The next todo and the todo counts. */
export const todoGroup = {
  '다음 TODO': optionalText,
  '전체 TODO': count,
  '완료 TODO': count,
  '미완료 TODO': count,
};

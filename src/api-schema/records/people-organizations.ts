/**
 * The people and organization records (docs/decisions.md, Record keys) with their exact keys in
 * wire order, then the workspace's custom fields. `test/record-schemas.test.ts` checks them against
 * the render functions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Ref } from '../primitives.ts';
import { optionalText, text, WithCustomFields } from './common.ts';
import {
  dealCounters,
  noteGroup,
  ownership,
  sequenceGroup,
  todoGroup,
  webFormGroup,
} from './field-groups.ts';

/**
 * The people record (docs/decisions.md, Record keys) of `GET /v2/people` and
 * `GET /v2/people/{peopleId}`.
 */
export const PeopleRecord = WithCustomFields(
  {
    id: Id,
    organizationId: Nullable(Id),
    이름: text,
    이메일: optionalText,
    전화: optionalText,
    포지션: optionalText,
    '프로필 사진': optionalText,
    링크드인: optionalText,
    ...dealCounters,
    ...noteGroup,
    ...webFormGroup,
    ...sequenceGroup,
    '수신 거부 여부': Type.Boolean(),
    '수신 거부 사유': optionalText,
    ...ownership,
    ...todoGroup,
    '제출된 웹폼 목록': Type.Array(Ref),
    '등록된 시퀀스 목록': Nullable(Type.Array(Ref)),
  },
  'A person (고객), then the workspace’s people custom fields',
);
export type PeopleRecord = Static<typeof PeopleRecord>;

/** The organization record (docs/decisions.md, Record keys). */
export const OrganizationRecord = WithCustomFields(
  {
    id: Id,
    이름: text,
    이메일: optionalText,
    전화: optionalText,
    '프로필 사진': optionalText,
    링크드인: optionalText,
    ...dealCounters,
    ...noteGroup,
    ...webFormGroup,
    ...ownership,
    ...todoGroup,
    '제출된 웹폼 목록': Type.Array(Ref),
    '등록된 시퀀스 목록': Type.Array(Ref),
  },
  'An organization (회사), then the workspace’s organization custom fields',
);
export type OrganizationRecord = Static<typeof OrganizationRecord>;

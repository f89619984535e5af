/**
 * The custom object records (docs/decisions.md, Other resources): definitions, the records with
 * their definition's custom fields, their activities and their history.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../../domain/activities.ts';
import { PEOPLE_HISTORY_TYPES } from '../../domain/history.ts';
import { Id, Nullable, OneOf, Ref, Timestamp } from '../primitives.ts';
import { Closed, text, WithCustomFields } from './common.ts';
import { noteGroup, ownership, todoGroup } from './field-groups.ts';

/** A definition of `GET /v2/custom-object-definitions`. */
export const CustomObjectDefinitionRecord = Closed(
  { id: Id, name: text },
  'A custom object definition (the workspace’s own record type)',
);
export type CustomObjectDefinitionRecord = Static<typeof CustomObjectDefinitionRecord>;

/** A custom object record, then the custom fields of its definition. */
export const CustomObjectRecord = WithCustomFields(
  {
    id: Id,
    customObjectDefinitionId: Id,
    RecordId: Type.Integer({
      minimum: 1,
      description: 'Its number within its definition, from 1, in creation order',
    }),
    이름: Type.String({ description: 'The 대표 field: the record’s name' }),
    파이프라인: Nullable(Ref),
    '파이프라인 단계': Nullable(Ref),
    ...noteGroup,
    ...ownership,
    ...todoGroup,
  },
  'A custom object record, then the custom fields of its definition',
);
export type CustomObjectRecord = Static<typeof CustomObjectRecord>;

/** An activity of `GET /v2/custom-object/activity` (the live API's keys). */
export const CustomObjectActivityRecord = Closed(
  {
    id: Id,
    type: OneOf(ACTIVITY_TYPES),
    date: Timestamp,
    customObjectId: Id,
    meetingId: Nullable(Id),
    kakaoAlimtalkId: Nullable(Id),
    emailId: Nullable(Id),
    messageId: Nullable(Id),
    threadId: Nullable(Id),
    recordingId: Nullable(Id),
    smsId: Nullable(Id),
    memoId: Nullable(Id),
    todoId: Nullable(Id),
    emailLinkId: Nullable(Id),
  },
  'An activity of a custom object',
);
export type CustomObjectActivityRecord = Static<typeof CustomObjectActivityRecord>;

/** A change of `GET /v2/custom-object/history`. */
export const CustomObjectHistoryRecord = Closed(
  {
    id: Id,
    customObjectId: Id,
    type: OneOf(PEOPLE_HISTORY_TYPES),
    fieldName: text,
    fieldValue: Nullable(Type.String({ description: 'The new value as text; null when cleared' })),
    ownerId: Nullable(Id),
    createdAt: Timestamp,
  },
  'A change of a custom object',
);
export type CustomObjectHistoryRecord = Static<typeof CustomObjectHistoryRecord>;

/** The answer of `POST /v2/custom-object/{customObjectId}`. */
export const CustomObjectUpdated = Closed(
  {
    customObjectDefinition: Closed({ id: Id, name: text }, 'The record’s definition'),
    customObject: Closed(
      { id: Id, name: text, updatedAt: Timestamp },
      'The record: its id, name and 수정 날짜',
    ),
  },
  'An updated custom object and its definition',
);
export type CustomObjectUpdated = Static<typeof CustomObjectUpdated>;

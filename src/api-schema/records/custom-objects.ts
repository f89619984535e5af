/**
 * The custom object records (docs/decisions.md, Other resources): definitions, the records with
 * their definition's custom fields, their activities and their history.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../../domain/activities.ts';
import { PEOPLE_HISTORY_TYPES } from '../../domain/history.ts';
import { CUSTOM_OBJECT } from '../../domain/record-types/custom-objects.ts';
import { Id, Nullable, OneOf, Timestamp } from '../primitives.ts';
import { Closed, text, WithCustomFields } from './common.ts';
import { declaredProperties } from './declared.ts';

/** A definition of `GET /v2/custom-object-definitions`. */
export const CustomObjectDefinitionRecord = Closed(
  { id: Id, name: text },
  'A custom object definition (the workspace’s own record type)',
);
export type CustomObjectDefinitionRecord = Static<typeof CustomObjectDefinitionRecord>;

/**
 * A custom object record, then the custom fields of its definition, as
 * `src/domain/record-types/custom-objects.ts` declares it.
 */
export const CustomObjectRecord = WithCustomFields(
  declaredProperties(CUSTOM_OBJECT),
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

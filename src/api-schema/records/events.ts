/**
 * The event payloads (docs/decisions.md, Events and webhooks), keys in wire order: the body of a
 * webhook delivery, one schema per topic (`생성`, `수정`, `삭제`, `병합`) and per topic of a
 * custom object's (which also names its definition), the verification ping a
 * webhook's URL gets before it is saved, and the items of the event feed `GET /v2/event` (a payload
 * and its number `seq`, first). The values of `수정`'s `beforeField` and `afterField` are the live
 * API's (docs/webhooks.md, Values of `beforeField` and `afterField`). `test/event-schemas.test.ts`
 * checks them against `eventPayload`.
 *
 * This module imports nothing at run time but TypeBox and constant lists, so the client can
 * take its types from it (`import type`) without pulling in server code.
 */
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { EVENT_OBJECT_TYPES, EVENT_SOURCES } from '../../domain/events.ts';
import { Id, Nullable, OneOf, Ref, Timestamp } from '../primitives.ts';
import { Closed } from './common.ts';

/**
 * A value of `beforeField` or `afterField`: text (a date as `YYYY-MM-DD`, a date and time as
 * `YYYY-MM-DD 오전/오후 hh시 mm분` in Korea's time), a number, a boolean, the options of a
 * multi-select, a Ref, Refs, or null when empty.
 */
export const EventFieldValue = Type.Union(
  [
    Type.String(),
    Type.Number(),
    Type.Boolean(),
    Type.Array(Type.String()),
    Ref,
    Type.Array(Ref),
    Type.Null(),
  ],
  { description: 'The field’s value as the live API’s webhooks show it; null when empty' },
);
export type EventFieldValue = Static<typeof EventFieldValue>;

/** How the events of people, organizations, leads and deals name their record type. */
const RECORD_OBJECT_NAMES = (['people', 'organization', 'lead', 'deal'] as const).map(
  (type) => EVENT_OBJECT_TYPES[type],
);

/** The keys every event of a person, organization, lead or deal has, in order, for topic `event`. */
function eventHead<E extends string>(event: E) {
  return {
    event: Type.Literal(event),
    occurredAt: Timestamp,
    source: OneOf(EVENT_SOURCES),
    sourceId: Nullable(
      Type.String({ description: 'The token’s user (API), the import (데이터 가져오기); null' }),
    ),
    objectType: OneOf(RECORD_OBJECT_NAMES),
    objectId: Id,
    eventId: Type.String({
      minLength: 1,
      description: 'The write that caused it, shared by every event of that write',
    }),
  };
}

/**
 * The keys every event of a custom object has, in order: `objectType` `커스텀 오브젝트`, then
 * the definition the record is of, as the live API's payloads name it.
 */
function customObjectEventHead<E extends string>(event: E) {
  const { objectId, eventId, ...head } = eventHead(event);
  return {
    ...head,
    objectType: Type.Literal(EVENT_OBJECT_TYPES.customObject),
    customObjectDefinitionId: Type.String({
      minLength: 1,
      description: 'The custom object definition the record is of',
    }),
    objectId,
    eventId,
  };
}

/** The keys of a `수정` after the head: the changed key and its values. */
const updatedKeys = {
  fieldName: Type.String({ description: 'The changed key of the record, as the API names it' }),
  beforeField: EventFieldValue,
  afterField: EventFieldValue,
};

/** `생성`: a record was created. */
export const CreatedEventPayload = Closed(eventHead('생성'), 'A record was created');
export type CreatedEventPayload = Static<typeof CreatedEventPayload>;

/** `수정`: one key of a record's JSON changed (one event per changed key). */
export const UpdatedEventPayload = Closed(
  { ...eventHead('수정'), ...updatedKeys },
  'One key of a record changed',
);
export type UpdatedEventPayload = Static<typeof UpdatedEventPayload>;

/** `삭제`: a record was deleted, or merged into another. */
export const DeletedEventPayload = Closed(
  eventHead('삭제'),
  'A record was deleted, or merged into another',
);
export type DeletedEventPayload = Static<typeof DeletedEventPayload>;

/** `병합`: another record was merged into this one. */
export const MergedEventPayload = Closed(eventHead('병합'), 'Another record was merged into it');
export type MergedEventPayload = Static<typeof MergedEventPayload>;

/** `생성` of a custom object (custom objects have no `병합`). */
export const CustomObjectCreatedEventPayload = Closed(
  customObjectEventHead('생성'),
  'A custom object was created',
);
export type CustomObjectCreatedEventPayload = Static<typeof CustomObjectCreatedEventPayload>;

/** `수정` of a custom object: one key of its JSON changed. */
export const CustomObjectUpdatedEventPayload = Closed(
  { ...customObjectEventHead('수정'), ...updatedKeys },
  'One key of a custom object changed',
);
export type CustomObjectUpdatedEventPayload = Static<typeof CustomObjectUpdatedEventPayload>;

/** `삭제` of a custom object. */
export const CustomObjectDeletedEventPayload = Closed(
  customObjectEventHead('삭제'),
  'A custom object was deleted',
);
export type CustomObjectDeletedEventPayload = Static<typeof CustomObjectDeletedEventPayload>;

/**
 * A change of a person, organization, lead, deal or custom object: the body of a webhook
 * delivery.
 */
export const EventPayload = Type.Union(
  [
    CreatedEventPayload,
    UpdatedEventPayload,
    DeletedEventPayload,
    MergedEventPayload,
    CustomObjectCreatedEventPayload,
    CustomObjectUpdatedEventPayload,
    CustomObjectDeletedEventPayload,
  ],
  { description: 'A change of a record, by its topic `event`' },
);
export type EventPayload = Static<typeof EventPayload>;

/** The signed POST a webhook's URL gets before the webhook is saved; it wants a 2xx. */
export const WebhookVerifyPayload = Closed(
  { event: Type.Literal('verify'), webhookId: Id },
  'The verification of a webhook’s URL',
);
export type WebhookVerifyPayload = Static<typeof WebhookVerifyPayload>;

/** An event's number in the workspace's commit order, then the payload's keys. */
function numbered<P extends TProperties>(properties: P, description: string) {
  return Closed(
    {
      seq: Type.Integer({
        minimum: 1,
        description: 'Its number in the workspace, in commit order',
      }),
      ...properties,
    },
    description,
  );
}

/** An item of the event feed `GET /v2/event` (`eventList`): a payload and its `seq`. */
export const EventFeedItem = Type.Union(
  [
    numbered(CreatedEventPayload.properties, 'A record was created'),
    numbered(UpdatedEventPayload.properties, 'One key of a record changed'),
    numbered(DeletedEventPayload.properties, 'A record was deleted, or merged into another'),
    numbered(MergedEventPayload.properties, 'Another record was merged into it'),
    numbered(CustomObjectCreatedEventPayload.properties, 'A custom object was created'),
    numbered(CustomObjectUpdatedEventPayload.properties, 'One key of a custom object changed'),
    numbered(CustomObjectDeletedEventPayload.properties, 'A custom object was deleted'),
  ],
  { description: 'An event of the workspace and its number' },
);
export type EventFeedItem = Static<typeof EventFeedItem>;

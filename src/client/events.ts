/**
 * The events the service sends to webhooks and lists in its event feed, typed from the API's
 * own event schemas (`src/api-schema/records/events.ts`, type-only: nothing of them is loaded
 * at run time). Each is a union discriminated by `event`.
 */
import type * as Events from '../api-schema/records/events.ts';

/** `생성` of a custom object: with its definition's `customObjectDefinitionId`. */
export type CustomObjectCreatedEvent = Events.CustomObjectCreatedEventPayload;
/** `수정` of a custom object: with its definition's `customObjectDefinitionId`. */
export type CustomObjectUpdatedEvent = Events.CustomObjectUpdatedEventPayload;
/** `삭제` of a custom object: with its definition's `customObjectDefinitionId`. */
export type CustomObjectDeletedEvent = Events.CustomObjectDeletedEventPayload;
/** A change of a custom object (`objectType` `커스텀 오브젝트`), by its topic `event`. */
export type CustomObjectEvent =
  | CustomObjectCreatedEvent
  | CustomObjectUpdatedEvent
  | CustomObjectDeletedEvent;
/** `생성`: a record was created. */
export type RecordCreatedEvent = Events.CreatedEventPayload | CustomObjectCreatedEvent;
/** `수정`: one key of a record changed, with `fieldName`, `beforeField` and `afterField`. */
export type RecordUpdatedEvent = Events.UpdatedEventPayload | CustomObjectUpdatedEvent;
/** `삭제`: a record was deleted, or merged into another. */
export type RecordDeletedEvent = Events.DeletedEventPayload | CustomObjectDeletedEvent;
/** `병합`: another record was merged into this one (which stays; never a custom object). */
export type RecordMergedEvent = Events.MergedEventPayload;
/** A change of a person, organization, lead, deal or custom object, by its topic `event`. */
export type RecordEvent = Events.EventPayload;
/** A value of `beforeField` / `afterField`: text, number, boolean, string[], Ref, Ref[] or null. */
export type EventFieldValue = Events.EventFieldValue;
/** The signed POST a webhook's URL gets before the webhook is saved: `{event: 'verify', webhookId}`. */
export type WebhookVerifyEvent = Events.WebhookVerifyPayload;
/** What a webhook delivery's body holds: a record's change, or the verification ping. */
export type WebhookEvent = RecordEvent | WebhookVerifyEvent;
/** An item of the event feed `GET /v2/event`: an event and its number `seq`. */
export type EventFeedItem = Events.EventFeedItem;

/**
 * The events the service sends to webhooks and lists in its event feed, typed from the API's
 * own event schemas (`src/api-schema/records/events.ts`, type-only: nothing of them is loaded
 * at run time). Each is a union discriminated by `event`.
 */
import type * as Events from '../api-schema/records/events.ts';

/** `생성`: a record was created. */
export type RecordCreatedEvent = Events.CreatedEventPayload;
/** `수정`: one key of a record changed, with `fieldName`, `beforeField` and `afterField`. */
export type RecordUpdatedEvent = Events.UpdatedEventPayload;
/** `삭제`: a record was deleted, or merged into another. */
export type RecordDeletedEvent = Events.DeletedEventPayload;
/** `병합`: another record was merged into this one (which stays). */
export type RecordMergedEvent = Events.MergedEventPayload;
/** A change of a person, organization, lead or deal, by its topic `event`. */
export type RecordEvent = Events.EventPayload;
/** A value of `beforeField` / `afterField`: text, number, boolean, string[], Ref, Ref[] or null. */
export type EventFieldValue = Events.EventFieldValue;
/** The signed POST a webhook's URL gets before the webhook is saved: `{event: 'verify', webhookId}`. */
export type WebhookVerifyEvent = Events.WebhookVerifyPayload;
/** What a webhook delivery's body holds: a record's change, or the verification ping. */
export type WebhookEvent = RecordEvent | WebhookVerifyEvent;
/** An item of the event feed `GET /v2/event`: an event and its number `seq`. */
export type EventFeedItem = Events.EventFeedItem;
